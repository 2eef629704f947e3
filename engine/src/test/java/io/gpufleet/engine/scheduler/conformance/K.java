package io.gpufleet.engine.scheduler.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.engine.scheduler.plugin.FilterPlugin;
import io.gpufleet.engine.scheduler.plugin.ScorePlugin;
import io.gpufleet.model.affinity.NodeAffinity;
import io.gpufleet.model.affinity.NodeSelector;
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
import io.gpufleet.model.taint.Toleration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The builders the translated cases use, close to upstream's test helpers ({@code st.MakePod()},
 * {@code newResourcePod}, {@code nodeWithTaints}) so each case reads like its original.
 */
final class K {
  private K() {}

  /** A pod with one container per request list; none: no container at all, as upstream's {@code &v1.Pod{}}. */
  static Pod pod(String name, ResourceList... containers) {
    List<Container> cs = new ArrayList<>();
    for (int i = 0; i < containers.length; i++) {
      cs.add(Container.of("c" + i, "img", containers[i], ResourceList.EMPTY));
    }
    return new Pod(ObjectMeta.named(name), new PodSpec(cs, List.of(), ResourceList.EMPTY, Labels.EMPTY,
        NodeAffinity.NONE, List.of(), Optional.empty(), 0, Optional.empty(), null,
        PodSpec.DEFAULT_TERMINATION_GRACE_SECONDS, null));
  }

  static Pod withInit(Pod pod, ResourceList... inits) {
    List<Container> cs = new ArrayList<>();
    for (int i = 0; i < inits.length; i++) {
      cs.add(Container.of("i" + i, "img", inits[i], ResourceList.EMPTY));
    }
    return pod.withSpec(pod.spec().withInitContainers(cs));
  }

  static ResourceList res(String... namesAndValues) {
    return ResourceList.of(namesAndValues);
  }

  /** {@code cpu} in millicores and memory in bytes, as upstream's {@code framework.Resource{MilliCPU, Memory}}. */
  static ResourceList cpuMem(long milliCpu, long memory) {
    return ResourceList.of("cpu", milliCpu + "m", "memory", Long.toString(memory));
  }

  static Pod withNodeSelector(Pod pod, String... keysAndValues) {
    return pod.withSpec(pod.spec().withNodeSelector(Labels.of(keysAndValues)));
  }

  static Pod requiring(Pod pod, NodeSelectorTerm... terms) {
    NodeAffinity a = pod.spec().nodeAffinity();
    return pod.withSpec(pod.spec().withNodeAffinity(
        new NodeAffinity(Optional.of(new NodeSelector(List.of(terms))), a.preferred())));
  }

  static Pod preferring(Pod pod, PreferredSchedulingTerm... terms) {
    NodeAffinity a = pod.spec().nodeAffinity();
    return pod.withSpec(pod.spec().withNodeAffinity(new NodeAffinity(a.required(), List.of(terms))));
  }

  static NodeSelectorTerm expr(Requirement... r) {
    return new NodeSelectorTerm(List.of(r), List.of());
  }

  static NodeSelectorTerm fields(Requirement... r) {
    return new NodeSelectorTerm(List.of(), List.of(r));
  }

  static NodeSelectorTerm term(List<Requirement> expressions, List<Requirement> fields) {
    return new NodeSelectorTerm(expressions, fields);
  }

  static Pod tolerating(Pod pod, Toleration... t) {
    return pod.withSpec(pod.spec().withTolerations(List.of(t)));
  }

  static Node node(String name, Labels labels, List<Taint> taints, ResourceList allocatable) {
    return Node.of(name, labels, taints, allocatable);
  }

  static Node node(String name, String... labels) {
    return Node.of(name, Labels.of(labels), List.of(), ResourceList.of("pods", "110"));
  }

  static Node tainted(String name, Taint... taints) {
    return Node.of(name, Labels.EMPTY, List.of(taints), ResourceList.of("pods", "110"));
  }

  /** A node image with these pods bound. */
  static NodeInfo info(Node node, Pod... pods) {
    NodeInfo info = NodeInfo.of(node);
    for (Pod p : pods) {
      info = info.withPod(PodInfo.of(p));
    }
    return info;
  }

  static void assertFilter(FilterPlugin plugin, Pod pod, NodeInfo node, Status.Code code, String... reasons) {
    Status s = plugin.filter(PodInfo.of(pod), node);
    if (code == Status.Code.SUCCESS) {
      assertThat(s.isSuccess()).as("filter passes, got %s", s).isTrue();
      return;
    }
    assertThat(s.code()).as("status code of %s", s).isEqualTo(code);
    assertThat(s.reasons()).containsExactly(reasons);
  }

  /** Fails or passes, reasons compared (fit's status code changed across releases; see docs/conformance.md). */
  static void assertFilterReasons(FilterPlugin plugin, Pod pod, NodeInfo node, String... reasons) {
    Status s = plugin.filter(PodInfo.of(pod), node);
    if (reasons.length == 0) {
      assertThat(s.isSuccess()).as("filter passes, got %s", s).isTrue();
    } else {
      assertThat(s.reasons()).containsExactly(reasons);
    }
  }

  /** PreScore over these nodes, score every node, normalise as the plugin does, and compare. */
  static void assertScores(ScorePlugin plugin, Pod pod, List<NodeInfo> nodes, long... expected) {
    PodInfo p = PodInfo.of(pod);
    ClusterSnapshot snapshot = ClusterSnapshot.ofInfos(nodes);
    ScorePlugin cycle = plugin.preScore(p, snapshot).orElse(plugin);
    long[] got = new long[nodes.size()];
    for (int i = 0; i < got.length; i++) {
      got[i] = cycle.score(p, nodes.get(i));
    }
    cycle.normalize(p, got);
    assertThat(got).as("scores").isEqualTo(expected);
    // By snapshot index too, as the scheduler asks (a plugin's scoreAll may read the snapshot's columns).
    int[] all = java.util.stream.IntStream.range(0, nodes.size()).toArray();
    long[] byIndex = new long[all.length];
    cycle.scoreAll(p, snapshot, all, all.length, byIndex);
    cycle.normalize(p, byIndex);
    assertThat(byIndex).as("scores by index").isEqualTo(expected);
  }

  static ClusterSnapshot snapshot(NodeInfo... nodes) {
    return ClusterSnapshot.ofInfos(Arrays.asList(nodes));
  }
}
