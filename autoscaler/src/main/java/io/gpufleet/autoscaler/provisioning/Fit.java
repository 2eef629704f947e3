package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.engine.scheduler.ResourceVector;

/** Whether requests fit in allocatable resources, dimension by dimension, as Karpenter's {@code resources.Fits}. */
final class Fit {
  private Fit() {}

  static boolean fits(ResourceVector req, long pods, ResourceVector alloc, long maxPods) {
    if (pods > maxPods || req.milliCpu() > alloc.milliCpu() || req.memory() > alloc.memory()
        || req.ephemeralStorage() > alloc.ephemeralStorage()) {
      return false;
    }
    for (int i = 0; i < req.scalarCount(); i++) {
      long want = req.scalarValue(i);
      if (want > 0 && want > alloc.scalar(req.scalarName(i))) {
        return false;
      }
    }
    return true;
  }
}
