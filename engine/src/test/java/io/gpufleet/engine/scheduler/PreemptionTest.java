package io.gpufleet.engine.scheduler;

import static io.gpufleet.engine.scheduler.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.workload.DisruptionBudget;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PreemptionPolicy;
import io.gpufleet.model.workload.PodDisruptionBudget;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** DefaultPreemption in a batch placement: victims, nomination, the Pending message. */
class PreemptionTest {

  private final Scheduler preempting = new Scheduler(SchedulerProfile.defaults().withPreemption());

  private static Pod withPriority(Pod p, int priority) {
    return p.withSpec(p.spec().withPriority(priority));
  }

  @Test
  void aHighPriorityInferencePodPreemptsTheTrainingPodHoldingTheOnlyGpu() {
    Pod training = withPriority(gpuPod("training", 1), 100);
    training = training.withSpec(training.spec().withNodeName("g"));
    Pod inference = withPriority(gpuPod("inference", 1), 1000);
    var result = BatchPlacement.place(List.of(training, inference), ClusterSnapshot.of(List.of(gpuNode("g", 1))),
        preempting, new SplittableRandom(1), false);
    assertThat(result.outcomes()).containsExactly(
        new BatchPlacement.Outcome.Preempted(training, "g", inference),
        new BatchPlacement.Outcome.Pending(inference, ((BatchPlacement.Outcome.Pending) result.outcomes().get(1)).error(),
            Optional.of("g")));
    // Preemption succeeded, so no "preemption:" suffix: only the filter's reasons.
    assertThat(((BatchPlacement.Outcome.Pending) result.outcomes().get(1)).error().message())
        .isEqualTo("0/1 nodes are available: 1 Insufficient nvidia.com/gpu.");
    // The nominated pod holds the card for the pods queued after it.
    assertThat(result.snapshot().node("g").orElseThrow().pods()).extracting(PodInfo::name).containsExactly("inference");
  }

  /**
   * pickOneNodeForPreemption's first criterion: the node whose victims violate fewer budgets wins
   * over one whose victim has the lower priority; with the budget allowing one disruption, or with
   * no lister, the lower priority wins again.
   */
  @Test
  void theNodeWithFewerPdbViolationsWinsBeforeTheLowerVictimPriority() {
    Pod guarded = withPriority(gpuPod("guarded", 1), 10);
    guarded = guarded.withMeta(guarded.meta().withLabels(Labels.of("app", "guarded")))
        .withSpec(guarded.spec().withNodeName("a"));
    Pod batch = withPriority(gpuPod("batch", 1), 100);
    batch = batch.withSpec(batch.spec().withNodeName("b"));
    Pod urgent = withPriority(gpuPod("urgent", 1), 1000);
    var pdb = new PodDisruptionBudget(ObjectMeta.named("guarded"),
        LabelSelector.matching(Labels.of("app", "guarded")),
        Optional.empty(), Optional.empty());
    for (int allowed : new int[] {0, 1, -1}) {
      var budgets = allowed < 0 ? List.<DisruptionBudget>of()
          : List.of(new DisruptionBudget(pdb, allowed));
      var scheduler = new Scheduler(SchedulerProfile.defaults().withPreemption().withDisruptionBudgets(() -> budgets));
      var result = BatchPlacement.place(List.of(guarded, batch, urgent),
          ClusterSnapshot.of(List.of(gpuNode("a", 1), gpuNode("b", 1))), scheduler, new SplittableRandom(1), false);
      assertThat(result.outcomes()).as("disruptionsAllowed %d", allowed)
          .contains(new BatchPlacement.Outcome.Preempted(allowed == 0 ? batch : guarded, allowed == 0 ? "b" : "a", urgent));
    }
  }

  @Test
  void aPodOfEqualPriorityFindsNoVictimsAndSaysSo() {
    Pod first = withPriority(gpuPod("first", 1), 100);
    Pod second = withPriority(gpuPod("second", 1), 100);
    var result = BatchPlacement.place(List.of(first, second), ClusterSnapshot.of(List.of(gpuNode("g", 1),
        cpuNode("c"))), preempting, new SplittableRandom(1), false);
    assertThat(((BatchPlacement.Outcome.Pending) result.outcomes().get(1)).error().message()).isEqualTo(
        // Both nodes lack a free GPU; only on the GPU node could another pod's removal help.
        "0/2 nodes are available: 2 Insufficient nvidia.com/gpu."
            + " preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod,"
            + " 1 Preemption is not helpful for scheduling.");
  }

  /**
   * The image's priority floor only lets preemption skip reading pods when none can be a victim: a
   * floor left low by a pod that has gone leads to reading them, with the same answer.
   */
  @Test
  void aFloorLeftLowByAPodThatLeftGivesTheSameAnswerAsAnExactOne() {
    PodInfo holder = PodInfo.of(withPriority(gpuPod("holder", 1), 100));
    PodInfo gone = PodInfo.of(withPriority(gpuPod("gone", 1), 1));
    ClusterSnapshot exact = ClusterSnapshot.of(List.of(gpuNode("g", 2), cpuNode("c"))).bind(holder, "g")
        .bind(PodInfo.of(withPriority(gpuPod("other", 1), 100)), "g");
    ClusterSnapshot low = ClusterSnapshot.of(List.of(gpuNode("g", 2), cpuNode("c"))).bind(gone, "g")
        .unbind(gone.key(), "g").bind(holder, "g").bind(PodInfo.of(withPriority(gpuPod("other", 1), 100)), "g");
    assertThat(exact.podPriorityFloor()).isEqualTo(100);
    assertThat(low.podPriorityFloor()).isEqualTo(1);
    PodInfo preemptor = PodInfo.of(withPriority(gpuPod("preemptor", 1), 100));
    String expected = "0/2 nodes are available: 2 Insufficient nvidia.com/gpu."
        + " preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod,"
        + " 1 Preemption is not helpful for scheduling.";
    for (ClusterSnapshot s : List.of(exact, low)) {
      var r = (ScheduleResult.Unschedulable) preempting.schedule(preemptor, s, new SplittableRandom(1));
      assertThat(r.error().message()).isEqualTo(expected);
      assertThat(r.nominatedNode()).isEmpty();
    }
  }

  @Test
  void preemptionPolicyNeverKeepsThePodPendingWithUpstreamsWords() {
    Pod low = withPriority(gpuPod("low", 1), 0);
    Pod never = withPriority(gpuPod("never", 1), 1000);
    never = never.withSpec(new io.gpufleet.model.pod.PodSpec(never.spec().containers(), List.of(),
        never.spec().overhead(), never.spec().nodeSelector(), never.spec().nodeAffinity(), never.spec().tolerations(),
        Optional.empty(), 1000, Optional.empty(), PreemptionPolicy.NEVER, 30, null));
    var result = BatchPlacement.place(List.of(low.withSpec(low.spec().withNodeName("g")), never),
        ClusterSnapshot.of(List.of(gpuNode("g", 1))), preempting, new SplittableRandom(1), false);
    assertThat(((BatchPlacement.Outcome.Pending) result.outcomes().get(1)).error().message()).isEqualTo(
        "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: not eligible due to preemptionPolicy=Never.");
  }

  @Test
  void theLowestPriorityVictimsAreChosenAndTheRestReprieved() {
    Pod a = withPriority(gpuPod("a", 1), 10);
    Pod b = withPriority(gpuPod("b", 1), 500);
    a = a.withSpec(a.spec().withNodeName("g"));
    b = b.withSpec(b.spec().withNodeName("g"));
    Pod high = withPriority(gpuPod("high", 1), 1000);
    var result = BatchPlacement.place(List.of(a, b, high), ClusterSnapshot.of(List.of(gpuNode("g", 2))), preempting,
        new SplittableRandom(1), false);
    assertThat(result.outcomes().get(0)).isInstanceOf(BatchPlacement.Outcome.Preempted.class);
    assertThat(result.outcomes().get(1)).isInstanceOf(BatchPlacement.Outcome.Bound.class);
  }

  /** A GPU pod labelled app=web with a hard spread over {@code kubernetes.io/hostname}, maxSkew 1. */
  private static Pod web(String name, int priority) {
    Pod p = withPriority(gpuPod(name, 1), priority);
    p = p.withMeta(new ObjectMeta(name, "default",
        Labels.of("app", "web"), Labels.EMPTY, Optional.empty()));
    return p.withSpec(p.spec().withTopologySpreadConstraints(List.of(io.gpufleet.model.pod.TopologySpreadConstraint.of(
        1, "kubernetes.io/hostname", io.gpufleet.model.pod.TopologySpreadConstraint.WhenUnsatisfiable.DO_NOT_SCHEDULE,
        LabelSelector.matching(Labels.of("app", "web"))))));
  }

  @Test
  void preemptionCountsTheSpreadWithoutItsVictimsAsRemovePodDoes() {
    // g1 holds a low-priority web pod, g2 a pod of higher priority than the preemptor: both GPUs are taken.
    var g1 = NodeInfo.of(gpuNode("g1", 1).withLabels(gpuNode("g1", 1).labels().with("kubernetes.io/hostname", "g1")))
        .withPod(PodInfo.of(web("old-web", 10)));
    var g2 = NodeInfo.of(gpuNode("g2", 1).withLabels(gpuNode("g2", 1).labels().with("kubernetes.io/hostname", "g2")))
        .withPod(PodInfo.of(withPriority(gpuPod("critical", 5000), 5000)));
    var r = preempting.schedule(PodInfo.of(web("new-web", 1000)), ClusterSnapshot.ofInfos(List.of(g1, g2)),
        new SplittableRandom(1));
    // Counted with old-web, g1's skew would be 1 + 1 - 0 = 2 > 1; without it, 0 + 1 - 0 = 1.
    assertThat(r).isInstanceOfSatisfying(ScheduleResult.Unschedulable.class, u -> {
      assertThat(u.nominatedNode()).contains("g1");
      assertThat(u.victims()).containsExactly("default/old-web");
    });
  }
}
