package io.gpufleet.engine.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A label column is what reading the label on each node gives, on every image: kept through binds
 * and unbinds, carried with the changed value when a node's labels change, shifted when nodes come
 * and go.
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

  /**
   * After each of many random changes (binds, relabels that change the zone or only another label,
   * nodes added and removed), the carried column is what reading every node gives, and so is every
   * earlier image's.
   */
  @Test
  void carriedColumnsMatchEveryNodeAfterRandomChanges() {
    for (long seed = 1; seed <= 40; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      List<Node> start = new ArrayList<>();
      int named = 0;
      for (; named < 12; named++) {
        start.add(node("n" + named, zone(r)));
      }
      ClusterSnapshot s = ClusterSnapshot.of(start);
      List<ClusterSnapshot> images = new ArrayList<>();
      for (int step = 0; step < 60; step++) {
        // The column exists before most changes, so it is carried rather than made.
        if (r.nextInt(4) > 0) {
          s.labelColumn(ZONE);
        }
        int n = s.size();
        switch (r.nextInt(5)) {
          case 0 -> s = s.bind(PodInfo.of(new Pod(ObjectMeta.named("p" + step), PodSpec.of())), s.get(r.nextInt(n)).name());
          case 1 -> s = s.withNode(node(s.get(r.nextInt(n)).name(), zone(r)));
          case 2 -> {
            Node before = s.get(r.nextInt(n)).node();
            s = s.withNode(before.withLabels(before.labels().with("other", Integer.toString(step))));
          }
          case 3 -> s = s.addNode(node("n" + named++, zone(r)));
          default -> s = n > 1 ? s.removeNode(s.get(r.nextInt(n)).name()) : s;
        }
        images.add(s);
        assertColumnMatchesLabels(s);
      }
      images.forEach(ClusterSnapshotLabelColumnTest::assertColumnMatchesLabels);
    }
  }

  private static String zone(SplittableRandom r) {
    int z = r.nextInt(4);
    return z == 0 ? null : "z" + z;
  }
}
