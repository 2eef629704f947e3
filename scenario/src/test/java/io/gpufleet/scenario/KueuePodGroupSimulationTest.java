package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Kueue's pod integration played in the simulator ({@code pkg/controller/jobs/pod/}): with "pod" in
 * the Configuration's {@code integrations.frameworks}, plain pods labelled with a queue are created
 * gated ({@code kueue.x-k8s.io/admission}, {@code pod_webhook.go} Default); a group's Workload is
 * made only once all {@code pod-group-total-count} pods exist (until then ErrWorkloadCompose, "group
 * has fewer runnable pods than expected"); admitted, all its pods are ungated together
 * ({@code pod_controller.go} Run) and only then scheduled. A group its ClusterQueue has no room for
 * stays gated.
 */
class KueuePodGroupSimulationTest {

  /** One pod of a group, as an item of an {@code apply} list (indented under it). */
  static String pod(String name, String group, int count) {
    return """
        - apiVersion: v1
          kind: Pod
          metadata:
            name: %s
            labels: {kueue.x-k8s.io/queue-name: q, kueue.x-k8s.io/pod-group-name: %s}
            annotations: {kueue.x-k8s.io/pod-group-total-count: "%d"}
          spec:
            containers: [{name: c, image: busybox, resources: {requests: {cpu: "1"}}}]
        """.formatted(name, group, count).indent(6);
  }

  /**
   * {@link KueuePreemptionSimulationTest}'s cluster (node-1 with 8 CPUs, ClusterQueue cq of 4 CPUs,
   * LocalQueue q; its pods here all have priority 0, so nothing is preempted) with the pod integration on.
   */
  static final String SCENARIO = KueuePreemptionSimulationTest.SCENARIO.substring(0,
      KueuePreemptionSimulationTest.SCENARIO.indexOf("  steps:\n")) + """
        - apiVersion: config.kueue.x-k8s.io/v1beta2
          kind: Configuration
          integrations: {frameworks: ["batch/job", "pod"]}
        steps:
        - title: two of a group of three
          actions:
          - apply:
      FIRST
          - wait: 5m
        - title: the third
          actions:
          - apply:
      THIRD
          - wait: 5m
        - title: a group of two the quota has no room for
          actions:
          - apply:
      MORE
          - wait: 5m
      """.replace("FIRST\n", pod("train-0", "train", 3) + pod("train-1", "train", 3))
      .replace("THIRD\n", pod("train-2", "train", 3))
      .replace("MORE\n", pod("more-0", "more", 2) + pod("more-1", "more", 2));

  static SimulationResult result;

  @BeforeAll
  static void run() {
    result = KueueWorkloadPriorityClassSimulationTest.run(SCENARIO);
  }

  /** Kueue's events of a reason about a Workload or pod. */
  static List<RunRecord.Entry> kueue(String subject, String reason) {
    return KueueTwoTeamsExampleTest.kueue(result, subject, reason);
  }

  static List<Instant> scheduled(String prefix) {
    return result.record().of(RunRecord.Kind.POD_SCHEDULED).stream().filter(e -> e.subject().startsWith(prefix))
        .map(RunRecord.Entry::time).toList();
  }

  @Test
  void theGroupIsAdmittedOnceAllThreePodsExistAndItsPodsScheduledOnlyThen() {
    Instant third = result.record().of(RunRecord.Kind.POD_CREATED).stream()
        .filter(e -> e.subject().equals("default/train-2")).findFirst().orElseThrow().time();
    // Two pods: no Workload, in Kueue's words, and nothing scheduled.
    assertThat(kueue("default/train-0", "ErrWorkloadCompose")).extracting(RunRecord.Entry::message)
        .containsExactly("ErrWorkloadCompose: 'train' group has fewer runnable pods than expected");
    assertThat(kueue("default/train", "CreatedWorkload")).singleElement().extracting(RunRecord.Entry::time)
        .isEqualTo(third);
    Instant admitted = kueue("default/train", "Admitted").getFirst().time();
    assertThat(admitted).isEqualTo(third);
    // All three ungated together ("Started", pod_controller.go Run) and scheduled, none before admission.
    assertThat(result.record().of(RunRecord.Kind.KUEUE_EVENT).stream().filter(e -> e.message().startsWith("Started: "))
        .filter(e -> e.subject().startsWith("default/train-")).map(RunRecord.Entry::subject))
        .containsExactlyInAnyOrder("default/train-0", "default/train-1", "default/train-2");
    assertThat(scheduled("default/train-")).hasSize(3).allSatisfy(t -> assertThat(t).isAfterOrEqualTo(admitted));
  }

  @Test
  void aGroupWithoutQuotaStaysGatedAndUnscheduled() {
    assertThat(kueue("default/more", "CreatedWorkload")).hasSize(1);
    assertThat(kueue("default/more", "Admitted")).isEmpty();
    assertThat(kueue("default/more", "Pending")).isNotEmpty();
    assertThat(scheduled("default/more-")).isEmpty();
  }

  /**
   * waitForPodsReady on a group ({@code pod_controller.go} PodsReady: all total-count pods ready): a
   * node with room for two of three pods; 5 minutes after admission the Workload is evicted and, as
   * Stop does for plain pods, every pod of the group is deleted. Nothing makes plain pods again, so
   * the twin ends the Workload with its pods (upstream keeps it, waiting for replacement pods).
   */
  @Test
  void aGroupNotReadyInTimeIsEvictedAndItsPodsDeleted() {
    String scenario = SCENARIO.replace("allocatable: {cpu: \"8\"", "allocatable: {cpu: \"2\"")
        .replace("integrations: {frameworks: [\"batch/job\", \"pod\"]}",
            "integrations: {frameworks: [\"batch/job\", \"pod\"]}\n    waitForPodsReady: {timeout: 5m}")
        .replace("- wait: 5m", "- wait: 7m");
    SimulationResult r = KueueWorkloadPriorityClassSimulationTest.run(scenario);
    Instant admitted = KueueTwoTeamsExampleTest.kueue(r, "default/train", "Admitted").getFirst().time();
    assertThat(r.record().of(RunRecord.Kind.POD_SCHEDULED).stream().filter(e -> e.subject().startsWith("default/train-")))
        .hasSize(2);
    assertThat(r.record().of(RunRecord.Kind.KUEUE_EVENT).stream().filter(e -> e.subject().equals("default/train"))
        .filter(e -> e.message().contains("Exceeded the PodsReady timeout default/train")).map(RunRecord.Entry::time))
        .containsExactly(admitted.plusSeconds(300));
    assertThat(r.record().of(RunRecord.Kind.POD_DELETED).stream().filter(e -> e.subject().startsWith("default/train-"))
        .filter(e -> e.message().startsWith("Kueue stopped its pod group")).map(RunRecord.Entry::time))
        .hasSize(3).containsOnly(admitted.plusSeconds(300));
  }
}
