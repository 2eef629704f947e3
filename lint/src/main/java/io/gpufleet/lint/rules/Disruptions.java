package io.gpufleet.lint.rules;

import io.gpufleet.lint.LintInput;
import io.gpufleet.lint.Located;
import io.gpufleet.lint.PodSite;
import io.gpufleet.model.karpenter.Budget;
import io.gpufleet.model.karpenter.Disruption;
import io.gpufleet.model.karpenter.DisruptionReason;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.workload.IntOrPercent;
import io.gpufleet.model.workload.PodDisruptionBudget;
import java.util.Optional;

/**
 * What the input already forbids Karpenter to do, so that rules about disruption do not warn of
 * what cannot happen (reference §1.5, §1.6).
 */
final class Disruptions {

  private Disruptions() {}

  /**
   * Whether the NodePool's budgets forbid disruptions for {@code reason} at all times: a budget
   * that applies to the reason (it names it, or names none), has no schedule (so is always active)
   * and allows 0 nodes (a count of 0, or 0%, which rounds up to 0 of any node count). A budget with
   * a schedule forbids only within its window, so it does not count here.
   */
  static boolean budgetsForbid(Disruption d, DisruptionReason reason) {
    return d.budgets().stream().anyMatch(b -> b.appliesTo(reason) && b.schedule().isEmpty() && zero(b));
  }

  private static boolean zero(Budget b) {
    return switch (b.nodes()) {
      case IntOrPercent.Count c -> c.value() == 0;
      case IntOrPercent.Percent p -> p.percent() == 0;
    };
  }

  /**
   * Why Karpenter may not evict the site's pods voluntarily, if it may not: the pod template's
   * {@code karpenter.sh/do-not-disrupt: "true"} (Karpenter's {@code HasDoNotDisrupt},
   * pkg/utils/pod/scheduling.go, compares the value with "true"), or a PodDisruptionBudget that
   * allows no eviction while every replica is healthy. Either keeps the node out of consolidation
   * and drift, and holds an expiring node's drain until its terminationGracePeriod (reference §1.5,
   * §1.8).
   */
  static Optional<String> evictionForbidden(LintInput input, PodSite site) {
    if (site.annotations().get(KarpenterLabels.DO_NOT_DISRUPT).filter("true"::equals).isPresent()) {
      return Optional.of(KarpenterLabels.DO_NOT_DISRUPT + ": \"true\"");
    }
    for (Located<PodDisruptionBudget> p : input.pdbsCovering(site)) {
      if (p.value().disruptionsAllowed(site.replicas(), site.replicas()) == 0) {
        return Optional.of(p.ref() + " allows no eviction");
      }
    }
    return Optional.empty();
  }
}
