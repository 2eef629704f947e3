package io.gpufleet.model.karpenter;

import io.gpufleet.model.resource.ResourceList;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * A {@code karpenter.sh/v1} NodePool (reference §1.1): the template of the NodeClaims it makes,
 * how they may be disrupted, resource limits over all its nodes, and a weight (higher first).
 */
public record NodePool(String name, NodeClaimTemplate template, Disruption disruption, ResourceList limits,
    OptionalInt weight) {

  public NodePool {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(template, "template");
    Objects.requireNonNull(disruption, "disruption");
    limits = limits == null ? ResourceList.EMPTY : limits;
    weight = weight == null ? OptionalInt.empty() : weight;
  }

  public static NodePool of(String name, NodeClaimTemplate template) {
    return new NodePool(name, template, Disruption.DEFAULT, ResourceList.EMPTY, OptionalInt.empty());
  }

  /** Unset weight counts as 0 (reference §1.1). */
  public int weightOrZero() {
    return weight.orElse(0);
  }

  public NodePool withTemplate(NodeClaimTemplate t) {
    return new NodePool(name, t, disruption, limits, weight);
  }

  public NodePool withDisruption(Disruption d) {
    return new NodePool(name, template, d, limits, weight);
  }

  public NodePool withLimits(ResourceList l) {
    return new NodePool(name, template, disruption, l, weight);
  }

  public NodePool withWeight(int w) {
    return new NodePool(name, template, disruption, limits, OptionalInt.of(w));
  }

  /**
   * The {@code karpenter.sh/nodepool-hash} a NodeClaim gets at launch: a digest of the template
   * fields whose change makes existing NodeClaims drift. Upstream hashes the whole
   * {@code spec.template} ({@code K:pkg/apis/v1/nodepool.go} Hash), and of NodeClaimTemplateSpec (same
   * file) only {@code requirements} carries {@code hash:"ignore"}: so labels, annotations, taints,
   * startup taints, node class, {@code expireAfter} and {@code terminationGracePeriod} count.
   * Requirements drift through {@code RequirementsDrifted} instead (reference §1.5).
   */
  public String templateHash() {
    String text = template.labels() + "|" + template.annotations() + "|" + template.taints() + "|"
        + template.startupTaints() + "|" + template.nodeClassRef() + "|" + template.expireAfter() + "|"
        + template.terminationGracePeriod();
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < text.length(); i++) {
      h ^= text.charAt(i);
      h *= 0x100000001b3L;
    }
    return Long.toUnsignedString(h, 16);
  }
}
