package io.gpufleet.engine.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.BatchPlacement;
import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Scheduler;
import io.gpufleet.engine.scheduler.SchedulerProfile;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.pod.TopologySpreadConstraint;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.workload.PodTemplate;
import io.gpufleet.model.workload.Workload;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A Deployment's pods carry pod-template-hash, so matchLabelKeys spreads each revision on its own. */
class PodTemplateHashTest {

  private static final LabelSelector WEB = LabelSelector.matching(Labels.of("app", "web"));
  private static final TopologySpreadConstraint PER_REVISION = new TopologySpreadConstraint(1,
      "topology.kubernetes.io/zone", TopologySpreadConstraint.WhenUnsatisfiable.DO_NOT_SCHEDULE, Optional.of(WEB),
      OptionalInt.empty(), null, null, List.of("pod-template-hash"));

  private static Workload.Deployment deployment(String image) {
    PodSpec spec = PodSpec.of(Container.of("c", image, ResourceList.of("cpu", "100m"), ResourceList.EMPTY))
        .withTopologySpreadConstraints(List.of(PER_REVISION));
    return new Workload.Deployment(ObjectMeta.named("web"), 2, WEB,
        new PodTemplate(Labels.of("app", "web"), Labels.EMPTY, spec), Workload.Deployment.DEFAULT_ROLLING,
        Workload.Deployment.DEFAULT_ROLLING);
  }

  @Test
  void theLabelIsTheReplicaSetsNameSuffix() {
    Workload.Deployment d = deployment("web:v1");
    Pod p = PodFactory.pod(d, 0, new SplittableRandom(1));
    String replicaSet = PodFactory.owner(d).name();
    assertThat(replicaSet).startsWith("web-");
    assertThat(p.meta().labels().get(PodFactory.TEMPLATE_HASH_LABEL)).contains(replicaSet.substring("web-".length()));
    assertThat(p.name()).startsWith(replicaSet + "-");
    // another template, another revision, another hash
    assertThat(PodFactory.pod(deployment("web:v2"), 0, new SplittableRandom(1)).meta().labels()
        .get(PodFactory.TEMPLATE_HASH_LABEL)).isNotEqualTo(p.meta().labels().get(PodFactory.TEMPLATE_HASH_LABEL));
  }

  @Test
  void aNewRevisionSpreadsAsIfTheOldOneWereNotThere() {
    Node a = Node.of("a", Labels.of("topology.kubernetes.io/zone", "za"), List.of(),
        ResourceList.of("cpu", "8", "memory", "8Gi", "pods", "110"));
    Node b = Node.of("b", Labels.of("topology.kubernetes.io/zone", "zb"), List.of(),
        ResourceList.of("cpu", "8", "memory", "8Gi", "pods", "110"));
    ClusterSnapshot snapshot = ClusterSnapshot.of(List.of(a, b));
    // The old revision's two pods both run in zone za.
    for (Pod old : InitialPods.of(List.of(deployment("web:v1")), List.of(), new SplittableRandom(2))) {
      snapshot = snapshot.bind(PodInfo.of(old), "a");
    }
    List<Pod> fresh = InitialPods.of(List.of(deployment("web:v2")), List.of(), new SplittableRandom(3));
    var result = BatchPlacement.place(fresh, snapshot, new Scheduler(SchedulerProfile.defaults()),
        new SplittableRandom(4), false);
    // Counted per revision, the new pods spread one per zone; were the old pods counted (no
    // pod-template-hash), zone za would hold 2 and both new pods would go to zb (the control below).
    assertThat(result.outcomes()).allMatch(o -> o instanceof BatchPlacement.Outcome.Bound);
    assertThat(result.outcomes().stream().map(o -> ((BatchPlacement.Outcome.Bound) o).node()))
        .containsExactlyInAnyOrder("a", "b");
  }

  @Test
  void withoutTheLabelBothNewPodsWouldAvoidTheOldRevisionsZone() {
    // The control: the same placement with the label dropped from every pod.
    Node a = Node.of("a", Labels.of("topology.kubernetes.io/zone", "za"), List.of(),
        ResourceList.of("cpu", "8", "memory", "8Gi", "pods", "110"));
    Node b = Node.of("b", Labels.of("topology.kubernetes.io/zone", "zb"), List.of(),
        ResourceList.of("cpu", "8", "memory", "8Gi", "pods", "110"));
    ClusterSnapshot snapshot = ClusterSnapshot.of(List.of(a, b));
    for (Pod old : InitialPods.of(List.of(deployment("web:v1")), List.of(), new SplittableRandom(2))) {
      snapshot = snapshot.bind(PodInfo.of(unlabelled(old)), "a");
    }
    List<Pod> fresh = InitialPods.of(List.of(deployment("web:v2")), List.of(), new SplittableRandom(3)).stream()
        .map(PodTemplateHashTest::unlabelled).toList();
    var result = BatchPlacement.place(fresh, snapshot, new Scheduler(SchedulerProfile.defaults()),
        new SplittableRandom(4), false);
    assertThat(result.outcomes().stream().filter(o -> o instanceof BatchPlacement.Outcome.Bound)
        .map(o -> ((BatchPlacement.Outcome.Bound) o).node())).containsOnly("b");
  }

  private static Pod unlabelled(Pod p) {
    return p.withMeta(p.meta().withLabels(p.meta().labels().without(PodFactory.TEMPLATE_HASH_LABEL)));
  }
}
