package io.gpufleet.engine.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.BatchPlacement.Outcome;
import io.gpufleet.engine.scheduler.plugin.PreFilterPlugin;
import io.gpufleet.model.pod.Pod;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Sealed types that code on the CLI's start path branches on without a pattern switch (each of
 * those makes a class at run time): javac no longer checks those branches, so these tests fail
 * when a permitted record is added, pointing at the code to extend.
 */
class SealedBranchesTest {

  @Test
  void eachOutcomeRecordHasAVariantOfItsOwn() {
    Pod pod = Fixtures.pod("p", "1", "1Gi", 0);
    FitError error = new FitError(0, Map.of(), "");
    List<Outcome> oneOfEach = List.of(new Outcome.Bound(pod, "n1", true, null), new Outcome.Pending(pod, error),
        new Outcome.Preempted(pod, "n1", pod), new Outcome.Orphaned(pod, "n9"),
        new Outcome.Rejected(pod, "n1", "OutOfcpu", "Pod was rejected"), new Outcome.Unclaimed(pod, "other"),
        new Outcome.Gated(pod, "SchedulingGates", "waiting for scheduling gates: [g]"),
        new Outcome.Unprepared(pod, "n1", "Failed to prepare dynamic resources"));
    assertThat(oneOfEach.stream().map(Object::getClass).collect(Collectors.toSet()))
        .as("one sample of every permitted record")
        .isEqualTo(Set.of(Outcome.class.getPermittedSubclasses()));
    assertThat(oneOfEach.stream().map(Outcome::variant).toList())
        .doesNotHaveDuplicates()
        .containsExactlyInAnyOrderElementsOf(EnumSet.allOf(Outcome.Variant.class));
  }

  /** BatchPlacement.place takes whatever is not Scheduled to be Unschedulable. */
  @Test
  void aScheduleResultIsScheduledOrUnschedulable() {
    assertThat(Set.of(ScheduleResult.class.getPermittedSubclasses()))
        .isEqualTo(Set.of(ScheduleResult.Scheduled.class, ScheduleResult.Unschedulable.class));
  }

  /** Scheduler.schedule acts on Rejected and NodeNames and passes over anything else as AllNodes. */
  @Test
  void aPreFilterResultIsAllNodesNodeNamesOrRejected() {
    assertThat(Set.of(PreFilterPlugin.Result.class.getPermittedSubclasses())).isEqualTo(Set.of(
        PreFilterPlugin.Result.AllNodes.class, PreFilterPlugin.Result.NodeNames.class,
        PreFilterPlugin.Result.Rejected.class));
  }
}
