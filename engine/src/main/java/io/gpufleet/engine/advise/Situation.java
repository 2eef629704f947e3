package io.gpufleet.engine.advise;

import io.gpufleet.model.advise.Boundness;
import io.gpufleet.model.advise.Trust;
import io.gpufleet.model.advise.WorkloadKind;
import io.gpufleet.model.advise.WorkloadProfile;
import io.gpufleet.model.gpu.GpuModel;
import java.util.List;

/** The workloads and the GPU an advice is about, with the facts the rules of thumb ask. */
public record Situation(List<WorkloadProfile> workloads, GpuModel gpu) {

  public Situation {
    workloads = List.copyOf(workloads);
  }

  public int replicas() {
    return workloads.stream().mapToInt(WorkloadProfile::replicas).sum();
  }

  public boolean anySlo() {
    return workloads.stream().anyMatch(w -> w.slo().isPresent());
  }

  public boolean servingWithSlo() {
    return workloads.stream().anyMatch(w -> w.slo().isPresent() && w.kind() == WorkloadKind.INFERENCE);
  }

  public boolean anyUntrusted() {
    return workloads.stream().anyMatch(w -> w.trust() == Trust.UNTRUSTED);
  }

  /** Dev, test, notebooks or batch, or bursty arrivals, and no latency objective anywhere. */
  public boolean utilisationWork() {
    return !anySlo() && workloads.stream().allMatch(w -> w.kind() != WorkloadKind.INFERENCE
        || w.load().burstiness().scv() > 1);
  }

  /** Launch-bound work of trusted tenants (one team). */
  public boolean smallKernelsTrusted() {
    return workloads.stream().allMatch(w -> w.bound() == Boundness.LAUNCH && w.trust() == Trust.TRUSTED);
  }

  /**
   * A "big GPU" in the module's sense: one MIG can cut (A100, A30, H100, H200, B200). The module
   * names A100/H100 and p4/p5-class nodes.
   */
  public boolean bigGpu() {
    return gpu.migCapable();
  }
}
