package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Kueue's JobSet integration played in the simulator ({@code pkg/controller/jobs/jobset/jobset_controller.go}):
 * with {@code jobset.x-k8s.io/jobset} in the Configuration's {@code integrations.frameworks}, a JobSet
 * labelled with a queue is one Workload whose pod sets are its replicated jobs ({@code PodSets}); its Jobs
 * stay suspended until it is admitted, all together; evicted, its Jobs are suspended and their pods
 * deleted, and they run again once it is readmitted.
 */
class KueueJobSetSimulationTest {

  /**
   * {@link JobSetSimulationTest}'s JobSet, labelled with queue q: a driver (one pod of {@code driverCpu}
   * for 10 minutes) and two workers' Jobs, here of one 1-CPU pod each, their pods of {@code priorityClass}.
   */
  static String jobSet(String priorityClass, String driverCpu) {
    String scenario = JobSetSimulationTest.SCENARIO;
    String js = scenario.substring(scenario.lastIndexOf('\n', scenario.indexOf("- apiVersion: jobset")) + 1,
        scenario.lastIndexOf('\n', scenario.indexOf("- wait: 1h")) + 1);
    js = js.replace("metadata: {name: train}", "metadata: {name: train, labels: {kueue.x-k8s.io/queue-name: q}}")
        .replaceAll(" *EXTRA\n", "").replace("parallelism: 2", "parallelism: 1").replace("completions: 2", "completions: 1")
        .replaceFirst("cpu: \"1\"", "cpu: \"" + driverCpu + "\"");
    if (!priorityClass.isEmpty()) {
      js = js.replaceAll("( *)restartPolicy: Never", "$1priorityClassName: " + priorityClass + "\n$1restartPolicy: Never");
    }
    return js.stripIndent().indent(6);
  }

  /** A Job of the queue: 4 CPUs (the ClusterQueue's whole quota) for {@code runFor}. */
  static String job(String name, String priorityClass, String runFor) {
    return """
        - apiVersion: batch/v1
          kind: Job
          metadata:
            name: NAME
            labels: {kueue.x-k8s.io/queue-name: q}
          spec:
            template:
              metadata: {annotations: {gpufleet.io/run-for: RUN}}
              spec:
                priorityClassName: PC
                restartPolicy: Never
                containers: [{name: c, image: busybox, resources: {requests: {cpu: "4"}}}]
        """.replace("NAME", name).replace("PC", priorityClass).replace("RUN", runFor).indent(6);
  }

  /** {@link KueuePreemptionSimulationTest}'s cluster (node-1 of 8 CPUs, ClusterQueue cq of 4 CPUs, LocalQueue q). */
  static String scenario(String frameworks, String first, String second) {
    return KueuePreemptionSimulationTest.SCENARIO.substring(0,
        KueuePreemptionSimulationTest.SCENARIO.indexOf("  steps:\n")) + """
          - apiVersion: config.kueue.x-k8s.io/v1beta2
            kind: Configuration
            integrations: {frameworks: [FRAMEWORKS]}
          steps:
          - title: first
            actions:
            - apply:
        FIRST
            - wait: 1m
          - title: second
            actions:
            - apply:
        SECOND
            - wait: 2h
        """.replace("FRAMEWORKS", frameworks).replace("FIRST\n", first).replace("SECOND\n", second);
  }

  static List<RunRecord.Entry> kueue(SimulationResult r, String subject, String reason) {
    return KueueTwoTeamsExampleTest.kueue(r, subject, reason);
  }

  static List<Instant> scheduled(SimulationResult r, String prefix) {
    return r.record().of(RunRecord.Kind.POD_SCHEDULED).stream().filter(e -> e.subject().startsWith(prefix))
        .map(RunRecord.Entry::time).toList();
  }

  static Instant completed(SimulationResult r, String job) {
    return r.record().about("Job/default/" + job).stream().filter(e -> e.message().startsWith("Job complete"))
        .map(RunRecord.Entry::time).findFirst().orElseThrow();
  }

  @Test
  void aJobSetWaitsForQuotaAsOneWorkloadThenAllItsPodsRun() {
    SimulationResult r = KueueWorkloadPriorityClassSimulationTest.run(scenario("\"batch/job\", \"jobset.x-k8s.io/jobset\"",
        job("first", "low", "20m"), jobSet("", "1")));
    // One Workload for the JobSet, none for its Jobs.
    assertThat(kueue(r, "default/train", "CreatedWorkload")).hasSize(1);
    assertThat(r.record().of(RunRecord.Kind.KUEUE_EVENT)).noneMatch(e -> e.subject().startsWith("default/train-"));
    assertThat(kueue(r, "default/train", "Pending")).isNotEmpty();
    Instant admitted = kueue(r, "default/train", "Admitted").getFirst().time();
    // It needs 3 CPUs of the 4 that "first" holds: admitted when that Job completes, all of its pods then.
    assertThat(admitted).isEqualTo(completed(r, "first"));
    assertThat(scheduled(r, "default/train-")).hasSize(3).allSatisfy(t -> assertThat(t).isAfterOrEqualTo(admitted));
    assertThat(r.record().about("JobSet/default/train")).extracting(RunRecord.Entry::message)
        .containsExactly("JobSet Completed: AllJobsCompleted: jobset completed successfully");
  }

  @Test
  void aPreemptedJobSetsPodsGoAndComeBackOnReadmission() {
    SimulationResult r = KueueWorkloadPriorityClassSimulationTest.run(scenario("\"batch/job\", \"jobset.x-k8s.io/jobset\"",
        jobSet("low", "2"), job("high", "high", "30m")));
    Instant first = kueue(r, "default/train", "Admitted").getFirst().time();
    assertThat(kueue(r, "default/train", "Preempted")).hasSize(1);
    Instant preempted = kueue(r, "default/train", "Preempted").getFirst().time();
    List<RunRecord.Entry> deleted = r.record().of(RunRecord.Kind.POD_DELETED).stream()
        .filter(e -> e.subject().startsWith("default/train-")).toList();
    assertThat(deleted).hasSize(3).allSatisfy(e -> {
      assertThat(e.time()).isEqualTo(preempted);
      assertThat(e.message()).startsWith("its Job was suspended: Kueue preempted its Workload");
    });
    List<RunRecord.Entry> admitted = kueue(r, "default/train", "Admitted");
    assertThat(admitted).hasSize(2);
    Instant again = admitted.get(1).time();
    assertThat(again).isEqualTo(completed(r, "high"));
    List<Instant> scheduled = scheduled(r, "default/train-");
    assertThat(scheduled).hasSize(6);
    assertThat(scheduled.subList(0, 3)).allSatisfy(t -> assertThat(t).isAfterOrEqualTo(first).isBefore(preempted));
    assertThat(scheduled.subList(3, 6)).allSatisfy(t -> assertThat(t).isAfterOrEqualTo(again));
    assertThat(r.record().about("JobSet/default/train")).extracting(RunRecord.Entry::message)
        .containsExactly("JobSet Completed: AllJobsCompleted: jobset completed successfully");
  }

  /**
   * waitForPodsReady on a JobSet (jobset_controller.go PodsReady: all its Jobs ready): a node with room
   * for two of its three pods; 5 minutes after admission its Workload is evicted, each of its Jobs
   * suspended and all three pods deleted; requeued, it is admitted again.
   */
  @Test
  void aJobSetNotReadyInTimeIsEvictedAndItsPodsDeleted() {
    String s = scenario("\"batch/job\", \"jobset.x-k8s.io/jobset\"", jobSet("high", "1"), job("later", "low", "1m"))
        .replace("allocatable: {cpu: \"8\"", "allocatable: {cpu: \"2\"")
        .replace("integrations: {frameworks: [", "waitForPodsReady: {timeout: 5m}\n    integrations: {frameworks: [");
    SimulationResult r = KueueWorkloadPriorityClassSimulationTest.run(s);
    Instant admitted = kueue(r, "default/train", "Admitted").getFirst().time();
    assertThat(scheduled(r, "default/train-").stream().filter(t -> t.isBefore(admitted.plusSeconds(300)))).hasSize(2);
    assertThat(r.record().of(RunRecord.Kind.KUEUE_EVENT).stream().filter(e -> e.subject().equals("default/train"))
        .filter(e -> e.message().contains("Exceeded the PodsReady timeout default/train")).map(RunRecord.Entry::time)
        .findFirst()).contains(admitted.plusSeconds(300));
    assertThat(r.record().of(RunRecord.Kind.POD_DELETED).stream().filter(e -> e.subject().startsWith("default/train-"))
        .filter(e -> e.message().startsWith("its Job was suspended: ")).map(RunRecord.Entry::time)
        .filter(t -> !t.isAfter(admitted.plusSeconds(300))).toList()).hasSize(3).containsOnly(admitted.plusSeconds(300));
    // Requeued after its backoff, it is admitted again and its pods made again.
    assertThat(kueue(r, "default/train", "Admitted")).hasSizeGreaterThan(1);
    assertThat(kueue(r, "default/train", "Preempted")).isEmpty();
  }

  /**
   * Each pod set gets its own flavor's node labels (RunWithPodSetsInfo merges each replicated job's
   * pod set info into its template): flavor a (pool a, 1 CPU of quota) takes the driver, flavor b
   * (pool b, 3 CPUs) the workers, so the driver runs on node-1 (pool a) and the workers on node-2 (pool b).
   */
  @Test
  void eachReplicatedJobGetsItsOwnPodSetsFlavor() {
    String node2 = """
          - apiVersion: v1
            kind: Node
            metadata: {name: node-2, labels: {pool: b}}
            status:
              allocatable: {cpu: "8", memory: 32Gi, pods: "110"}
          - apiVersion: kueue.x-k8s.io/v1beta2
            kind: ResourceFlavor
            metadata: {name: a}
            spec: {nodeLabels: {pool: a}}
          - apiVersion: kueue.x-k8s.io/v1beta2
            kind: ResourceFlavor
            metadata: {name: b}
            spec: {nodeLabels: {pool: b}}
        """;
    String s = scenario("\"batch/job\", \"jobset.x-k8s.io/jobset\"", jobSet("high", "1"), job("later", "low", "1m"))
        .replace("metadata: {name: node-1}", "metadata: {name: node-1, labels: {pool: a}}")
        .replace("  - apiVersion: kueue.x-k8s.io/v1beta2\n    kind: ResourceFlavor\n    metadata: {name: default}\n", node2)
        .replaceAll("( *)- name: default\n( *)resources:\n( *)- \\{name: cpu, nominalQuota: 4}",
            "$1- name: a\n$2resources:\n$3- {name: cpu, nominalQuota: 1}\n$1- name: b\n$2resources:\n"
                + "$3- {name: cpu, nominalQuota: 3}");
    assertThat(s).contains("name: node-2", "nominalQuota: 3").doesNotContain("name: default");
    SimulationResult r = KueueWorkloadPriorityClassSimulationTest.run(s);
    assertThat(kueue(r, "default/train", "Admitted")).hasSize(1);
    List<RunRecord.Entry> bound = r.record().of(RunRecord.Kind.POD_SCHEDULED).stream()
        .filter(e -> e.subject().startsWith("default/train-")).toList();
    assertThat(bound).hasSize(3);
    assertThat(bound).filteredOn(e -> e.subject().startsWith("default/train-driver-"))
        .singleElement().extracting(RunRecord.Entry::message).asString().contains("node-1");
    assertThat(bound).filteredOn(e -> e.subject().startsWith("default/train-workers-"))
        .hasSize(2).allSatisfy(e -> assertThat(e.message()).contains("node-2"));
  }

  @Test
  void withoutTheIntegrationTheJobSetRunsUnmanagedWithAWarningByName() {
    SimulationResult r = KueueWorkloadPriorityClassSimulationTest.run(scenario("\"batch/job\"",
        job("first", "low", "20m"), jobSet("", "1")));
    assertThat(r.record().about("JobSet/default/train")).extracting(RunRecord.Entry::message)
        .anyMatch(m -> m.contains("does not enable the \"jobset.x-k8s.io/jobset\" integration"));
    assertThat(kueue(r, "default/train", "CreatedWorkload")).isEmpty();
    // Not held for quota: its pods run beside "first" at once.
    assertThat(scheduled(r, "default/train-")).hasSize(3).allSatisfy(t -> assertThat(t).isBefore(completed(r, "first")));
  }
}
