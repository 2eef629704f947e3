package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.engine.scheduler.ResourceVector;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The most any remaining option of a planned claim could still take, per resource: a cheap
 * necessary test that spares the full filter for pods that cannot possibly fit.
 */
record Headroom(long milliCpu, long memory, long ephemeral, long pods, Map<String, Long> scalars) {

  static Headroom of(List<TypeOption> options, ResourceVector used) {
    long cpu = Long.MIN_VALUE;
    long mem = Long.MIN_VALUE;
    long eph = Long.MIN_VALUE;
    long pods = Long.MIN_VALUE;
    Map<String, Long> scalars = new HashMap<>();
    for (TypeOption o : options) {
      ResourceVector a = o.allocatable();
      ResourceVector over = o.overhead();
      cpu = Math.max(cpu, a.milliCpu() - over.milliCpu() - used.milliCpu());
      mem = Math.max(mem, a.memory() - over.memory() - used.memory());
      eph = Math.max(eph, a.ephemeralStorage() - over.ephemeralStorage() - used.ephemeralStorage());
      pods = Math.max(pods, o.maxPods() - o.overheadPods());
      for (int i = 0; i < a.scalarCount(); i++) {
        String n = a.scalarName(i);
        scalars.merge(n, a.scalarValue(i) - over.scalar(n) - used.scalar(n), Math::max);
      }
    }
    return new Headroom(cpu, mem, eph, pods, scalars);
  }

  boolean admits(ResourceVector req, long podCount) {
    if (req.milliCpu() > milliCpu || req.memory() > memory || req.ephemeralStorage() > ephemeral || podCount > pods) {
      return false;
    }
    for (int i = 0; i < req.scalarCount(); i++) {
      long want = req.scalarValue(i);
      if (want > 0 && want > scalars.getOrDefault(req.scalarName(i), 0L)) {
        return false;
      }
    }
    return true;
  }
}
