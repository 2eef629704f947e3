package io.gpufleet.engine.scheduler;

import static io.gpufleet.engine.scheduler.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.plugin.NodeAffinity;
import io.gpufleet.engine.scheduler.plugin.NodeName;
import io.gpufleet.engine.scheduler.plugin.NodeResourcesFit;
import io.gpufleet.engine.scheduler.plugin.NodeUnschedulable;
import io.gpufleet.engine.scheduler.plugin.TaintToleration;
import io.gpufleet.model.affinity.NodeSelectorTerm;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import org.junit.jupiter.api.Test;

class FilterPluginsTest {

  private static Status fit(Pod pod, NodeInfo node) {
    return NodeResourcesFit.leastAllocated().filter(PodInfo.of(pod), node);
  }

  @Test
  void gpusAreWholeAndNeverOvercommitted() {
    NodeInfo node = NodeInfo.of(gpuNode("g", 1));
    assertThat(fit(gpuPod("a", 1), node).isSuccess()).isTrue();
    NodeInfo full = node.withPod(PodInfo.of(gpuPod("a", 1)));
    Status s = fit(gpuPod("b", 1), full);
    assertThat(s.code()).isEqualTo(Status.Code.UNSCHEDULABLE);
    assertThat(s.reasons()).containsExactly("Insufficient nvidia.com/gpu");
  }

  @Test
  void aRequestLargerThanTheNodeCannotBeResolvedByPreemption() {
    Status s = fit(gpuPod("big", 2), NodeInfo.of(gpuNode("g", 1)));
    assertThat(s.code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
    assertThat(s.reasons()).containsExactly("Insufficient nvidia.com/gpu");
  }

  @Test
  void everyShortfallIsReportedInKubeSchedulersOrder() {
    NodeInfo node = NodeInfo.of(node("n", "1", "1Gi", 0, Labels.EMPTY));
    Status s = fit(pod("p", "2", "2Gi", 1), node);
    assertThat(s.reasons()).containsExactly("Insufficient cpu", "Insufficient memory", "Insufficient nvidia.com/gpu");
  }

  @Test
  void podCountIsAResource() {
    NodeInfo node = NodeInfo.of(io.gpufleet.model.node.Node.of("n", Labels.EMPTY, java.util.List.of(),
        io.gpufleet.model.resource.ResourceList.of("cpu", "4", "memory", "4Gi", "pods", "1")));
    node = node.withPod(PodInfo.of(pod("a", "100m", "100Mi", 0)));
    assertThat(fit(pod("b", null, null, 0), node).reasons()).containsExactly("Too many pods");
  }

  @Test
  void aBestEffortPodFitsAnywhereWithRoomForOneMorePod() {
    NodeInfo node = NodeInfo.of(node("n", "0", "0", 0, Labels.EMPTY));
    assertThat(fit(pod("p", null, null, 0), node).isSuccess()).isTrue();
  }

  @Test
  void untoleratedNoScheduleAndNoExecuteTaintsReject() {
    NodeInfo node = NodeInfo.of(gpuNode("g", 1));
    Status s = TaintToleration.INSTANCE.filter(PodInfo.of(pod("p", "1", "1Gi", 1)), node);
    assertThat(s.code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
    assertThat(s.reasons()).containsExactly("node(s) had untolerated taint(s)");
    assertThat(TaintToleration.INSTANCE.filter(PodInfo.of(gpuPod("p", 1)), node).isSuccess()).isTrue();
    NodeInfo soft = NodeInfo.of(node("s", "1", "1Gi", 0, Labels.EMPTY,
        Taint.of("maybe", "", TaintEffect.PREFER_NO_SCHEDULE)));
    assertThat(TaintToleration.INSTANCE.filter(PodInfo.of(pod("p", "1", "1Gi", 0)), soft).isSuccess()).isTrue();
  }

  @Test
  void cordonedNodesTakeOnlyPodsThatTolerateIt() {
    NodeInfo cordoned = NodeInfo.of(cpuNode("c").withUnschedulable(true));
    assertThat(NodeUnschedulable.INSTANCE.filter(PodInfo.of(pod("p", "1", "1Gi", 0)), cordoned).reasons())
        .containsExactly("node(s) were unschedulable");
    Pod tolerant = pod("t", "1", "1Gi", 0,
        Toleration.exists("node.kubernetes.io/unschedulable", TaintEffect.NO_SCHEDULE));
    assertThat(NodeUnschedulable.INSTANCE.filter(PodInfo.of(tolerant), cordoned).isSuccess()).isTrue();
  }

  @Test
  void nodeNameMatchesOnlyItsNode() {
    Pod pinned = pod("p", "1", "1Gi", 0).withSpec(pod("p", "1", "1Gi", 0).spec().withNodeName("a"));
    assertThat(NodeName.INSTANCE.filter(PodInfo.of(pinned), NodeInfo.of(cpuNode("a"))).isSuccess()).isTrue();
    assertThat(NodeName.INSTANCE.filter(PodInfo.of(pinned), NodeInfo.of(cpuNode("b"))).reasons())
        .containsExactly("node(s) didn't match the requested node name");
  }

  @Test
  void nodeSelectorAndRequiredAffinityMustBothHold() {
    NodeInfo a10g = NodeInfo.of(node("a", "8", "32Gi", 1,
        Labels.of("nvidia.com/gpu.product", "NVIDIA-A10G", "nvidia.com/gpu.memory", "23028")));
    NodeInfo l40s = NodeInfo.of(node("l", "8", "32Gi", 1,
        Labels.of("nvidia.com/gpu.product", "NVIDIA-L40S", "nvidia.com/gpu.memory", "46068")));
    Pod bySelector = pod("s", "1", "1Gi", 1);
    bySelector = bySelector.withSpec(bySelector.spec().withNodeSelector(Labels.of("nvidia.com/gpu.product", "NVIDIA-A10G")));
    assertThat(NodeAffinity.INSTANCE.filter(PodInfo.of(bySelector), a10g).isSuccess()).isTrue();
    assertThat(NodeAffinity.INSTANCE.filter(PodInfo.of(bySelector), l40s).reasons())
        .containsExactly("node(s) didn't match Pod's node affinity/selector");

    Pod bigMemory = pod("m", "1", "1Gi", 1);
    bigMemory = bigMemory.withSpec(bigMemory.spec().withNodeAffinity(io.gpufleet.model.affinity.NodeAffinity.requiring(
        NodeSelectorTerm.of(Requirement.gt("nvidia.com/gpu.memory", 40000)))));
    assertThat(NodeAffinity.INSTANCE.filter(PodInfo.of(bigMemory), l40s).isSuccess()).isTrue();
    assertThat(NodeAffinity.INSTANCE.filter(PodInfo.of(bigMemory), a10g).isSuccess()).isFalse();

    Pod both = bigMemory.withSpec(bigMemory.spec().withNodeSelector(Labels.of("nvidia.com/gpu.product", "NVIDIA-A10G")));
    assertThat(NodeAffinity.INSTANCE.filter(PodInfo.of(both), l40s).isSuccess()).isFalse();
    assertThat(NodeAffinity.INSTANCE.filter(PodInfo.of(both), a10g).isSuccess()).isFalse();
  }

  @Test
  void requiredTermsAreOredAndAnEmptyTermMatchesNothing() {
    NodeInfo n = NodeInfo.of(node("n", "1", "1Gi", 0, Labels.of("zone", "a")));
    var either = io.gpufleet.model.affinity.NodeAffinity.requiring(
        NodeSelectorTerm.of(Requirement.in("zone", "b")), NodeSelectorTerm.of(Requirement.in("zone", "a")));
    var empty = io.gpufleet.model.affinity.NodeAffinity.requiring(NodeSelectorTerm.of());
    Pod p = pod("p", "1", "1Gi", 0);
    assertThat(NodeAffinity.INSTANCE.filter(PodInfo.of(p.withSpec(p.spec().withNodeAffinity(either))), n).isSuccess())
        .isTrue();
    assertThat(NodeAffinity.INSTANCE.filter(PodInfo.of(p.withSpec(p.spec().withNodeAffinity(empty))), n).isSuccess())
        .isFalse();
  }
}
