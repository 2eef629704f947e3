package io.gpufleet.manifest.advise;

import io.gpufleet.model.advise.Boundness;
import io.gpufleet.model.advise.Burstiness;
import io.gpufleet.model.advise.HostResources;
import io.gpufleet.model.advise.LatencySlo;
import io.gpufleet.model.advise.Load;
import io.gpufleet.model.advise.RequestDemand;
import io.gpufleet.model.advise.Trust;
import io.gpufleet.model.advise.WorkloadKind;
import io.gpufleet.model.advise.WorkloadProfile;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A workload profile as written, before defaults: what the YAML reader and the command-line flags
 * fill in, field by field. {@link #build} applies gpufleet's defaults, says which it applied, and
 * reports what is missing or contradictory under the profile's field paths ({@code spec.load.rate}),
 * which the caller maps to a file location or a flag.
 */
public final class ProfileDraft {

  /** Where a problem is, and what it is. */
  @FunctionalInterface
  public interface Problems {
    void report(String field, String message);
  }

  public String name;
  public WorkloadKind kind;
  public Integer replicas;
  public Double parameters;
  public Double bytesPerParameter;
  public Integer tokens;
  public Integer kernels;
  public String measuredGpu;
  public Double measuredLatencyMs;
  public Boundness measuredBound;
  public Long memoryMiB;
  public Double rate;
  public Burstiness burstiness;
  public Double sloP99Ms;
  public Trust trust;
  public long cpuMillis;
  public long hostMemoryMiB;

  /**
   * The profile, or empty after reporting why not.
   *
   * @param assumptions receives one sentence per default applied
   */
  public Optional<WorkloadProfile> build(Problems problems, List<String> assumptions) {
    String who = name == null ? "workload" : name;
    boolean ok = true;
    int ways = (parameters != null ? 1 : 0) + (kernels != null ? 1 : 0) + (measuredLatencyMs != null ? 1 : 0);
    if (ways == 0) {
      problems.report("spec.request", "required: one of model (parameters), kernels or measured (latency or throughput)");
      ok = false;
    } else if (ways > 1) {
      problems.report("spec.request", "give one of model, kernels or measured, found " + ways);
      ok = false;
    }
    if (measuredLatencyMs != null && measuredGpu == null) {
      problems.report("spec.request.measured.gpu", "required: the GPU the latency was measured on");
      ok = false;
    }
    if (rate == null) {
      problems.report("spec.load.rate", "required: requests per second per replica");
      ok = false;
    }
    if (parameters == null && memoryMiB == null) {
      problems.report("spec.memory", "required unless the model's parameters give it: GPU memory per replica");
      ok = false;
    }
    if (!ok) {
      return Optional.empty();
    }
    if (name == null) {
      name = "workload";
    }
    if (kind == null) {
      kind = WorkloadKind.INFERENCE;
      assumptions.add(who + ": kind not given, taken as inference.");
    }
    if (replicas == null) {
      replicas = 1;
      assumptions.add(who + ": replicas not given, taken as 1.");
    }
    RequestDemand demand;
    if (parameters != null) {
      if (bytesPerParameter == null) {
        bytesPerParameter = 2.0;
        assumptions.add(who + ": 2 bytes per parameter (bf16/fp16) assumed.");
      }
      if (tokens == null) {
        tokens = 1;
        assumptions.add(who + ": 1 decode step per request assumed (one pass over the weights, the unit a "
            + "per-token latency objective speaks of); set tokens for longer requests.");
      }
      demand = new RequestDemand.ModelWeights(parameters, bytesPerParameter, tokens);
    } else if (kernels != null) {
      demand = new RequestDemand.KernelStream(kernels);
    } else {
      if (measuredBound == null) {
        measuredBound = Boundness.MEMORY;
        assumptions.add(who + ": measured request taken as memory-bound (say bound: launch for many small kernels).");
      }
      demand = new RequestDemand.MeasuredAlone(measuredGpu, measuredLatencyMs, measuredBound);
    }
    if (memoryMiB == null) {
      var w = (RequestDemand.ModelWeights) demand;
      memoryMiB = w.defaultFootprintMiB();
      assumptions.add(String.format(Locale.ROOT,
          "%s: GPU memory per replica not given, taken as the weights (%d MiB) plus %d MiB for context and caches.",
          who, w.weightsMiB(), RequestDemand.ModelWeights.OVERHEAD_MIB));
    }
    if (burstiness == null) {
      burstiness = kind == WorkloadKind.NOTEBOOK || kind == WorkloadKind.DEV ? Burstiness.BURSTY : Burstiness.POISSON;
      assumptions.add(who + ": arrivals taken as " + burstiness.label() + ".");
    }
    if (trust == null) {
      trust = Trust.TRUSTED;
      assumptions.add(who + ": trust not given, replicas taken as trusted (one team); say untrusted for tenants "
          + "that must not share a card's fault domain.");
    }
    try {
      return Optional.of(new WorkloadProfile(name, kind, replicas, demand, memoryMiB, new Load(rate, burstiness),
          sloP99Ms == null ? Optional.empty() : Optional.of(new LatencySlo(sloP99Ms)), trust,
          new HostResources(cpuMillis, hostMemoryMiB)));
    } catch (IllegalArgumentException e) {
      problems.report("spec", e.getMessage());
      return Optional.empty();
    }
  }
}
