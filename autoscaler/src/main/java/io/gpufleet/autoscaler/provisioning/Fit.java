package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.engine.scheduler.ResourceVector;

/** Whether requests fit in allocatable resources, dimension by dimension, as Karpenter's {@code resources.Fits}. */
final class Fit {
  private Fit() {}

  static boolean fits(ResourceVector req, long pods, ResourceVector alloc, long maxPods) {
    return fits(req, ResourceVector.ZERO, pods, alloc, maxPods);
  }

  /**
   * As {@link #fits} for {@code req} and {@code extra} together ({@code req.plus(extra)}), without making
   * their sum: a new claim's every option is asked this for each pod tried on it.
   */
  static boolean fits(ResourceVector req, ResourceVector extra, long pods, ResourceVector alloc, long maxPods) {
    if (pods > maxPods || req.milliCpu() + extra.milliCpu() > alloc.milliCpu()
        || req.memory() + extra.memory() > alloc.memory()
        || req.ephemeralStorage() + extra.ephemeralStorage() > alloc.ephemeralStorage()) {
      return false;
    }
    for (int i = 0; i < req.scalarCount(); i++) {
      String name = req.scalarName(i);
      long want = req.scalarValue(i) + extra.scalar(name);
      if (want > 0 && want > alloc.scalar(name)) {
        return false;
      }
    }
    // The names only extra has. Requests are never negative, so a name both have, too much for extra
    // alone, was too much for the sum above already.
    for (int i = 0; i < extra.scalarCount(); i++) {
      long want = extra.scalarValue(i);
      if (want > 0 && want > alloc.scalar(extra.scalarName(i))) {
        return false;
      }
    }
    return true;
  }
}
