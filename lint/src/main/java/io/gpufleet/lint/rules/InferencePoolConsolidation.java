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
import io.gpufleet.model.karpenter.NodePool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A GPU NodePool that serves inference (a GPU Deployment, StatefulSet or ReplicaSet of the input
 * may land on it) with {@code WhenEmptyOrUnderutilized} consolidation or {@code consolidateAfter: 0s}.
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
        + "(e.g. 10m, longer than the gap between your bursts).";
  }

  @Override
  public List<Finding> check(LintInput input) {
    PerObject<Located<?>, List<String>> served = servicesByPool(input);
    List<Finding> out = new ArrayList<>();
    for (Located<NodePool> p : input.gpuNodePools()) {
      List<String> services = served.get(p, List.of());
      if (services.isEmpty()) {
        continue;
      }
      Disruption d = p.value().disruption();
      String serving = "NodePool serves GPU inference (" + Offerings.names(services) + ")";
      if (d.consolidationPolicy() != ConsolidationPolicy.WHEN_EMPTY) {
        out.add(finding(p, "spec.disruption.consolidationPolicy", serving + " with consolidationPolicy "
            + d.consolidationPolicy()));
      }
      if (d.consolidateAfter().isPresent() && d.consolidateAfter().get().equals(Duration.ZERO)) {
        out.add(finding(p, "spec.disruption.consolidateAfter", serving + " with consolidateAfter 0s"));
      }
    }
    return out;
  }

  /** Each NodePool's GPU services: those that may be scheduled to nodes it launches, in input order. */
  private static PerObject<Located<?>, List<String>> servicesByPool(LintInput input) {
    PerObject<Located<?>, List<String>> out = new PerObject<>();
    for (PodSite s : input.gpuPodSites()) {
      if (s.kind() != PodSite.Kind.SERVICE) {
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
