package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Kueue's preemption within a ClusterQueue played in the simulator ({@code withinClusterQueue:
 * LowerPriority}, as {@code pkg/scheduler/preemption/preemption_test.go} "preempt lowest priority"
 * decides it; the decision itself is checked by the queue module's conformance suite). Here the
 * wiring: the victim's pods are deleted and its Job suspended; the preemptor waits, Pending, until
 * they are gone, then is admitted; the victim is requeued and admitted again once the preemptor's
 * Job finishes. A preempted Workload is requeued without a backoff, as Kueue requeues it (the backoff
 * follows a PodsReady timeout, {@link KueueGangExampleTest}).
 */
class KueuePreemptionSimulationTest {

  static final String SCENARIO = """
      apiVersion: gpufleet.io/v1alpha1
      kind: Scenario
      metadata: {name: kueue-preemption}
      spec:
        cluster:
        - apiVersion: scheduling.k8s.io/v1
          kind: PriorityClass
          metadata: {name: low}
          value: 10
        - apiVersion: scheduling.k8s.io/v1
          kind: PriorityClass
          metadata: {name: high}
          value: 1000
        - apiVersion: v1
          kind: Node
          metadata: {name: node-1}
          status:
            allocatable: {cpu: "8", memory: 32Gi, pods: "110"}
        - apiVersion: kueue.x-k8s.io/v1beta2
          kind: ResourceFlavor
          metadata: {name: default}
        - apiVersion: kueue.x-k8s.io/v1beta2
          kind: ClusterQueue
          metadata: {name: cq}
          spec:
            namespaceSelector: {}
            preemption: {withinClusterQueue: LowerPriority}
            resourceGroups:
            - coveredResources: ["cpu"]
              flavors:
              - name: default
                resources:
                - {name: cpu, nominalQuota: 4}
        - apiVersion: kueue.x-k8s.io/v1beta2
          kind: LocalQueue
          metadata: {namespace: default, name: q}
          spec: {clusterQueue: cq}
        steps:
        - title: a low-priority Job holds the whole quota
          actions:
          - apply:
            - apiVersion: batch/v1
              kind: Job
              metadata:
                name: low
                labels: {kueue.x-k8s.io/queue-name: q}
              spec:
                template:
                  metadata: {annotations: {gpufleet.io/run-for: 2h}}
                  spec:
                    priorityClassName: low
                    terminationGracePeriodSeconds: 20
                    restartPolicy: Never
                    containers: [{name: c, image: busybox, resources: {requests: {cpu: "4"}}}]
          - wait: 5m
        - title: a high-priority Job preempts it
          actions:
          - apply:
            - apiVersion: batch/v1
              kind: Job
              metadata:
                name: high
                labels: {kueue.x-k8s.io/queue-name: q}
              spec:
                template:
                  metadata: {annotations: {gpufleet.io/run-for: 30m}}
                  spec:
                    priorityClassName: high
                    restartPolicy: Never
                    containers: [{name: c, image: busybox, resources: {requests: {cpu: "4"}}}]
          - waitUntil: {condition: {events: {type: KueueEvent, reason: Admitted, object: default/low, atLeast: 2}},
              timeout: 2h}
      """;

  static SimulationResult result;

  @BeforeAll
  static void run() {
    ScenarioFile f = ScenarioReader.read("s.yaml", SCENARIO, ScenarioSources.directory(Path.of(".")));
    result = Simulation.run(f.scenario());
  }

  static List<RunRecord.Entry> kueue(String workload, String reason) {
    return KueueTwoTeamsExampleTest.kueue(result, workload, reason);
  }

  @Test
  void theVictimsPodsGoThenThePreemptorIsAdmittedThenTheVictimAgainWhenThePreemptorFinishes() {
    assertThat(result.expectations()).allSatisfy(e -> assertThat(e.passed()).as(e.detail()).isTrue());
    Instant submitted = kueue("default/high", "CreatedWorkload").getFirst().time();
    RunRecord.Entry preempted = kueue("default/low", "Preempted").getFirst();
    assertThat(preempted.time()).isEqualTo(submitted);
    assertThat(preempted.message()).startsWith("Preempted: Preempted to accommodate a workload");
    assertThat(kueue("default/high", "Pending").getFirst().message()).contains("Pending the preemption of 1 workload");
    // The victim's pod is deleted at once and gets its 20 s grace period; only then is its quota released.
    Instant highAdmitted = kueue("default/high", "Admitted").getFirst().time();
    assertThat(highAdmitted).isAfter(submitted).isBeforeOrEqualTo(submitted.plusSeconds(21));
    assertThat(result.record().of(RunRecord.Kind.POD_DELETED).stream()
        .filter(e -> e.subject().startsWith("default/low-")).map(RunRecord.Entry::time)).containsExactly(submitted);
    // Requeued, the victim waits for quota and is admitted again when the preemptor's Job completes.
    assertThat(kueue("default/low", "Pending")).isNotEmpty();
    RunRecord.Entry highDone = result.record().about("Job/default/high").stream()
        .filter(e -> e.message().startsWith("Job complete")).findFirst().orElseThrow();
    assertThat(kueue("default/low", "Admitted")).hasSize(2).last().extracting(RunRecord.Entry::time)
        .isEqualTo(highDone.time());
    // Its wait counts from its eviction, as QueuedWaitTime takes the Evicted condition's time.
    assertThat(kueue("default/low", "QuotaReserved").getLast().message()).endsWith("wait time since queued was "
        + java.time.Duration.between(submitted, highDone.time()).toSeconds() + "s");
  }
}
