package io.gpufleet.engine.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.meta.OwnerReference;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.workload.PodTemplate;
import io.gpufleet.model.workload.Workload;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Controllers resume from the pods a cluster already has, found through their owner chains. */
class InitialPodsTest {

  private static final LabelSelector WEB = LabelSelector.matching(Labels.of("app", "web"));
  private static final PodTemplate TEMPLATE = new PodTemplate(Labels.of("app", "web"), Labels.EMPTY,
      PodSpec.of(Container.of("c", "img", ResourceList.of("cpu", "1"), ResourceList.EMPTY)));

  private static ObjectMeta owned(String name, String kind, String owner) {
    return new ObjectMeta(name, "default", Labels.EMPTY, Labels.EMPTY, Optional.of(new OwnerReference(kind, owner)));
  }

  private static Pod pod(String name, String kind, String owner) {
    return new Pod(owned(name, kind, owner), TEMPLATE.spec());
  }

  private static List<Pod> resume(List<Workload> workloads, List<Pod> observed, List<Pod> succeeded) {
    return InitialPods.resume(workloads, List.of(), observed, succeeded, new SplittableRandom(1));
  }

  @Test
  void aDeploymentWithTwoObservedPodsThroughItsReplicaSetCreatesOneMore() {
    Workload.Deployment d = new Workload.Deployment(ObjectMeta.named("web"), 3, WEB, TEMPLATE,
        Workload.Deployment.DEFAULT_ROLLING, Workload.Deployment.DEFAULT_ROLLING);
    Workload.ReplicaSet rs = new Workload.ReplicaSet(owned("web-6c8f9", "Deployment", "web"), 3, WEB, TEMPLATE);
    List<Pod> observed = List.of(pod("web-6c8f9-a", "ReplicaSet", "web-6c8f9"), pod("web-6c8f9-b", "ReplicaSet",
        "web-6c8f9"));
    List<Pod> created = resume(List.of(d, rs), observed, List.of());
    // Not 3 from the Deployment plus 3 from its ReplicaSet: one, the Deployment's.
    assertThat(created).singleElement().satisfies(p -> assertThat(p.name()).startsWith("web-"));
    assertThat(resume(List.of(d, rs), List.of(), List.of())).hasSize(3);
  }

  @Test
  void aStatefulSetFillsOnlyItsMissingOrdinals() {
    Workload.StatefulSet ss = new Workload.StatefulSet(ObjectMeta.named("db"), 3, WEB, TEMPLATE);
    List<Pod> created = resume(List.of(ss), List.of(pod("db-1", "StatefulSet", "db")), List.of());
    assertThat(created).extracting(Pod::name).containsExactly("db-0", "db-2");
  }

  @Test
  void aJobCountsSucceededPodsAsCompletionsAndRunningOnesAsActive() {
    Workload.Job j = new Workload.Job(ObjectMeta.named("train"), 2, 3, WEB, TEMPLATE, Optional.empty());
    Pod done = pod("train-a", "Job", "train");
    Pod running = pod("train-b", "Job", "train");
    // 3 completions, 2 done: one more pod in all, and it is already running.
    assertThat(resume(List.of(j), List.of(running), List.of(done, pod("train-c", "Job", "train")))).isEmpty();
    // 1 done, 1 running, parallelism 2: one more.
    assertThat(resume(List.of(j), List.of(running), List.of(done))).hasSize(1);
  }

  @Test
  void podsOfAnOwnerInAnotherNamespaceOrOfNoKnownOwnerCountForNothing() {
    Workload.ReplicaSet rs = new Workload.ReplicaSet(ObjectMeta.named("web"), 2, WEB, TEMPLATE);
    Pod elsewhere = new Pod(new ObjectMeta("web-a", "other", Labels.EMPTY, Labels.EMPTY,
        Optional.of(new OwnerReference("ReplicaSet", "web"))), TEMPLATE.spec());
    assertThat(resume(List.of(rs), List.of(elsewhere, pod("x", "ReplicaSet", "gone")), List.of())).hasSize(2);
  }
}
