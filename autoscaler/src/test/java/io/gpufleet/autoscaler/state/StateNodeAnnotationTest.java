package io.gpufleet.autoscaler.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.provisioning.Launcher;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodeClaimTemplate;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.ResourceList;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** One annotation read without the merge gives what the merged annotations give, node over claim. */
class StateNodeAnnotationTest {

  @Test
  void oneAnnotationIsTheMergedOnesValue() {
    Instant now = Instant.parse("2026-01-01T00:00:00Z");
    InstanceType t = InstanceCatalog.builtIn().require("g6.xlarge");
    NodeClaim base = Launcher.nodeClaim(NodePool.of("default", NodeClaimTemplate.of()), t, t.offerings().getFirst(),
        ResourceList.EMPTY, now, new SplittableRandom(1));
    List<String> keys = List.of("karpenter.sh/do-not-disrupt", "a", "b");
    SplittableRandom r = new SplittableRandom(20261206L);
    for (int i = 0; i < 500; i++) {
      Labels onClaim = draw(r, keys);
      Labels onNode = draw(r, keys);
      Optional<NodeClaim> claim = r.nextBoolean() ? Optional.of(base.withAnnotations(onClaim)) : Optional.empty();
      Optional<Node> node = r.nextBoolean() || claim.isEmpty() ? Optional.of(withAnnotations(Node.of(base.name(),
          base.labels(), List.of(), t.allocatable()), onNode)) : Optional.empty();
      StateNode n = new StateNode(base.name(), claim, node, List.of(), Set.of(), now, false, Map.of());
      for (String k : keys) {
        assertThat(n.annotation(k)).as("%s on %s / %s", k, claim, node).isEqualTo(n.annotations().get(k));
      }
    }
  }

  private static Labels draw(SplittableRandom r, List<String> keys) {
    Labels l = Labels.EMPTY;
    for (String k : keys) {
      if (r.nextBoolean()) {
        l = l.with(k, r.nextBoolean() ? "true" : "false");
      }
    }
    return l;
  }

  private static Node withAnnotations(Node n, Labels a) {
    return new Node(n.meta().withAnnotations(a), n.taints(), n.unschedulable(), n.capacity(), n.allocatable(),
        n.providerId(), n.images());
  }
}
