package io.gpufleet.engine.dra;

import io.gpufleet.model.dra.Device;
import io.gpufleet.model.dra.DeviceTaint;
import io.gpufleet.model.dra.DeviceTaintRule;
import io.gpufleet.model.dra.DeviceToleration;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.ResourceSlice;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A device's taints as the allocator and the device taint eviction controller see them: those its
 * driver wrote in the ResourceSlice, then one per DeviceTaintRule whose selector matches it (a rule
 * "has the same effect as if the taint was specified directly in the ResourceSlice", k8s.io/api
 * resource/v1 types.go).
 */
public final class DeviceTaints {

  private final List<DeviceTaintRule> rules;
  private final List<ResourceSlice> slices;

  public DeviceTaints(DraObjects dra) {
    this.rules = dra.taintRules();
    this.slices = dra.slices();
  }

  /**
   * The taints on the device an allocation result names: its slice's, when a slice publishes it, and
   * the rules', which select allocated devices whether or not a slice still publishes them
   * ({@code device_taint_eviction_test.go}, "tainted-claim-through-rule").
   */
  public List<DeviceTaint> of(String driver, String pool, String device) {
    for (ResourceSlice s : slices) {
      if (s.driver().equals(driver) && s.pool().equals(pool)) {
        for (Device d : s.devices()) {
          if (d.name().equals(device)) {
            return of(driver, pool, d);
          }
        }
      }
    }
    return of(driver, pool, new Device(device, Map.of(), Map.of()));
  }

  /** The taints on {@code device} of {@code driver}'s pool {@code pool}. */
  public List<DeviceTaint> of(String driver, String pool, Device device) {
    if (rules.isEmpty()) {
      return device.taints();
    }
    List<DeviceTaint> out = new ArrayList<>(device.taints());
    for (DeviceTaintRule r : rules) {
      if (r.matches(driver, pool, device.name())) {
        out.add(r.taint());
      }
    }
    return out;
  }

  /**
   * The first taint that keeps a request with {@code tolerations} off the device: a NoSchedule or
   * NoExecute taint none of them tolerates (None, purely informational, keeps nothing off;
   * {@code allocator_testing.go}, "tainted-no-effect").
   */
  public static Optional<DeviceTaint> untolerated(List<DeviceTaint> taints, List<DeviceToleration> tolerations) {
    for (DeviceTaint t : taints) {
      if (t.restrictsAllocation() && tolerations.stream().noneMatch(x -> x.tolerates(t))) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }
}
