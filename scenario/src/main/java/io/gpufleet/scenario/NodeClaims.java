package io.gpufleet.scenario;

import io.gpufleet.manifest.kube.KubeObject;
import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.label.SelectorOperator;
import io.gpufleet.manifest.kube.KubeDecoder;
import io.gpufleet.sim.scenario.ClusterObject;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code karpenter.sh/v1} NodeClaims of a dump, bound to their Nodes as Karpenter binds them:
 * by {@code status.nodeName}, else by {@code status.providerID} against the node's
 * {@code spec.providerID}. A bound claim makes its node resume as that claim (its name, and its labels
 * where the node lacks them: NodePool, instance type, capacity type, zone). A claim with no Node in
 * the input is a launch in flight, which the twin does not resume: it is said, not skipped silently.
 */
final class NodeClaims {

  private final Map<KubeObject, ClusterObject.ObservedClaim> byNode = new IdentityHashMap<>();
  private final Map<KubeObject, Boolean> claims = new IdentityHashMap<>();

  private NodeClaims() {}

  static NodeClaims of(List<KubeObject> objects, Diagnostics diagnostics) {
    NodeClaims out = new NodeClaims();
    Map<String, KubeObject.NodeObject> byName = new HashMap<>();
    Map<String, KubeObject.NodeObject> byProvider = new HashMap<>();
    for (KubeObject o : objects) {
      if (o instanceof KubeObject.NodeObject n) {
        byName.put(n.name(), n);
        n.node().providerId().filter(id -> !id.isEmpty()).ifPresent(id -> byProvider.put(id, n));
      }
    }
    KubeDecoder kube = new KubeDecoder(diagnostics);
    for (KubeObject o : objects) {
      if (!(o instanceof KubeObject.OtherObject c && c.kind().equals("NodeClaim")
          && c.apiVersion().startsWith("karpenter.sh/"))) {
        continue;
      }
      out.claims.put(o, true);
      Cursor doc = c.cursor();
      Optional<Cursor> status = doc.get("status");
      Optional<String> nodeName = status.flatMap(st -> st.optString("nodeName")).filter(n -> !n.isEmpty());
      Optional<String> provider = status.flatMap(st -> st.optString("providerID")).filter(n -> !n.isEmpty());
      KubeObject.NodeObject node = nodeName.map(byName::get).orElse(null);
      if (node == null && provider.isPresent()) {
        node = byProvider.get(provider.get());
      }
      if (node == null) {
        diagnostics.warning(c.location(), "status.nodeName", "NodeClaim \"" + c.name() + "\" has no Node in the input "
            + nodeName.map(n -> "(its node " + n + " is not there)").orElse("(it has not registered one yet)")
            + ": a launch in flight is not resumed; Karpenter provisions anew for any pod left pending");
        continue;
      }
      if (out.byNode.containsKey(node)) {
        diagnostics.warning(c.location(), "status.nodeName", "NodeClaim \"" + c.name() + "\" names node " + node.name()
            + ", which NodeClaim \"" + out.byNode.get(node).name() + "\" already holds; this one is ignored");
        continue;
      }
      out.byNode.put(node, new ClusterObject.ObservedClaim(c.name(), labels(doc, kube)));
    }
    return out;
  }

  /**
   * The claim's labels, with single-valued {@code In} requirements as labels too: Karpenter labels a
   * NodeClaim with its resolved requirements, which a trimmed dump may hold only in {@code spec}.
   */
  private static Labels labels(Cursor doc, KubeDecoder kube) {
    Labels labels = doc.get("metadata").map(m -> Labels.of(m.stringMap("labels"))).orElse(Labels.EMPTY);
    for (Cursor r : doc.get("spec").map(s -> s.list("requirements")).orElse(List.of())) {
      Requirement req = kube.requirement(r);
      if (req.operator() == SelectorOperator.IN && req.values().size() == 1 && !labels.has(req.key())) {
        labels = labels.with(req.key(), req.values().getFirst());
      }
    }
    return labels;
  }

  boolean isClaim(KubeObject o) {
    return claims.containsKey(o);
  }

  /** The claim bound to this node, if the input has one. */
  Optional<ClusterObject.ObservedClaim> of(KubeObject.NodeObject node) {
    return Optional.ofNullable(byNode.get(node));
  }
}
