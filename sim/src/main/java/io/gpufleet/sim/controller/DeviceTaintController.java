package io.gpufleet.sim.controller;

import io.gpufleet.engine.dra.DeviceTaintEviction;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.sim.kernel.Event;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.state.ClaimTable;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * kube-controller-manager's device taint eviction controller: a pod whose claim holds a device with
 * a NoExecute taint it does not tolerate is deleted when the taint was added, or when the claim's
 * {@code tolerationSeconds} run out ({@link DeviceTaintEviction}); its claims are then deallocated as
 * for any pod that goes. The taints are the written slices' and the DeviceTaintRules' (NVIDIA's driver
 * publishes none). The upstream event's reason and message name the eviction in the run record.
 */
final class DeviceTaintController {

  private final ApiServer api;
  /** The future eviction times a wake-up is already scheduled for. */
  private final Set<Instant> wakes = new TreeSet<>();

  DeviceTaintController(ApiServer api) {
    this.api = api;
  }

  void enforce() {
    ClaimTable table = api.state().dra();
    DraObjects written = table.written();
    if (written.taintRules().isEmpty() && written.slices().stream().allMatch(s -> s.devices().stream()
        .allMatch(d -> d.taints().isEmpty()))) {
      return;
    }
    DeviceTaintEviction eviction = new DeviceTaintEviction(written);
    Instant now = api.now();
    for (ClaimTable.Claim c : table.sorted()) {
      if (c.allocation().isEmpty() || c.reservedFor().isEmpty()) {
        continue;
      }
      Optional<DeviceTaintEviction.Eviction> e = eviction.of(c.claim(), c.allocation().get(), now);
      if (e.isEmpty()) {
        continue;
      }
      if (e.get().at().isAfter(now)) {
        if (wakes.add(e.get().at())) {
          api.schedule(e.get().at(), new Event.WorkloadSync());
        }
        continue;
      }
      for (String pod : List.copyOf(c.reservedFor())) {
        // device_taint_eviction.go: event reason DeviceTaintManagerEviction, "Marking for deletion".
        api.deletePod(pod, RunRecord.Kind.POD_EVICTED, "DeviceTaintManagerEviction: Marking for deletion (claim "
            + c.claim().key() + ", device " + e.get().device() + " has taint " + e.get().taint() + ")");
      }
    }
  }
}
