package io.gpufleet.engine.scheduler.conformance;

import static io.gpufleet.engine.scheduler.conformance.K.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.plugin.PodTopologySpread;
import io.gpufleet.engine.workload.ControllerSelectors;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.meta.OwnerReference;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.workload.PodTemplate;
import io.gpufleet.model.workload.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * PodTopologySpread with the system default constraints: {@code
 * pkg/scheduler/framework/plugins/podtopologyspread/scoring_test.go} (TestPodTopologySpreadScore,
 * TestPreScoreSkip). The twin reads no constraints of the pod's own yet, so only the cases that
 * exercise the defaults, or the skip, are translated.
 */
final class PodTopologySpreadCases {
  private PodTopologySpreadCases() {}

  static final String SCORING = "pkg/scheduler/framework/plugins/podtopologyspread/scoring_test.go";
  private static final String PLUGIN = "PodTopologySpread";

  private static Pod labelled(String name, String... labels) {
    Pod p = pod(name);
    return p.withMeta(new ObjectMeta(name, p.meta().namespace(), Labels.of(labels), Labels.EMPTY, Optional.empty()));
  }

  private static Pod owned(Pod p, String replicaSet) {
    ObjectMeta m = p.meta();
    return p.withMeta(new ObjectMeta(m.name(), m.namespace(), m.labels(), m.annotations(),
        Optional.of(new OwnerReference("ReplicaSet", replicaSet))));
  }

  /** {@code n} pods labelled foo="" named {@code prefix1..n}. */
  private static Pod[] foos(String prefix, int n) {
    List<Pod> out = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      out.add(labelled(prefix + i, "foo", ""));
    }
    return out.toArray(Pod[]::new);
  }

  private static void assertSkipped(PodTopologySpread plugin, Pod pod) {
    assertThat(plugin.preScore(PodInfo.of(pod), ClusterSnapshot.ofInfos(List.of(NodeInfo.of(node("node-a",
        "kubernetes.io/hostname", "node-a")))))).as("PreScore skips").isEmpty();
  }

  static List<UpstreamCase> cases() {
    List<UpstreamCase> c = new ArrayList<>();
    // The Service selecting foo="" is what DefaultSelector returns; the twin models no Services, so
    // the selector is supplied directly, which is what the plugin consumes.
    LabelSelector foo = LabelSelector.matching(Labels.of("foo", ""));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "system defaulting, nodes don't have zone, pods match service", () ->
        assertScores(new PodTopologySpread(p -> Optional.of(foo)), labelled("p", "foo", ""), List.of(
            info(node("node-a", "kubernetes.io/hostname", "node-a"), foos("p-a", 4)),
            info(node("node-b", "kubernetes.io/hostname", "node-b"), foos("p-b", 3)),
            info(node("node-c", "kubernetes.io/hostname", "node-c"), foos("p-c", 2)),
            info(node("node-d", "kubernetes.io/hostname", "node-d"), foos("p-d", 1))),
            44, 66, 77, 100)));
    // Upstream skips for want of constraints; the twin's defaults skip a pod no controller owns.
    c.add(UpstreamCase.of(PLUGIN, SCORING, "the pod doesn't have soft topology spread Constraints", () ->
        assertSkipped(new PodTopologySpread(ControllerSelectors.of(List.of())), pod("p"))));
    Workload rs1 = new Workload.ReplicaSet(ObjectMeta.named("rs1"), 1,
        new LabelSelector(Labels.EMPTY, List.of(Requirement.exists("tar"))),
        new PodTemplate(Labels.of("tar", ""), Labels.EMPTY, pod("t").spec()));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "default constraints and a replicaset that doesn't match", () ->
        assertSkipped(new PodTopologySpread(ControllerSelectors.of(List.of(rs1))),
            owned(labelled("p", "foo", "bar", "baz", "sup"), "rs2"))));
    return c;
  }
}
