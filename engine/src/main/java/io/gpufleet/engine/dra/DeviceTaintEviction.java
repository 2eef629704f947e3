package io.gpufleet.engine.dra;

import io.gpufleet.model.dra.DeviceRequest;
import io.gpufleet.model.dra.DeviceTaint;
import io.gpufleet.model.dra.DeviceToleration;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.ResourceClaim;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * kube-controller-manager's device taint eviction controller
 * ({@code pkg/controller/devicetainteviction/device_taint_eviction.go}): a claim whose allocated
 * device carries a NoExecute taint that the request it was allocated for does not tolerate is to be
 * evicted when the taint was added; a toleration with {@code tolerationSeconds} puts that off by the
 * shortest such toleration (one without seconds tolerates it for ever). A pod goes at the earliest
 * time any of its claims does. NoSchedule and None taints evict nothing.
 */
public final class DeviceTaintEviction {

  /** When a claim is to be evicted, and the taint on which device decides it. */
  public record Eviction(Instant at, DeviceTaint taint, String device) {}

  private final DeviceTaints taints;

  public DeviceTaintEviction(DraObjects dra) {
    this.taints = new DeviceTaints(dra);
  }

  /**
   * The claim's eviction, if any of its allocated devices calls for one; a taint without
   * {@code timeAdded} counts as added at {@code unknownAdded}.
   */
  public Optional<Eviction> of(ResourceClaim claim, Allocation allocation, Instant unknownAdded) {
    Eviction first = null;
    for (Allocation.Result r : allocation.results()) {
      List<DeviceToleration> tolerations = tolerations(claim, r.request());
      for (DeviceTaint t : taints.of(r.driver(), r.pool(), r.device())) {
        if (t.effect() != DeviceTaint.Effect.NO_EXECUTE) {
          continue;
        }
        Optional<Duration> after = tolerated(t, tolerations);
        if (after.isEmpty()) {
          continue;
        }
        Instant at = t.timeAdded().orElse(unknownAdded).plus(after.get());
        if (first == null || at.isBefore(first.at())) {
          first = new Eviction(at, t, r.deviceId());
        }
      }
    }
    return Optional.ofNullable(first);
  }

  /**
   * How long after it was added the taint is tolerated: zero when no toleration matches, empty when
   * one matches without {@code tolerationSeconds} (for ever), else the shortest of the matching
   * ones' seconds, negative ones counting as zero ({@code tainteviction.getMinTolerationTime}).
   */
  static Optional<Duration> tolerated(DeviceTaint taint, List<DeviceToleration> tolerations) {
    Long min = null;
    boolean any = false;
    for (DeviceToleration t : tolerations) {
      if (!t.tolerates(taint)) {
        continue;
      }
      any = true;
      if (t.tolerationSeconds().isEmpty()) {
        return Optional.empty();
      }
      long s = Math.max(0, t.tolerationSeconds().get());
      min = min == null ? s : Math.min(min, s);
    }
    return Optional.of(any ? Duration.ofSeconds(min) : Duration.ZERO);
  }

  /** The tolerations of the request (or {@code request/subrequest}) a result was allocated for. */
  private static List<DeviceToleration> tolerations(ResourceClaim claim, String resultRequest) {
    for (DeviceRequest r : claim.spec().requests()) {
      for (DeviceRequest.Alternative a : r.alternatives()) {
        if (a.resultName().equals(resultRequest)) {
          return a.devices().tolerations();
        }
      }
    }
    return List.of();
  }
}
