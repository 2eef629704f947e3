package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Kueue's fair sharing played in the simulator, on {@code pkg/scheduler/preemption/preemption_fair_test.go}
 * "reclaim borrowable quota from user using the most": three ClusterQueues of 3 cpu in one cohort,
 * team-a at its nominal quota, team-b borrowing 2, team-c using 1; one more cpu for team-a. With
 * Kueue's Configuration {@code fairSharing} on, a team-b Job is preempted for Fair Sharing within the
 * cohort and team-a's Job is admitted once its pod is gone; without it (classical preemption,
 * borrowWithinCohort Never) team-a's Job waits. The decision itself is checked by the queue module's
 * conformance suite; here the wiring from the scenario file to the run.
 */
class KueueFairSharingSimulationTest {

  /** Kueue's manager Configuration, as a scenario object: fair sharing on. */
  static final String CONFIGURATION = """
      - apiVersion: config.kueue.x-k8s.io/v1beta1
        kind: Configuration
        fairSharing:
          enable: true
          preemptionStrategies: [LessThanOrEqualToFinalShare, LessThanInitialShare]
      """;

  static String queue(String team) {
    return """
        - apiVersion: kueue.x-k8s.io/v1beta2
          kind: ClusterQueue
          metadata: {name: TEAM}
          spec:
            cohortName: org
            namespaceSelector: {}
            preemption: {reclaimWithinCohort: Any, withinClusterQueue: LowerPriority}
            resourceGroups:
            - coveredResources: ["cpu"]
              flavors:
              - name: default
                resources:
                - {name: cpu, nominalQuota: 3}
        - apiVersion: kueue.x-k8s.io/v1beta2
          kind: LocalQueue
          metadata: {namespace: TEAM, name: q}
          spec: {clusterQueue: TEAM}
        """.replace("TEAM", team);
  }

  static String job(String team, String name) {
    return """
        - apiVersion: batch/v1
          kind: Job
          metadata:
            name: NAME
            namespace: TEAM
            labels: {kueue.x-k8s.io/queue-name: q}
          spec:
            template:
              metadata: {annotations: {gpufleet.io/run-for: 2h}}
              spec:
                terminationGracePeriodSeconds: 10
                restartPolicy: Never
                containers: [{name: c, image: busybox, resources: {requests: {cpu: "1"}}}]
        """.replace("TEAM", team).replace("NAME", name);
  }

  static String scenario(boolean fairSharing) {
    StringBuilder first = new StringBuilder();
    for (String a : List.of("a1", "a2", "a3")) {
      first.append(job("team-a", a));
    }
    for (String b : List.of("b1", "b2", "b3", "b4", "b5")) {
      first.append(job("team-b", b));
    }
    first.append(job("team-c", "c1"));
    String cluster = """
        - apiVersion: v1
          kind: Node
          metadata: {name: node-1}
          status:
            allocatable: {cpu: "16", memory: 64Gi, pods: "110"}
        - apiVersion: kueue.x-k8s.io/v1beta2
          kind: ResourceFlavor
          metadata: {name: default}
        """ + (fairSharing ? CONFIGURATION : "") + queue("team-a") + queue("team-b") + queue("team-c");
    return """
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: kueue-fair-sharing}
        spec:
          cluster:
        """ + cluster.indent(2) + """
          steps:
          - title: team-a at its quota, team-b borrowing two cpus, team-c using one
            actions:
            - apply:
        """ + first.toString().indent(6) + """
            - wait: 5m
          - title: one more cpu for team-a
            actions:
            - apply:
        """ + job("team-a", "a-incoming").indent(6) + """
            - wait: 5m
        """;
  }

  static SimulationResult run(boolean fairSharing) {
    ScenarioFile f = ScenarioReader.read("s.yaml", scenario(fairSharing), ScenarioSources.directory(Path.of(".")));
    return Simulation.run(f.scenario());
  }

  static List<RunRecord.Entry> events(SimulationResult r, String reason) {
    return r.record().of(RunRecord.Kind.KUEUE_EVENT).stream().filter(e -> e.message().startsWith(reason + ": "))
        .toList();
  }

  @Test
  void withFairSharingTeamBsBorrowedCpuIsReclaimedForTeamA() {
    SimulationResult r = run(true);
    List<RunRecord.Entry> preempted = events(r, "Preempted");
    assertThat(preempted).singleElement().satisfies(e -> {
      assertThat(e.subject()).startsWith("team-b/");
      assertThat(e.message()).endsWith("due to Fair Sharing within the cohort; preemptor path: /org/team-a; "
          + "preemptee path: /org/team-b");
    });
    assertThat(KueueTwoTeamsExampleTest.kueue(r, "team-a/a-incoming", "Admitted")).hasSize(1);
  }

  @Test
  void withoutItTeamAWaits() {
    SimulationResult r = run(false);
    assertThat(events(r, "Preempted")).isEmpty();
    assertThat(KueueTwoTeamsExampleTest.kueue(r, "team-a/a-incoming", "Admitted")).isEmpty();
    assertThat(KueueTwoTeamsExampleTest.kueue(r, "team-a/a-incoming", "Pending")).isNotEmpty();
  }
}
