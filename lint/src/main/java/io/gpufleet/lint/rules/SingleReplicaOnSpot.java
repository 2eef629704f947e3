package io.gpufleet.lint.rules;

import io.gpufleet.lint.Finding;
import io.gpufleet.lint.GpuTarget;
import io.gpufleet.lint.LintInput;
import io.gpufleet.lint.LintRule;
import io.gpufleet.lint.PodSite;
import io.gpufleet.lint.Severity;
import java.util.ArrayList;
import java.util.List;

/** A GPU service of one replica that may be scheduled to spot capacity. */
public final class SingleReplicaOnSpot implements LintRule {

  @Override
  public String id() {
    return "single-replica-on-spot";
  }

  @Override
  public Severity severity() {
    return Severity.WARNING;
  }

  @Override
  public String summary() {
    return "a GPU service runs one replica and may be scheduled to spot nodes";
  }

  @Override
  public String why() {
    return "EC2 reclaims spot capacity with two minutes' warning; with one replica every interruption is an outage "
        + "until a new node boots and the model loads again.";
  }

  @Override
  public String fix() {
    return "Run at least two replicas with a PodDisruptionBudget, or keep the service on on-demand capacity "
        + "(nodeSelector karpenter.sh/capacity-type: on-demand).";
  }

  @Override
  public List<Finding> check(LintInput input) {
    List<Finding> out = new ArrayList<>();
    for (PodSite s : input.gpuPodSites()) {
      if (s.kind() != PodSite.Kind.SERVICE || s.replicas() != 1) {
        continue;
      }
      List<GpuTarget> spot = input.targetsAdmitting(s).stream()
          .filter(t -> t.capacityType().filter("spot"::equals).isPresent()).toList();
      if (!spot.isEmpty()) {
        out.add(finding(s.owner(), "spec.replicas", "1 replica, and its pods may run on spot capacity of "
            + Offerings.sources(spot)));
      }
    }
    return out;
  }
}
