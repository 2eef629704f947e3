package io.gpufleet.engine.scheduler.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.ContainerImage;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.pod.TopologySpreadConstraint.NodeInclusionPolicy;
import io.gpufleet.model.pod.TopologySpreadConstraint.WhenUnsatisfiable;
import io.gpufleet.model.pod.TopologySpreadConstraint;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.testing.property.Gen;
import io.gpufleet.testing.property.Property;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * PodTopologySpread and ImageLocality read counts the cluster image keeps by deltas; after any
 * sequence of deltas (nodes added, removed and relabelled, pods bound and unbound) they decide and
 * score every node exactly as the full scan over every node's pods did ({@link
 * FullScanPodTopologySpread}, and ImageLocality's image holders counted node by node): written hard
 * and soft constraints with either node inclusion policy, minDomains, matchLabelKeys, absent and
 * empty selectors, nodes without a topology key or with an empty value, the default constraints, and a node with a victim
 * removed as preemption filters it.
 */
class SpreadCountsByDeltaTest {

  private static final String ZONE = PodTopologySpread.ZONE;
  private static final String HOST = PodTopologySpread.HOSTNAME;
  private static final String POOL = "karpenter.sh/nodepool";
  private static final String VLLM = "vllm/vllm-openai:v0.6.3";
  private static final Taint GPU = Taint.of("nvidia.com/gpu", "true", TaintEffect.NO_SCHEDULE);

  /** The default constraints apply to pods of namespace "default" labelled app=a, as a ReplicaSet's would. */
  private static final SpreadSelectors SELECTORS = pod -> pod.meta().namespace().equals("default")
      && pod.meta().labels().get("app").orElse("").equals("a")
      ? Optional.of(LabelSelector.matching(Labels.of("app", "a"))) : Optional.empty();

  private static Node node(int id, int v) {
    Labels labels = Labels.EMPTY;
    if (v % 4 != 0) {
      // An empty value is a domain of its own, which upstream also reads for nodes without the key.
      labels = labels.with(ZONE, v % 6 == 5 ? "" : "z" + v % 3);
    }
    if (v % 5 != 0) {
      labels = labels.with(POOL, "p" + v % 2);
    }
    if (v % 7 != 0) {
      labels = labels.with(HOST, "n" + id);
    }
    Node n = Node.of("n" + id, labels, v % 3 == 1 ? List.of(GPU) : List.of(),
        ResourceList.of("cpu", "8", "memory", "16Gi", "pods", "20"));
    return switch (v % 8) {
      case 1, 5 -> n.withImages(List.of(new ContainerImage(List.of(VLLM), 700L << 20)));
      // Two entries naming the image: the node's first one gives its size.
      case 7 -> n.withImages(List.of(new ContainerImage(List.of("cuda:12", VLLM), 300L << 20),
          new ContainerImage(List.of(VLLM), 900L << 20)));
      default -> n;
    };
  }

  private static PodInfo boundPod(int id) {
    Labels labels = id % 4 == 3 ? Labels.EMPTY : Labels.of("app", id % 4 == 1 ? "b" : "a", "tier", "t" + id % 2);
    return PodInfo.of(new Pod(new ObjectMeta("p" + id, id % 5 == 4 ? "team" : "default", labels, Labels.EMPTY,
        Optional.empty()), PodSpec.of()));
  }

  /** An incoming pod whose constraints, node selector, tolerations and images all follow from {@code v}. */
  private static PodInfo incoming(int v) {
    List<TopologySpreadConstraint> written = new ArrayList<>();
    String[] keys = {ZONE, POOL, HOST};
    for (int k = 0; k < v % 3; k++) {
      int w = v / 3 + 7 * k;
      Optional<LabelSelector> selector = switch (w / 6 % 4) {
        case 0 -> Optional.of(LabelSelector.matching(Labels.of("app", "a")));
        case 1 -> Optional.of(LabelSelector.matching(Labels.of("app", "b")));
        case 2 -> Optional.of(LabelSelector.EVERYTHING);
        default -> Optional.empty();
      };
      written.add(new TopologySpreadConstraint(1 + w % 2, keys[w % 3],
          w / 2 % 2 == 0 ? WhenUnsatisfiable.DO_NOT_SCHEDULE : WhenUnsatisfiable.SCHEDULE_ANYWAY, selector,
          w / 24 % 2 == 0 ? OptionalInt.empty() : OptionalInt.of(3),
          w / 48 % 2 == 0 ? NodeInclusionPolicy.HONOR : NodeInclusionPolicy.IGNORE,
          w / 96 % 2 == 0 ? NodeInclusionPolicy.IGNORE : NodeInclusionPolicy.HONOR,
          w / 192 % 2 == 0 ? List.of() : List.of("tier")));
    }
    PodSpec spec = PodSpec.of(Container.of("main", v % 2 == 0 ? VLLM : "busybox", ResourceList.EMPTY,
        ResourceList.EMPTY)).withTopologySpreadConstraints(written);
    if (v / 5 % 3 == 0) {
      spec = spec.withNodeSelector(Labels.of(POOL, "p1"));
    }
    if (v / 7 % 2 == 0) {
      spec = spec.withTolerations(List.of(Toleration.exists("nvidia.com/gpu", TaintEffect.NO_SCHEDULE)));
    }
    Labels labels = Labels.of("app", v / 11 % 3 == 0 ? "b" : "a", "tier", "t" + v % 2);
    return PodInfo.of(new Pod(new ObjectMeta("incoming", v / 13 % 4 == 0 ? "team" : "default", labels,
        Labels.EMPTY, Optional.empty()), spec));
  }

  // Fixed seed: the same runs every build.
  @Test
  void countsFollowedByDeltasDecideAndScoreAsTheFullScan() {
    Property.check(20261201L, 150, Gen.ints(0, 99_999).list(1, 60), this::countsFollowedByDeltasDecideAndScoreAsTheFullScan);
  }

  private void countsFollowedByDeltasDecideAndScoreAsTheFullScan(List<Integer> ops) {
    ClusterSnapshot s = ClusterSnapshot.of(List.of(node(0, 1), node(1, 2), node(2, 3)));
    int nextNode = 3;
    int nextPod = 0;
    for (int op : ops) {
      int kind = op % 7;
      if (kind == 0 || s.size() == 0) {
        s = s.addNode(node(nextNode++, op / 7));
      } else {
        String name = s.get(op / 7 % s.size()).name();
        switch (kind) {
          case 1 -> s = s.removeNode(name);
          case 2, 3, 4 -> s = s.bind(boundPod(nextPod++), name);
          case 5 -> {
            NodeInfo on = s.node(name).orElseThrow();
            s = on.pods().isEmpty() ? s : s.unbind(on.pods().getFirst().key(), name);
          }
          default -> s = s.withNode(node(Integer.parseInt(name.substring(1)), op / 7));
        }
      }
      // Counts made on some images only, so that later images both carry counts and make their own.
      if (op % 3 != 0) {
        assertSameAsFullScan(s, incoming(op / 3));
      }
    }
  }

  /**
   * Upstream reads a missing key as the empty value: a node labelled with an empty zone scores by
   * the matching pods on the nodes without a zone too (a case random sequences reach rarely).
   */
  @Test
  void anEmptyZoneCountsThePodsOfNodesWithoutOne() {
    ClusterSnapshot s = ClusterSnapshot.of(List.of(node(0, 5), node(1, 4), node(2, 2), node(3, 8), node(4, 11)))
        .bind(boundPod(0), "n1").bind(boundPod(2), "n1").bind(boundPod(4), "n2");
    assertThat(s.get(0).node().labels().get(ZONE)).contains("");
    assertThat(s.get(1).node().labels().has(ZONE)).isFalse();
    PodInfo pod = incoming(21);
    assertThat(pod.pod().spec().topologySpreadConstraints()).as("the default constraints apply").isEmpty();
    assertThat(pod.nodeConstrained()).as("every node counts").isFalse();
    assertSameAsFullScan(s, pod);
  }

  private static void assertSameAsFullScan(ClusterSnapshot s, PodInfo pod) {
    PodTopologySpread now = new PodTopologySpread(SELECTORS);
    FullScanPodTopologySpread before = new FullScanPodTopologySpread(SELECTORS);
    Optional<FilterPlugin> filterNow = now.forCycle(pod, s);
    Optional<FilterPlugin> filterBefore = before.forCycle(pod, s);
    assertThat(filterNow.isPresent()).isEqualTo(filterBefore.isPresent());
    if (filterNow.isPresent()) {
      for (NodeInfo node : s.nodes()) {
        assertThat(filterNow.get().filter(pod, node)).as("filter %s", node.name())
            .isEqualTo(filterBefore.get().filter(pod, node));
        if (!node.pods().isEmpty()) {
          NodeInfo victimGone = node.withoutPod(node.pods().getFirst().key());
          assertThat(filterNow.get().filter(pod, victimGone)).as("filter %s less a victim", node.name())
              .isEqualTo(filterBefore.get().filter(pod, victimGone));
        }
      }
    }
    Optional<ScorePlugin> scoreNow = now.preScore(pod, s);
    Optional<ScorePlugin> scoreBefore = before.preScore(pod, s);
    assertThat(scoreNow.isPresent()).isEqualTo(scoreBefore.isPresent());
    if (scoreNow.isPresent()) {
      // Every other node feasible: the weights depend on the feasible set, the counts on every node.
      int[] feasible = java.util.stream.IntStream.range(0, s.size()).filter(i -> i % 2 == 0).toArray();
      long[] expected = scores(scoreBefore.get(), pod, s, feasible);
      assertThat(scores(scoreNow.get(), pod, s, feasible)).as("scored by index").isEqualTo(expected);
      // Nodes handed over one by one (not by their index in the image) score the same.
      ScorePlugin oneByOne = now.preScore(pod, s).orElseThrow();
      long[] raw = new long[feasible.length];
      for (int j = 0; j < feasible.length; j++) {
        raw[j] = oneByOne.score(pod, s.get(feasible[j]));
      }
      oneByOne.normalize(pod, raw);
      assertThat(raw).as("scored node by node").isEqualTo(expected);
    }
    Optional<ScorePlugin> images = ImageLocality.INSTANCE.preScore(pod, s);
    List<String> names = pod.pod().spec().containers().stream()
        .map(c -> ContainerImage.normalizedName(c.image())).toList();
    int[] holders = new int[names.size()];
    for (NodeInfo node : s.nodes()) {
      for (int i = 0; i < names.size(); i++) {
        holders[i] += node.node().image(names.get(i)).isPresent() ? 1 : 0;
      }
    }
    assertThat(images.isPresent()).isEqualTo(java.util.Arrays.stream(holders).anyMatch(h -> h > 0));
    for (NodeInfo node : s.nodes()) {
      long sum = 0;
      for (int i = 0; i < names.size(); i++) {
        Optional<ContainerImage> held = node.node().image(names.get(i));
        if (held.isPresent()) {
          sum += ImageLocality.scaledImageScore(held.get().sizeBytes(), holders[i], s.size());
        }
      }
      long expected = images.isPresent() ? ImageLocality.calculatePriority(sum, names.size()) : 0;
      assertThat(images.map(p -> p.score(pod, node)).orElse(0L)).as("image score of %s", node.name())
          .isEqualTo(expected);
    }
    if (images.isPresent()) {
      // By index, as the scheduler scores (the sizes from the image's carried columns): as node by node.
      int[] all = java.util.stream.IntStream.range(0, s.size()).toArray();
      long[] byIndex = new long[all.length];
      images.get().scoreAll(pod, s, all, all.length, byIndex);
      for (int i = 0; i < all.length; i++) {
        assertThat(byIndex[i]).as("image score of %s by index", s.get(i).name())
            .isEqualTo(images.get().score(pod, s.get(i)));
      }
    }
  }

  private static long[] scores(ScorePlugin plugin, PodInfo pod, ClusterSnapshot s, int[] feasible) {
    long[] out = new long[feasible.length];
    plugin.scoreAll(pod, s, feasible, feasible.length, out);
    plugin.normalize(pod, out);
    return out;
  }
}
