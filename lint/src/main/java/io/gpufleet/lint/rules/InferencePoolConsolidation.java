package io.gpufleet.lint.rules;

import io.gpufleet.lint.Finding;
import io.gpufleet.lint.GpuTarget;
import io.gpufleet.lint.LintInput;
import io.gpufleet.lint.LintRule;
import io.gpufleet.lint.Located;
import io.gpufleet.lint.PodSite;
import io.gpufleet.lint.Severity;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.Disruption;
import io.gpufleet.model.karpenter.DisruptionReason;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodePool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A GPU NodePool that serves inference (a GPU Deployment, StatefulSet or ReplicaSet of the input
 * may land on it) with {@code WhenEmptyOrUnderutilized} consolidation or {@code consolidateAfter: 0s}.
 * Not where the input already forbids it: budgets that allow 0 nodes for the reason at all times,
 * nodes annotated {@code karpenter.sh/do-not-disrupt}, and, for replacing busy nodes, services whose
 * pods Karpenter may not evict (do-not-disrupt pods, a PDB that allows no eviction).
 */
public final class InferencePoolConsolidation implements LintRule {

  @Override
  public String id() {
    return "inference-pool-consolidation";
  }

  @Override
  public Severity severity() {
    return Severity.WARNING;
  }

  @Override
  public String summary() {
    return "a NodePool serving GPU inference consolidates WhenEmptyOrUnderutilized, or with consolidateAfter 0s";
  }

  @Override
  public String why() {
    return "WhenEmptyOrUnderutilized (Karpenter's default) replaces a running inference node with a cheaper one, "
        + "evicting model servers that then reload for minutes; consolidateAfter 0s scales down the moment a "
        + "node is empty and buys it back on the next burst.";
  }

  @Override
  public String fix() {
    return "Use spec.disruption.consolidationPolicy: WhenEmpty with a consolidateAfter you chose on purpose "
        + "(e.g. 10m, longer than the gap between your bursts), or forbid the disruption with a budget "
        + "{nodes: \"0\", reasons: [Underutilized]}.";
  }

  @Override
  public List<Finding> check(LintInput input) {
    PerObject<Located<?>, List<String>> served = servicesByPool(input, false);
    PerObject<Located<?>, List<String>> evictable = servicesByPool(input, true);
    List<Finding> out = new ArrayList<>();
    for (Located<NodePool> p : input.gpuNodePools()) {
      List<String> services = served.get(p, List.of());
      // A node annotated do-not-disrupt is no candidate for any consolidation, emptiness included
      // (reference §1.5, candidate filter).
      if (services.isEmpty() || p.value().template().annotations().get(KarpenterLabels.DO_NOT_DISRUPT)
          .filter("true"::equals).isPresent()) {
        continue;
      }
      Disruption d = p.value().disruption();
      boolean underutilized = d.consolidationPolicy() != ConsolidationPolicy.WHEN_EMPTY
          && !Disruptions.budgetsForbid(d, DisruptionReason.UNDERUTILIZED);
      // Replacing a busy node evicts its pods: services whose pods may not be evicted keep their nodes.
      List<String> replaced = evictable.get(p, List.of());
      if (underutilized && !replaced.isEmpty()) {
        out.add(finding(p, "spec.disruption.consolidationPolicy", "NodePool serves GPU inference ("
            + Offerings.names(replaced) + ") with consolidationPolicy " + d.consolidationPolicy()));
      }
      // consolidateAfter times both reasons: emptiness (scale-down after a burst) and, under
      // WhenEmptyOrUnderutilized, replacement; it matters while either may happen.
      boolean consolidates = underutilized || !Disruptions.budgetsForbid(d, DisruptionReason.EMPTY);
      if (consolidates && d.consolidateAfter().isPresent() && d.consolidateAfter().get().equals(Duration.ZERO)) {
        out.add(finding(p, "spec.disruption.consolidateAfter", "NodePool serves GPU inference ("
            + Offerings.names(services) + ") with consolidateAfter 0s"));
      }
    }
    return out;
  }

  /**
   * Each NodePool's GPU services: those that may be scheduled to nodes it launches, in input order;
   * with {@code evictableOnly}, only those whose pods Karpenter may evict.
   */
  private static PerObject<Located<?>, List<String>> servicesByPool(LintInput input, boolean evictableOnly) {
    PerObject<Located<?>, List<String>> out = new PerObject<>();
    for (PodSite s : input.gpuPodSites()) {
      if (s.kind() != PodSite.Kind.SERVICE
          || evictableOnly && Disruptions.evictionForbidden(input, s).isPresent()) {
        continue;
      }
      String name = s.owner().ref().toString();
      for (GpuTarget t : input.targetsAdmitting(s)) {
        if (t.source().value() instanceof NodePool) {
          List<String> services = out.of(t.source(), ArrayList::new);
          if (services.isEmpty() || !services.getLast().equals(name)) {
            services.add(name);
          }
        }
      }
    }
    return out;
  }
}
