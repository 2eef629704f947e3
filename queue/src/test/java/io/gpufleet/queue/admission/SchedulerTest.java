package io.gpufleet.queue.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.queue.api.ClusterQueue;
import io.gpufleet.queue.api.FlavorQuotas;
import io.gpufleet.queue.api.KueueState;
import io.gpufleet.queue.api.LocalQueue;
import io.gpufleet.queue.api.PodSet;
import io.gpufleet.queue.api.QueueingStrategy;
import io.gpufleet.queue.api.ResourceFlavor;
import io.gpufleet.queue.api.ResourceGroup;
import io.gpufleet.queue.api.ResourceQuota;
import io.gpufleet.queue.api.Workload;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SchedulerTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static KueueState state(QueueingStrategy strategy, Workload... workloads) {
    ClusterQueue cq = ClusterQueue.named("cq", ResourceGroup.of(FlavorQuotas.of("default", ResourceQuota.of("cpu", "4"))))
        .withStrategy(strategy);
    return new KueueState(List.of(ResourceFlavor.named("default")), List.of(cq), List.of(),
        List.of(new LocalQueue("ns", "lq", "cq")), List.of(workloads));
  }

  private static Workload wl(String name, String cpu, int secondsAfterT0) {
    return Workload.of("ns", name, "lq", T0.plusSeconds(secondsAfterT0),
        PodSet.of(PodSet.MAIN, 1, ResourceList.of("cpu", cpu)));
  }

  @Test
  void strictFifoKeepsAHeadThatCannotFitInFront() {
    KueueState s = state(QueueingStrategy.STRICT_FIFO, wl("big", "8", 0), wl("small", "1", 1));
    List<Decision> first = Scheduler.cycle(s, T0);
    assertThat(first).singleElement().isInstanceOfSatisfying(Decision.Pending.class, p -> {
      assertThat(p.workload()).isEqualTo("ns/big");
      assertThat(p.reason()).isEqualTo("ExceedsMaxQuota");
      assertThat(p.inadmissible()).isFalse();
    });
    // StrictFIFO ignores the set-aside list: the head stays the head.
    assertThat(Scheduler.cycle(s, T0, w -> w.name().equals("big"))).singleElement()
        .extracting(Decision::workload).isEqualTo("ns/big");
  }

  @Test
  void bestEffortFifoSetsAHeadThatCannotFitAsideAndTheNextOneIsAdmitted() {
    KueueState s = state(QueueingStrategy.BEST_EFFORT_FIFO, wl("big", "8", 0), wl("small", "1", 1));
    List<Decision> first = Scheduler.cycle(s, T0);
    assertThat(first).singleElement().isInstanceOfSatisfying(Decision.Pending.class,
        p -> assertThat(p.inadmissible()).isTrue());
    Set<String> aside = Set.of(first.get(0).workload());
    assertThat(Scheduler.cycle(s, T0, w -> aside.contains(w.key()))).singleElement()
        .isInstanceOfSatisfying(Decision.Admitted.class, a -> assertThat(a.workload()).isEqualTo("ns/small"));
  }

  @Test
  void theHeadIsTheHighestPriorityThenTheOldest() {
    KueueState s = state(QueueingStrategy.STRICT_FIFO, wl("old", "1", 0), wl("new-high", "1", 5).withPriority(10),
        wl("new", "1", 3));
    assertThat(Scheduler.cycle(s, T0)).singleElement().extracting(Decision::workload).isEqualTo("ns/new-high");
  }

  @Test
  void theSameStateGivesTheSameDecisions() {
    KueueState s = state(QueueingStrategy.BEST_EFFORT_FIFO, wl("a", "2", 0), wl("b", "3", 1));
    assertThat(Scheduler.cycle(s, T0)).isEqualTo(Scheduler.cycle(s, T0));
  }

  @Test
  void aWorkloadWhoseLocalQueueIsMissingIsNotConsidered() {
    KueueState s = state(QueueingStrategy.STRICT_FIFO, Workload.of("other", "x", "nope", T0,
        PodSet.of(PodSet.MAIN, 1, ResourceList.of("cpu", "1"))));
    assertThat(Scheduler.cycle(s, T0)).singleElement().isInstanceOfSatisfying(Decision.NotConsidered.class,
        n -> assertThat(n.why()).isEqualTo("LocalQueue other/nope doesn't exist"));
  }
}
