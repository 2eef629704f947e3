package io.gpufleet.engine.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.affinity.PodAffinity;
import io.gpufleet.model.affinity.PodAffinityTerm;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.ContainerImage;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.testing.property.Gen;
import io.gpufleet.testing.property.Property;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * An image derived by deltas (nodes added, removed and changed, pods bound and unbound) is, after
 * every delta, the image built from scratch of the same nodes in the same order: same nodes by
 * position and by name, the same affinity counts, label columns, image holders and taint classes
 * (kept through the deltas, one per distinct taint list), a priority floor no pod is below; and
 * every earlier image still reads as it did.
 */
class ClusterSnapshotDeltaTest {

  private static final String ZONE = "topology.kubernetes.io/zone";
  private static final String POOL = "karpenter.sh/nodepool";

  private static Node node(int id, int variant) {
    // A label no count groups by, too: a node relabelled only there keeps every count.
    Labels labels = variant % 3 == 0 ? Labels.EMPTY
        : Labels.of(ZONE, "z" + variant % 3, POOL, "p" + variant % 2, "tier", "t" + variant % 5);
    Node n = Node.of("n" + id, labels, List.of(), ResourceList.of("cpu", "8", "memory", "16Gi", "pods", "20"));
    n = switch (variant % 5) {
      case 2 -> n.withTaints(List.of(Taint.of("gpu", "true", TaintEffect.NO_SCHEDULE)))
          .withUnschedulable(variant % 10 == 7);
      // Lists made anew for each node, equal or not: pools' lists, and one only this node carries, whose
      // class goes when the node goes or changes.
      case 4 -> n.withTaints(switch (variant % 7) {
        case 0, 1, 2 -> List.of(Taint.of("spot", "true", TaintEffect.PREFER_NO_SCHEDULE));
        case 3, 4 -> List.of(Taint.of("gpu", "true", TaintEffect.NO_SCHEDULE),
            Taint.of("spot", "true", TaintEffect.PREFER_NO_SCHEDULE));
        default -> List.of(Taint.of("only", "n" + id, TaintEffect.NO_EXECUTE));
      });
      default -> n;
    };
    return switch (variant % 4) {
      // Sizes that differ by node: a column that kept a node's old value would show.
      case 1 -> n.withImages(List.of(new ContainerImage(List.of(VLLM), (1L + variant % 3) << 28)));
      // Two entries naming the same image: the node still counts once for it.
      case 3 -> n.withImages(List.of(new ContainerImage(List.of(VLLM, "cuda:12"), 1L << 30),
          new ContainerImage(List.of("cuda:12"), 1L << 20)));
      default -> n;
    };
  }

  private static final String VLLM = "vllm/vllm-openai:v0.6.3";

  /**
   * PodTopologySpread's counts the test reads: selectors of one label, of two (a pod with only the
   * first of them does not count), of a label that sorts after another the pods carry, and of
   * expressions alone; two namespaces; a key some nodes lack. A bind or an unbind carries only the
   * counts of the keys filed under the pod's namespace and labels ({@code SpreadKeys}).
   */
  private static final List<SpreadCounts.Key> SPREAD_KEYS = List.of(
      new SpreadCounts.Key("default", LabelSelector.matching(Labels.of("app", "a")), ZONE),
      new SpreadCounts.Key("default", LabelSelector.matching(Labels.of("app", "b")), POOL),
      new SpreadCounts.Key("team", LabelSelector.matching(Labels.of("app", "a")), "kubernetes.io/hostname"),
      new SpreadCounts.Key("default", LabelSelector.matching(Labels.of("app", "a", "tier", "web")), ZONE),
      new SpreadCounts.Key("team", LabelSelector.matching(Labels.of("tier", "web")), POOL),
      new SpreadCounts.Key("default", new LabelSelector(Labels.EMPTY, List.of(Requirement.in("app", "a", "b"))), POOL),
      new SpreadCounts.Key("team", new LabelSelector(Labels.EMPTY, List.of(Requirement.exists("tier"))), ZONE));

  private static PodInfo pod(int id) {
    // Labels app=a, app=b or none, every third with tier=web too; every fifth pod in another namespace.
    Labels app = id % 4 == 3 ? Labels.EMPTY : Labels.of("app", id % 4 == 1 ? "b" : "a");
    Labels labels = id % 3 == 0 ? app.with("tier", "web") : app;
    ObjectMeta meta = new ObjectMeta("p" + id, id % 5 == 4 ? "team" : "default", labels, Labels.EMPTY, Optional.empty());
    // Priorities from -3 to 3: the image's priority floor follows binds and unbinds.
    Pod pod = new Pod(meta, PodSpec.of().withPriority(id % 7 - 3));
    PodAffinity term = new PodAffinity(
        List.of(PodAffinityTerm.of(LabelSelector.matching(Labels.of("app", "a")), ZONE)), List.of());
    return PodInfo.of(switch (id % 3) {
      case 1 -> pod.withSpec(pod.spec().withPodAffinity(term, PodAffinity.NONE));
      case 2 -> pod.withSpec(pod.spec().withPodAffinity(PodAffinity.NONE, term));
      default -> pod;
    });
  }

  // Fixed seeds: the same runs every build.
  @Test
  void anImageDerivedByDeltasEqualsOneBuiltFromScratch() {
    Property.check(20261130L, 200, Gen.ints(0, 999).list(1, 120), this::anImageDerivedByDeltasEqualsOneBuiltFromScratch);
  }

  private void anImageDerivedByDeltasEqualsOneBuiltFromScratch(List<Integer> ops) {
    ClusterSnapshot s = ClusterSnapshot.of(List.of(node(0, 1), node(1, 2), node(2, 0)));
    int nextNode = 3;
    int nextPod = 0;
    List<ClusterSnapshot> earlier = new ArrayList<>();
    List<List<NodeInfo>> earlierNodes = new ArrayList<>();
    for (int op : ops) {
      int kind = op % 6;
      if (kind == 0 || s.size() == 0) {
        s = s.addNode(node(nextNode++, op / 6));
      } else {
        String name = s.get(op / 6 % s.size()).name();
        switch (kind) {
          case 1 -> s = s.removeNode(name);
          case 2, 3 -> s = s.bind(pod(nextPod++), name);
          case 4 -> {
            NodeInfo on = s.node(name).orElseThrow();
            s = on.pods().isEmpty() ? s.withNode(node(Integer.parseInt(name.substring(1)), op / 6))
                : s.unbind(on.pods().getFirst().key(), name);
          }
          default -> s = s.withNode(node(Integer.parseInt(name.substring(1)), op / 6));
        }
      }
      // Columns and counts read on some images only: a later image then makes its own rather than carrying them over.
      assertSameAsRebuilt(s, nextNode, op % 2 == 0);
      earlier.add(s);
      earlierNodes.add(s.nodes());
    }
    for (int i = 0; i < earlier.size(); i++) {
      assertThat(earlier.get(i).nodes()).as("image %d after later deltas", i).isEqualTo(earlierNodes.get(i));
      assertSameAsRebuilt(earlier.get(i), nextNode, true);
    }
  }

  /** The image's counts for {@code key}, carried or made, against a count over every pod of every node. */
  private static void assertSpreadCountsRecounted(ClusterSnapshot s, SpreadCounts.Key key) {
    SpreadCounts counts = s.spreadCounts(key);
    java.util.Map<String, Integer> byDomain = new java.util.HashMap<>();
    int unlabelled = 0;
    for (NodeInfo n : s.nodes()) {
      int matching = 0;
      for (PodInfo p : n.pods()) {
        if (p.pod().meta().namespace().equals(key.namespace()) && key.selector().matches(p.pod().meta().labels())) {
          matching++;
        }
      }
      assertThat(counts.onNode(n.name())).as("%s on %s", key, n.name()).isEqualTo(matching);
      Optional<String> domain = n.node().labels().get(key.topologyKey());
      if (domain.isPresent()) {
        byDomain.merge(domain.get(), matching, Integer::sum);
      } else {
        unlabelled += matching;
      }
    }
    for (var e : byDomain.entrySet()) {
      assertThat(counts.inDomain(e.getKey())).as("%s in %s", key, e.getKey()).isEqualTo(e.getValue());
    }
    assertThat(counts.unlabelled()).as("%s without the key", key).isEqualTo(unlabelled);
    List<String> held = new ArrayList<>();
    counts.forEachNode((name, n) -> held.add(name));
    assertThat(held).as("only nodes of this image with matching pods are listed")
        .allSatisfy(name -> {
          assertThat(s.node(name)).isPresent();
          assertThat(counts.onNode(name)).isPositive();
        });
    assertThat(counts).isEqualTo(ClusterSnapshot.ofInfos(s.nodes()).spreadCounts(key));
  }

  /** Everything an image answers, against the image built from its nodes in one go. */
  private static void assertSameAsRebuilt(ClusterSnapshot s, int names, boolean columns) {
    ClusterSnapshot fresh = ClusterSnapshot.ofInfos(s.nodes());
    assertThat(s.size()).isEqualTo(fresh.size());
    for (int i = 0; i < s.size(); i++) {
      assertThat(s.get(i)).isSameAs(fresh.get(i));
      assertThat(s.position(s.get(i).name())).isEqualTo(i);
    }
    for (int id = 0; id < names; id++) {
      Optional<NodeInfo> byName = s.node("n" + id);
      assertThat(byName).as("node n%d", id).isEqualTo(fresh.node("n" + id));
      assertThat(s.position("n" + id)).isEqualTo(fresh.position("n" + id));
    }
    int affinity = 0;
    int anti = 0;
    boolean images = false;
    boolean cordoned = false;
    for (NodeInfo n : s.nodes()) {
      affinity += n.podsWithAffinity().size();
      anti += n.podsWithRequiredAntiAffinity().size();
      images |= !n.node().images().isEmpty();
      cordoned |= n.node().unschedulable();
    }
    assertThat(s.podsWithAffinity()).isEqualTo(affinity);
    assertThat(s.podsWithRequiredAntiAffinity()).isEqualTo(anti);
    // The floor may lie below every pod left (pods unbound since), never above one; built from scratch it is exact.
    int lowest = s.nodes().stream().flatMap(n -> n.pods().stream()).mapToInt(p -> p.pod().spec().priority())
        .min().orElse(Integer.MAX_VALUE);
    assertThat(s.podPriorityFloor()).as("priority floor").isLessThanOrEqualTo(lowest);
    assertThat(fresh.podPriorityFloor()).as("priority floor built from scratch").isEqualTo(lowest);
    if (!columns) {
      return;
    }
    assertThat(s.anyNodeHoldsImages()).isEqualTo(images);
    for (String image : List.of(VLLM, "cuda:12", "absent:1")) {
      long holders = s.nodes().stream().filter(n -> n.node().image(image).isPresent()).count();
      assertThat(s.nodesHoldingImage(image)).as("nodes holding %s", image).isEqualTo((int) holders);
      ClusterSnapshot.ImageSizes sizes = s.imageSizes(image);
      for (int i = 0; i < s.size(); i++) {
        assertThat(sizes.get(i)).as("size of %s on %s", image, s.get(i).name())
            .isEqualTo(s.get(i).node().image(image).map(ContainerImage::sizeBytes).orElse(-1L));
      }
    }
    for (SpreadCounts.Key key : SPREAD_KEYS) {
      assertSpreadCountsRecounted(s, key);
    }
    assertThat(s.anyNodeUnschedulable()).isEqualTo(cordoned);
    ClusterSnapshot.TaintClasses classes = s.taintClasses();
    for (int i = 0; i < s.size(); i++) {
      assertThat(classes.taints(classes.of(i))).as("taints of %s", s.get(i).name()).isEqualTo(s.get(i).node().taints());
    }
    // Kept through the deltas, the classes are the regrouping's: one per distinct list, none empty.
    Set<List<Taint>> distinct = new HashSet<>();
    s.nodes().forEach(n -> distinct.add(n.node().taints()));
    assertThat(classes.count()).as("taint classes").isEqualTo(distinct.size())
        .isEqualTo(ClusterSnapshot.ofInfos(s.nodes()).taintClasses().count());
    Set<List<Taint>> lists = new HashSet<>();
    for (int c = 0; c < classes.count(); c++) {
      int members = 0;
      for (int i = 0; i < s.size(); i++) {
        members += classes.of(i) == c ? 1 : 0;
      }
      assertThat(classes.members(c)).as("nodes of class %d", c).isEqualTo(members).isPositive();
      lists.add(classes.taints(c));
    }
    assertThat(lists).isEqualTo(distinct);
    for (String key : List.of(ZONE, POOL)) {
      ClusterSnapshot.LabelColumn column = s.labelColumn(key);
      for (int i = 0; i < s.size(); i++) {
        assertThat(column.get(i)).as("%s of node %s", key, s.get(i).name())
            .isEqualTo(s.get(i).node().labels().get(key).orElse(null));
      }
    }
  }
}
