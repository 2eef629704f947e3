package io.gpufleet.engine.advise;

import io.gpufleet.engine.perf.Calibration;
import io.gpufleet.engine.perf.Contention;
import io.gpufleet.engine.perf.Device;
import io.gpufleet.engine.perf.ServiceDemand;
import io.gpufleet.model.deviceplugin.SharingMode;
import io.gpufleet.model.advise.Boundness;
import io.gpufleet.model.gpu.GpuCatalog;
import java.util.List;

/**
 * How much of the GPU capacity paid for the requests use, the same yardstick for every option: each
 * request's work as a share of what a whole card serves with its kernels overlapped (bandwidth for
 * memory-bound requests, kernel slots for launch-bound ones), times the request rates, divided by
 * the GPUs bought. The H200 {@code small} workload alone uses about a tenth of a card.
 */
public final class CapacityUse {
  private CapacityUse() {}

  public static double of(List<Replica> replicas, Device card, int gpus, Calibration c, GpuCatalog catalog) {
    Contention overlap = Contention.of(SharingMode.Mps.unlimited(1), c);
    double used = 0;
    for (Replica r : replicas) {
      ServiceDemand d = ServiceDemand.of(r.profile().demand(), card, c, catalog);
      ServiceDemand e = d.bound() == Boundness.LAUNCH ? overlap.launchDemand(d) : d;
      used += r.profile().load().ratePerSecond() / 1000.0 * overlap.cardWork(e, true);
    }
    return used / gpus;
  }
}
