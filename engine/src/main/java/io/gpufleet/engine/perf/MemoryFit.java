package io.gpufleet.engine.perf;

import io.gpufleet.model.deviceplugin.SharingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * Which tenants of a colocation would run out of GPU memory. Time-slicing has no memory isolation
 * (k8s-gpu-semantics §2.2; pain point §7.10: one pod's allocations OOM its co-tenants), so the
 * tenants share the device's memory and those that allocate after it is full fail — and, sharing
 * no boundary, can take the others down with them. MPS clients through the device plugin each get
 * a pinned-memory limit of {@code floor(memory / replicas)} MiB (§2.2). Exclusive GPUs and MIG
 * instances hold one tenant within the device's memory.
 */
public final class MemoryFit {
  private MemoryFit() {}

  /** One tenant that would not get its memory, and why. */
  public record Shortfall(String tenant, long neededMiB, long availableMiB, String reason) {}

  /** Every tenant that would run out of memory; empty when all fit. Tenants allocate in list order. */
  public static List<Shortfall> check(Colocation c) {
    List<Shortfall> out = new ArrayList<>();
    long memory = c.device().memoryMiB();
    SharingMode within = c.mode() instanceof SharingMode.Mig m ? m.within() : c.mode();
    switch (within) {
      case SharingMode.Exclusive e -> {
        for (Tenant t : c.tenants()) {
          if (t.memoryMiB() > memory) {
            out.add(new Shortfall(t.name(), t.memoryMiB(), memory, "larger than " + c.device().name() + "'s memory"));
          }
        }
      }
      case SharingMode.TimeSlicing ts -> {
        long used = 0;
        for (Tenant t : c.tenants()) {
          if (used + t.memoryMiB() > memory) {
            out.add(new Shortfall(t.name(), t.memoryMiB(), Math.max(0, memory - used),
                "time-slicing shares " + memory + " MiB with no isolation; co-tenants already hold " + used + " MiB"));
          }
          used += t.memoryMiB();
        }
      }
      case SharingMode.Mps mps -> {
        long limit = mps.clientMemoryMiB(memory);
        for (Tenant t : c.tenants()) {
          if (t.memoryMiB() > limit) {
            out.add(new Shortfall(t.name(), t.memoryMiB(), limit,
                "the device plugin pins each of " + mps.replicas() + " MPS clients to memory/replicas"));
          }
        }
        long used = 0;
        for (Tenant t : c.tenants()) {
          used += t.memoryMiB();
          if (!mps.pinnedMemoryLimit() && used > memory) {
            out.add(new Shortfall(t.name(), t.memoryMiB(), Math.max(0, memory - used + t.memoryMiB()),
                "MPS clients share " + memory + " MiB"));
          }
        }
      }
      case SharingMode.Mig nested -> throw new IllegalStateException("nested MIG");
    }
    return out;
  }
}
