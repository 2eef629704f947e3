package io.gpufleet.engine.scheduler.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.BatchPlacement;
import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.Scheduler;
import io.gpufleet.engine.scheduler.SchedulerProfile;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** SchedulingGates, as upstream's scheduling_gates_test.go (TestPreEnqueue) and in a batch. */
class SchedulingGatesTest {

  private static Pod pod(String name, String... gates) {
    PodSpec spec = PodSpec.of(Container.of("c", "img", ResourceList.of("cpu", "100m"), ResourceList.EMPTY))
        .withSchedulingGates(List.of(gates));
    return new Pod(ObjectMeta.named(name), spec);
  }

  @Test
  void anUngatedPodIsQueued() {
    assertThat(SchedulingGates.INSTANCE.preEnqueue(pod("p"))).isEmpty();
  }

  @Test
  void aGatedPodIsHeldWithUpstreamsMessage() {
    assertThat(SchedulingGates.INSTANCE.preEnqueue(pod("p", "foo", "bar")))
        .contains("waiting for scheduling gates: [foo bar]");
    assertThat(SchedulerProfile.defaults().preEnqueue(pod("p", "foo")).map(Status::code))
        .contains(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
  }

  @Test
  void aGatedPodIsNeverBoundEvenWithRoom() {
    Node n = Node.of("n", Labels.EMPTY, List.of(), ResourceList.of("cpu", "4", "memory", "4Gi", "pods", "110"));
    var result = BatchPlacement.place(List.of(pod("gated", "example.com/quota"), pod("free")),
        ClusterSnapshot.of(List.of(n)), new Scheduler(SchedulerProfile.defaults()), new SplittableRandom(1), false);
    assertThat(result.outcomes()).extracting(BatchPlacement.Outcome::variant)
        .containsExactly(BatchPlacement.Outcome.Variant.GATED, BatchPlacement.Outcome.Variant.BOUND);
    assertThat(((BatchPlacement.Outcome.Gated) result.outcomes().getFirst()).message())
        .isEqualTo("waiting for scheduling gates: [example.com/quota]");
  }
}
