package io.gpufleet.engine.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.plugin.NodeAffinity;
import io.gpufleet.engine.scheduler.plugin.NodeResourcesBalancedAllocation;
import io.gpufleet.engine.scheduler.plugin.NodeResourcesFit;
import io.gpufleet.engine.scheduler.plugin.ResourceWeight;
import io.gpufleet.engine.scheduler.plugin.ScoringStrategy;
import io.gpufleet.engine.scheduler.plugin.TaintToleration;
import io.gpufleet.model.affinity.NodeSelectorTerm;
import io.gpufleet.model.affinity.PreferredSchedulingTerm;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Score formulas of reference §5.2 and §5.3, with the expected numbers worked out by hand from
 * the formulas (integer arithmetic as kube-scheduler does it).
 */
class ScoringTest {

  private static Pod pod(ResourceList requests, ResourceList limits) {
    return new Pod(ObjectMeta.named("p"), PodSpec.of(Container.of("c", "i", requests, limits)));
  }

  private static NodeInfo node(String... resources) {
    return NodeInfo.of(Node.of("n", Labels.EMPTY, List.of(), ResourceList.of(resources)));
  }

  /** A 4-cpu, 10000-byte node, empty; the pod asks 1 cpu and 2000 bytes. */
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
      // cpu: (4000-1000)*100/4000 = 75, memory: (10000-2000)*100/10000 = 80, (75+80)/2 = 77
      "LeastAllocated, 77",
      // cpu 25, memory 20, (25+20)/2 = 22
      "MostAllocated, 22",
      // shape 0->0, 100->10: cpu 25, memory 20, round(45/2) = 23
      "RequestedToCapacityRatio, 23",
  })
  void strategies(String strategy, long expected) {
    ScoringStrategy s = switch (strategy) {
      case "LeastAllocated" -> new ScoringStrategy.LeastAllocated(ScoringStrategy.DEFAULT_RESOURCES);
      case "MostAllocated" -> new ScoringStrategy.MostAllocated(ScoringStrategy.DEFAULT_RESOURCES);
      default -> ScoringStrategy.RequestedToCapacityRatio.binPacking(ScoringStrategy.DEFAULT_RESOURCES);
    };
    long score = new NodeResourcesFit(s).score(
        PodInfo.of(pod(ResourceList.of("cpu", "1", "memory", "2000"), ResourceList.EMPTY)),
        node("cpu", "4", "memory", "10000", "pods", "110"));
    assertThat(score).isEqualTo(expected);
  }

  @Test
  void podsWithoutRequestsScoreAsHundredMillicoresAndTwoHundredMebibytes() {
    NodeInfo n = node("cpu", "1", "memory", "1000Mi", "pods", "110");
    long score = NodeResourcesFit.leastAllocated().score(PodInfo.of(pod(ResourceList.EMPTY, ResourceList.EMPTY)), n);
    // cpu (1000-100)*100/1000 = 90, memory (1000-200)*100/1000 = 80 -> 85
    assertThat(score).isEqualTo(85);
  }

  /**
   * The worked example of the Kubernetes "Resource Bin Packing" page: weights intel.com/foo 5,
   * memory 1, cpu 3; shape {0,0},{100,10}; the pod asks foo 2, memory 256MB, cpu 2. On today's
   * 0..100 scale node 1 scores round(536/9) = 60 and node 2 round(361/9) = 40 (the page's 0..10
   * figures, 5 and 4, predate the rescaling).
   */
  @Test
  void requestedToCapacityRatioWorkedExample() {
    var strategy = new ScoringStrategy.RequestedToCapacityRatio(
        List.of(new ResourceWeight("intel.com/foo", 5), new ResourceWeight("memory", 1), new ResourceWeight("cpu", 3)),
        List.of(new ScoringStrategy.RequestedToCapacityRatio.ShapePoint(0, 0),
            new ScoringStrategy.RequestedToCapacityRatio.ShapePoint(100, 10)));
    var fit = new NodeResourcesFit(strategy);
    Pod incoming = pod(ResourceList.of("cpu", "2", "memory", "256Mi"), ResourceList.of("intel.com/foo", "2"));
    NodeInfo node1 = node("cpu", "8", "memory", "1Gi", "intel.com/foo", "4", "pods", "110")
        .withPod(PodInfo.of(pod(ResourceList.of("cpu", "1", "memory", "256Mi"), ResourceList.of("intel.com/foo", "1"))));
    NodeInfo node2 = node("cpu", "64", "memory", "1Gi", "intel.com/foo", "8", "pods", "110")
        .withPod(PodInfo.of(pod(ResourceList.of("cpu", "6", "memory", "512Mi"), ResourceList.of("intel.com/foo", "2"))));
    assertThat(fit.score(PodInfo.of(incoming), node1)).isEqualTo(60);
    assertThat(fit.score(PodInfo.of(incoming), node2)).isEqualTo(40);
  }

  @Test
  void extendedResourcesTheStrategyListsCountOnlyWhenThePodAsksForThem() {
    var strategy = new ScoringStrategy.MostAllocated(
        List.of(new ResourceWeight("cpu", 1), new ResourceWeight("nvidia.com/gpu", 1)));
    NodeInfo n = node("cpu", "4", "memory", "16Gi", "nvidia.com/gpu", "4", "pods", "110");
    Pod cpuOnly = pod(ResourceList.of("cpu", "1", "memory", "1Gi"), ResourceList.EMPTY);
    Pod gpu = pod(ResourceList.of("cpu", "1", "memory", "1Gi"), ResourceList.of("nvidia.com/gpu", "2"));
    assertThat(new NodeResourcesFit(strategy).score(PodInfo.of(cpuOnly), n)).isEqualTo(25);
    // cpu 25, gpu 2*100/4 = 50 -> 37
    assertThat(new NodeResourcesFit(strategy).score(PodInfo.of(gpu), n)).isEqualTo(37);
  }

  @Test
  void balancedAllocation() {
    NodeInfo n = node("cpu", "4", "memory", "10000", "pods", "110");
    // fractions 0.25 and 0.2: std 0.025 -> (1 - 0.025) * 100 = 97.5 -> 97
    assertThat(NodeResourcesBalancedAllocation.INSTANCE.score(
        PodInfo.of(pod(ResourceList.of("cpu", "1", "memory", "2000"), ResourceList.EMPTY)), n)).isEqualTo(97);
    assertThat(NodeResourcesBalancedAllocation.INSTANCE.appliesTo(
        PodInfo.of(pod(ResourceList.EMPTY, ResourceList.EMPTY)))).isFalse();
  }

  @Test
  void taintTolerationPrefersNodesWithFewestUntoleratedPreferNoScheduleTaints() {
    Taint soft1 = Taint.of("a", "", TaintEffect.PREFER_NO_SCHEDULE);
    Taint soft2 = Taint.of("b", "", TaintEffect.PREFER_NO_SCHEDULE);
    Pod p = pod(ResourceList.of("cpu", "1"), ResourceList.EMPTY);
    // A toleration with effect NoSchedule does not count for scoring.
    p = p.withSpec(p.spec().withTolerations(List.of(Toleration.exists("a", TaintEffect.NO_SCHEDULE))));
    long[] raw = {
        TaintToleration.INSTANCE.score(PodInfo.of(p), NodeInfo.of(Node.of("x", Labels.EMPTY, List.of(), ResourceList.EMPTY))),
        TaintToleration.INSTANCE.score(PodInfo.of(p), NodeInfo.of(Node.of("y", Labels.EMPTY, List.of(soft1), ResourceList.EMPTY))),
        TaintToleration.INSTANCE.score(PodInfo.of(p), NodeInfo.of(Node.of("z", Labels.EMPTY, List.of(soft1, soft2), ResourceList.EMPTY)))};
    assertThat(raw).containsExactly(0, 1, 2);
    TaintToleration.INSTANCE.normalize(PodInfo.of(p), raw);
    assertThat(raw).containsExactly(100, 50, 0);
  }

  @Test
  void nodeAffinityPreferencesAreSummedAndNormalised() {
    var affinity = new io.gpufleet.model.affinity.NodeAffinity(Optional.empty(), List.of(
        new PreferredSchedulingTerm(80, NodeSelectorTerm.of(Requirement.in("nvidia.com/gpu.product", "NVIDIA-L4"))),
        new PreferredSchedulingTerm(20, NodeSelectorTerm.of(Requirement.in("karpenter.sh/capacity-type", "spot")))));
    Pod p = pod(ResourceList.of("cpu", "1"), ResourceList.EMPTY);
    PodInfo pi = PodInfo.of(p.withSpec(p.spec().withNodeAffinity(affinity)));
    long[] raw = {
        NodeAffinity.INSTANCE.score(pi, NodeInfo.of(Node.of("a", Labels.of("nvidia.com/gpu.product", "NVIDIA-L4",
            "karpenter.sh/capacity-type", "spot"), List.of(), ResourceList.EMPTY))),
        NodeAffinity.INSTANCE.score(pi, NodeInfo.of(Node.of("b", Labels.of("karpenter.sh/capacity-type", "spot"),
            List.of(), ResourceList.EMPTY))),
        NodeAffinity.INSTANCE.score(pi, NodeInfo.of(Node.of("c", Labels.EMPTY, List.of(), ResourceList.EMPTY)))};
    assertThat(raw).containsExactly(100, 20, 0);
    long[] halves = {50, 10, 0};
    NodeAffinity.INSTANCE.normalize(pi, halves);
    assertThat(halves).containsExactly(100, 20, 0);
  }
}
