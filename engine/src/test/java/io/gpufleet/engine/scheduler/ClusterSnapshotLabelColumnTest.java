package io.gpufleet.engine.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A label column is what reading the label on each node gives, on every image: kept through binds
 * and unbinds, made afresh when a node's labels change or nodes come and go.
 */
class ClusterSnapshotLabelColumnTest {

  private static final String ZONE = "topology.kubernetes.io/zone";

  private static Node node(String name, String zone) {
    Labels labels = zone == null ? Labels.EMPTY : Labels.of(ZONE, zone);
    return Node.of(name, labels, List.of(), ResourceList.of("cpu", "4", "memory", "8Gi", "pods", "10"));
  }

  /** The column against each node's own label, node by node. */
  private static void assertColumnMatchesLabels(ClusterSnapshot s) {
    ClusterSnapshot.LabelColumn column = s.labelColumn(ZONE);
    for (int i = 0; i < s.size(); i++) {
      assertThat(column.get(i)).as("node %s", s.get(i).name())
          .isEqualTo(s.get(i).node().labels().get(ZONE).orElse(null));
    }
  }

  @Test
  void theColumnFollowsEveryKindOfChange() {
    ClusterSnapshot s = ClusterSnapshot.of(List.of(node("a", "z1"), node("b", "z2"), node("c", null)));
    assertColumnMatchesLabels(s);
    PodInfo pod = PodInfo.of(new Pod(ObjectMeta.named("p"), PodSpec.of()));
    ClusterSnapshot bound = s.bind(pod, "b");
    assertColumnMatchesLabels(bound);
    assertThat(bound.labelColumn(ZONE)).as("a bind keeps the nodes' labels: the column is shared")
        .isSameAs(s.labelColumn(ZONE));
    ClusterSnapshot unbound = bound.unbind(pod.key(), "b");
    assertThat(unbound.labelColumn(ZONE)).isSameAs(s.labelColumn(ZONE));

    ClusterSnapshot relabelled = bound.withNode(node("b", "z3"));
    assertColumnMatchesLabels(relabelled);
    assertThat(relabelled.labelColumn(ZONE).get(1)).isEqualTo("z3");
    assertThat(bound.labelColumn(ZONE).get(1)).as("the older image keeps its own").isEqualTo("z2");

    ClusterSnapshot grown = relabelled.addNode(node("d", "z1"));
    assertColumnMatchesLabels(grown);
    ClusterSnapshot shrunk = grown.removeNode("a");
    assertColumnMatchesLabels(shrunk);
    assertThat(shrunk.labelColumn(ZONE).get(0)).isEqualTo("z3");
  }
}
