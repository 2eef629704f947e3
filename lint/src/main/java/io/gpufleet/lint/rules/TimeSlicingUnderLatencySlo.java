package io.gpufleet.lint.rules;

import io.gpufleet.lint.Finding;
import io.gpufleet.lint.GpuTarget;
import io.gpufleet.lint.LintInput;
import io.gpufleet.lint.LintRule;
import io.gpufleet.lint.PodSite;
import io.gpufleet.lint.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A workload that declares a latency SLO ({@value #SLO_ANNOTATION}) and may be scheduled to
 * time-sliced GPUs.
 */
public final class TimeSlicingUnderLatencySlo implements LintRule {

  /** gpufleet's annotation declaring that a workload serves under a latency SLO, e.g. {@code "p99 200ms"}. */
  public static final String SLO_ANNOTATION = "gpufleet.io/latency-slo";

  @Override
  public String id() {
    return "time-slicing-latency-slo";
  }

  @Override
  public Severity severity() {
    return Severity.WARNING;
  }

  @Override
  public String summary() {
    return "a workload declaring a latency SLO (" + SLO_ANNOTATION + ") may land on time-sliced GPUs";
  }

  @Override
  public String why() {
    return "Time-slicing round-robins the card between processes: no memory or fault isolation, and the context "
        + "switches show up as p99 latency, so the SLO depends on whoever else lands on the card.";
  }

  @Override
  public String fix() {
    return "Keep SLO-bound serving on exclusive GPUs (or MIG slices on A100/H100-class cards): select nodes "
        + "whose device-plugin config does not time-slice, or drop the sharing from that pool.";
  }

  @Override
  public List<Finding> check(LintInput input) {
    List<Finding> out = new ArrayList<>();
    for (PodSite s : input.gpuPodSites()) {
      Optional<PodSite.Declared> slo = s.declared(SLO_ANNOTATION);
      if (slo.isEmpty()) {
        continue;
      }
      List<GpuTarget> sliced = input.targetsAdmitting(s).stream().filter(GpuTarget::timeSliced).toList();
      if (!sliced.isEmpty()) {
        out.add(finding(s.owner(), slo.get().field(), "declares latency SLO \"" + slo.get().value()
            + "\" but may run on time-sliced GPUs of " + Offerings.sources(sliced) + " (device-plugin config "
            + sliced.getFirst().plugin().name() + ")"));
      }
    }
    return out;
  }
}
