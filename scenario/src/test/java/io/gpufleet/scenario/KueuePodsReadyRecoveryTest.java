package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * waitForPodsReady's recovery timeout in the simulator: a running gang's Workload is PodsReady
 * (Started, "All pods reached readiness and the workload is running"); when a node goes and its pod's
 * replacement cannot be placed, PodsReady turns False, WaitForRecovery ("At least one pod has failed,
 * waiting for recovery", {@code jobframework/reconciler.go} generatePodsReadyCondition), and
 * {@code recoveryTimeout} after that transition the Workload is evicted as on the first timeout
 * ({@code workload_controller.go} admittedNotReadyWorkload, cause WaitForRecovery).
 */
class KueuePodsReadyRecoveryTest {

  static final String SCENARIO = """
      apiVersion: gpufleet.io/v1alpha1
      kind: Scenario
      metadata: {name: kueue-recovery}
      spec:
        cluster:
        - apiVersion: v1
          kind: Node
          metadata: {name: node-1}
          status:
            allocatable: {cpu: "4", memory: 16Gi, pods: "110"}
        - apiVersion: v1
          kind: Node
          metadata: {name: node-2}
          status:
            allocatable: {cpu: "4", memory: 16Gi, pods: "110"}
        - apiVersion: config.kueue.x-k8s.io/v1beta2
          kind: Configuration
          waitForPodsReady: {timeout: 5m, recoveryTimeout: 3m}
        - {apiVersion: kueue.x-k8s.io/v1beta2, kind: ResourceFlavor, metadata: {name: default}}
        - apiVersion: kueue.x-k8s.io/v1beta2
          kind: ClusterQueue
          metadata: {name: cq}
          spec:
            namespaceSelector: {}
            resourceGroups: [{coveredResources: [cpu], flavors: [{name: default, resources: [{name: cpu, nominalQuota: 8}]}]}]
        - {apiVersion: kueue.x-k8s.io/v1beta2, kind: LocalQueue, metadata: {namespace: default, name: q},
           spec: {clusterQueue: cq}}
        steps:
        - title: a two-pod gang runs, one pod a node
          actions:
          - apply:
            - apiVersion: batch/v1
              kind: Job
              metadata:
                name: gang
                labels: {kueue.x-k8s.io/queue-name: q}
              spec:
                parallelism: 2
                completions: 2
                template:
                  metadata: {annotations: {gpufleet.io/run-for: 2h}}
                  spec:
                    restartPolicy: Never
                    containers: [{name: c, image: busybox, resources: {requests: {cpu: "4"}}}]
          - wait: 10m
        - title: a node goes and the replacement pod has nowhere to run
          actions:
          - delete: {kind: Node, name: node-2}
          - wait: 10m
      """;

  static SimulationResult result;

  @BeforeAll
  static void run() {
    result = Simulation.run(ScenarioReader.read("s.yaml", SCENARIO, ScenarioSources.directory(Path.of(".")))
        .scenario());
  }

  static List<RunRecord.Entry> kueue(String reason) {
    return KueueTwoTeamsExampleTest.kueue(result, "default/gang", reason);
  }

  @Test
  void aReadyGangThatLosesAPodIsEvictedRecoveryTimeoutAfterItsPodsReadyTurnedFalse() {
    RunRecord.Entry started = kueue("Started").getFirst();
    assertThat(started.message()).isEqualTo("Started: All pods reached readiness and the workload is running");
    assertThat(started.time()).isBefore(kueue("Admitted").getFirst().time().plus(Duration.ofMinutes(5)));
    RunRecord.Entry recovering = kueue("WaitForRecovery").getFirst();
    assertThat(recovering.message()).isEqualTo("WaitForRecovery: At least one pod has failed, waiting for recovery");
    Instant nodeGone = result.record().of(RunRecord.Kind.SCENARIO).stream()
        .filter(e -> e.subject().contains("node-2")).findFirst().orElseThrow().time();
    assertThat(recovering.time()).isAfterOrEqualTo(nodeGone);
    RunRecord.Entry evicted = kueue("EvictedDueToPodsReadyTimeout").getFirst();
    assertThat(evicted.message()).isEqualTo("EvictedDueToPodsReadyTimeout: Exceeded the PodsReady timeout default/gang");
    assertThat(evicted.time()).isEqualTo(recovering.time().plus(Duration.ofMinutes(3)));
  }
}
