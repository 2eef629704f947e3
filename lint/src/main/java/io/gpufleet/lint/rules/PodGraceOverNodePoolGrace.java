package io.gpufleet.lint.rules;

import io.gpufleet.lint.Finding;
import io.gpufleet.lint.GpuTarget;
import io.gpufleet.lint.LintInput;
import io.gpufleet.lint.LintRule;
import io.gpufleet.lint.PodSite;
import io.gpufleet.lint.Severity;
import io.gpufleet.model.time.KubeDuration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A GPU pod whose grace period is longer than the {@code terminationGracePeriod} of a NodePool it
 * may land on (reference §1.8, Karpenter's NodePool doc comment).
 */
public final class PodGraceOverNodePoolGrace implements LintRule {

  @Override
  public String id() {
    return "pod-grace-over-nodepool-grace";
  }

  @Override
  public Severity severity() {
    return Severity.WARNING;
  }

  @Override
  public String summary() {
    return "a GPU pod's terminationGracePeriodSeconds exceeds the terminationGracePeriod of its NodePool";
  }

  @Override
  public String why() {
    return "Karpenter removes a draining node at its terminationGracePeriod whatever runs on it; a pod that needs "
        + "longer is deleted at once when the drain starts and still killed at the node's deadline, so it never "
        + "gets the grace it asked for.";
  }

  @Override
  public String fix() {
    return "Raise the NodePool's spec.template.spec.terminationGracePeriod above the pods' grace periods, or "
        + "shorten the pods' grace to what the node allows.";
  }

  @Override
  public List<Finding> check(LintInput input) {
    List<Finding> out = new ArrayList<>();
    for (PodSite s : input.gpuPodSites()) {
      long grace = s.spec().terminationGracePeriodSeconds();
      for (GpuTarget t : input.targetsAdmitting(s)) {
        Optional<Duration> nodeGrace = t.pool().flatMap(p -> p.value().template().terminationGracePeriod());
        if (nodeGrace.isPresent() && grace > nodeGrace.get().toSeconds()) {
          out.add(finding(s.owner(), s.field("terminationGracePeriodSeconds"), "grace period " + grace
              + "s is longer than " + t.pool().get().ref() + "'s terminationGracePeriod "
              + KubeDuration.format(nodeGrace.get())));
          break;
        }
      }
    }
    return out;
  }
}
