package io.gpufleet.manifest.kueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.queue.admission.Decision;
import io.gpufleet.queue.api.FairSharingConfig;
import io.gpufleet.queue.api.KueueState;
import io.gpufleet.queue.admission.Scheduler;
import io.gpufleet.queue.api.ClusterQueue;
import io.gpufleet.queue.api.QueueingStrategy;
import io.gpufleet.queue.api.Workload;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class KueueManifestsTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  /** Kueue's "single ClusterQueue" setup (site/static/examples/admin/single-clusterqueue-setup.yaml) with GPUs and a Job. */
  static final String SETUP = """
      apiVersion: kueue.x-k8s.io/v1beta2
      kind: ResourceFlavor
      metadata:
        name: p5
      spec:
        nodeLabels:
          node.kubernetes.io/instance-type: p5.48xlarge
        nodeTaints:
        - key: nvidia.com/gpu
          value: "true"
          effect: NoSchedule
        tolerations:
        - key: nvidia.com/gpu
          operator: Exists
          effect: NoSchedule
      ---
      apiVersion: kueue.x-k8s.io/v1beta2
      kind: ClusterQueue
      metadata:
        name: training
      spec:
        cohortName: gpus
        namespaceSelector: {}
        queueingStrategy: StrictFIFO
        resourceGroups:
        - coveredResources: ["cpu", "nvidia.com/gpu"]
          flavors:
          - name: p5
            resources:
            - name: cpu
              nominalQuota: 192
            - name: nvidia.com/gpu
              nominalQuota: 8
              borrowingLimit: 8
      ---
      apiVersion: kueue.x-k8s.io/v1beta1
      kind: ClusterQueue
      metadata:
        name: inference
      spec:
        cohort: gpus
        namespaceSelector: {}
        resourceGroups:
        - coveredResources: ["cpu", "nvidia.com/gpu"]
          flavors:
          - name: p5
            resources:
            - name: cpu
              nominalQuota: 192
            - name: nvidia.com/gpu
              nominalQuota: 8
              lendingLimit: 4
      ---
      apiVersion: kueue.x-k8s.io/v1beta2
      kind: LocalQueue
      metadata:
        namespace: team-a
        name: user-queue
      spec:
        clusterQueue: training
      ---
      apiVersion: batch/v1
      kind: Job
      metadata:
        namespace: team-a
        name: train
        labels:
          kueue.x-k8s.io/queue-name: user-queue
      spec:
        parallelism: 3
        completions: 3
        suspend: true
        template:
          spec:
            restartPolicy: Never
            containers:
            - name: t
              image: trainer
              resources:
                requests:
                  cpu: "4"
                  nvidia.com/gpu: "4"
                limits:
                  nvidia.com/gpu: "4"
      """;

  @Test
  void readsKueuesObjectsAndAJobAsAWorkload() {
    Diagnostics d = new Diagnostics();
    KueueState m = KueueManifests.read("setup.yaml", SETUP, d, T0);
    d.throwIfErrors();
    assertThat(m.flavors()).singleElement().satisfies(f -> {
      assertThat(f.nodeLabels()).isEqualTo(Labels.of("node.kubernetes.io/instance-type", "p5.48xlarge"));
      assertThat(f.nodeTaints()).singleElement().satisfies(t -> assertThat(t.effect()).isEqualTo(TaintEffect.NO_SCHEDULE));
      assertThat(f.tolerations()).hasSize(1);
    });
    ClusterQueue training = m.clusterQueues().get(0);
    assertThat(training.cohort()).contains("gpus");
    assertThat(training.queueingStrategy()).isEqualTo(QueueingStrategy.STRICT_FIFO);
    assertThat(training.resourceGroups().get(0).flavors().get(0).resources().get(1).borrowingLimit())
        .contains(Quantity.parse("8"));
    ClusterQueue inference = m.clusterQueues().get(1);
    assertThat(inference.cohort()).as("v1beta1's spec.cohort").contains("gpus");
    assertThat(inference.queueingStrategy()).isEqualTo(QueueingStrategy.BEST_EFFORT_FIFO);
    assertThat(m.localQueues()).singleElement().satisfies(q -> assertThat(q.clusterQueue()).isEqualTo("training"));
    Workload wl = m.workloads().get(0);
    assertThat(wl.key()).isEqualTo("team-a/train");
    assertThat(wl.queueName()).isEqualTo("user-queue");
    assertThat(wl.podSets()).singleElement().satisfies(ps -> {
      assertThat(ps.count()).isEqualTo(3);
      assertThat(ps.requests()).isEqualTo(ResourceList.of("cpu", "4", "nvidia.com/gpu", "4"));
    });
    assertThat(wl.creationTime()).isEqualTo(T0);
  }

  @Test
  void theJobIsAdmittedByBorrowingTheInferenceQueuesLendableGpus() {
    Diagnostics d = new Diagnostics();
    KueueState m = KueueManifests.read("setup.yaml", SETUP, d, T0);
    List<Decision> decisions = Scheduler.cycle(m, T0);
    // 12 GPUs: training's 8 plus 4 of the 4 that inference lends (lendingLimit 4), within training's borrowingLimit 8.
    assertThat(decisions).singleElement().isInstanceOfSatisfying(Decision.Admitted.class, a -> {
      assertThat(a.admission().clusterQueue()).isEqualTo("training");
      assertThat(a.borrowing()).isEqualTo(1);
      assertThat(a.conditions().get(0).message()).isEqualTo("Quota reserved in ClusterQueue training");
    });
  }

  @Test
  void withoutCompletionsKueueCountsPodsFromParallelism() {
    Diagnostics d = new Diagnostics();
    KueueState m = KueueManifests.read("job.yaml", SETUP.replace("    completions: 3\n", ""), d, T0);
    assertThat(m.workloads().get(0).podSets().get(0).count()).isEqualTo(3);
    m = KueueManifests.read("job.yaml", SETUP.replace("completions: 3", "completions: 2"), d, T0);
    assertThat(m.workloads().get(0).podSets().get(0).count()).isEqualTo(2);
  }

  @Test
  void badFieldsAreErrorsAtTheirLineAndColumn() {
    String bad = """
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ClusterQueue
        metadata:
          name: q
        spec:
          queueingStrategy: Fifo
          resourceGroups:
          - coveredResources: ["cpu"]
            flavors:
            - name: f
              resources:
              - name: memory
                nominalQuota: 1
                borrowingLimit: 2
                lendingLimit: 3
          cohortNam: x
        """;
    Diagnostics d = new Diagnostics();
    KueueManifests.read("cq.yaml", bad, d, T0);
    assertThat(d.errors().stream().map(ManifestProblem::toString)).containsExactly(
        "cq.yaml:6:21: spec.queueingStrategy: supported values: \"StrictFIFO\", \"BestEffortFIFO\", found \"Fifo\"",
        "cq.yaml:12:15: spec.resourceGroups[0].flavors[0].resources[0].name: must match the name in coveredResources",
        "cq.yaml:14:25: spec.resourceGroups[0].flavors[0].resources[0].borrowingLimit: must be nil when cohort is empty",
        "cq.yaml:15:23: spec.resourceGroups[0].flavors[0].resources[0].lendingLimit: must be nil when cohort is empty",
        "cq.yaml:15:23: spec.resourceGroups[0].flavors[0].resources[0].lendingLimit: must be less than or equal to the "
            + "nominalQuota",
        "cq.yaml:16:3: spec.cohortNam: strict decoding error: unknown field \"spec.cohortNam\"");
  }

  @Test
  void anUnknownVersionAndAnUnmodelledSettingAreSaidByName() {
    String text = """
        apiVersion: kueue.x-k8s.io/v1alpha1
        kind: LocalQueue
        metadata: {name: q, namespace: a}
        spec: {clusterQueue: c}
        ---
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ClusterQueue
        metadata: {name: c}
        spec:
          admissionChecks: [prov]
          preemption:
            withinClusterQueue: LowerPriority
            reclaimWithinCohort: Any
            borrowWithinCohort:
              policy: LowerPriority
              maxPriorityThreshold: 100
        """;
    Diagnostics d = new Diagnostics();
    KueueState m = KueueManifests.read("x.yaml", text, d, T0);
    assertThat(m.localQueues()).isEmpty();
    assertThat(d.errors().stream().map(ManifestProblem::toString)).containsExactly(
        "x.yaml:1:13: apiVersion: expected kueue.x-k8s.io/v1beta1 or kueue.x-k8s.io/v1beta2 for kind LocalQueue, "
            + "found \"kueue.x-k8s.io/v1alpha1\"");
    assertThat(d.warnings().stream().map(ManifestProblem::toString)).anyMatch(w -> w.startsWith("x.yaml:10:")
        && w.contains("spec.admissionChecks is not modelled"));
    assertThat(d.warnings().stream().map(ManifestProblem::toString)).anyMatch(w -> w.startsWith("x.yaml:16:")
        && w.contains("maxPriorityThreshold is not modelled"));
    assertThat(m.clusterQueues().get(0).preemption().withinClusterQueue())
        .isEqualTo(io.gpufleet.queue.api.PreemptionPolicy.Policy.LOWER_PRIORITY);
    assertThat(m.clusterQueues().get(0).namespaceSelector()).as("absent: a nothing selector").isEqualTo(Optional.empty());
  }

  @Test
  void kueuesConfigurationTurnsFairSharingOnAndWeightsAreRead() {
    String text = """
        apiVersion: config.kueue.x-k8s.io/v1beta1
        kind: Configuration
        waitForPodsReady: {enable: true}
        fairSharing:
          enable: true
          preemptionStrategies: [LessThanOrEqualToFinalShare, LessThanInitialShare]
        ---
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: Cohort
        metadata: {name: org}
        spec:
          fairSharing: {weight: "0"}
        ---
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ClusterQueue
        metadata: {name: team-a}
        spec:
          cohortName: org
          fairSharing: {weight: 2500m}
        """;
    Diagnostics d = new Diagnostics();
    KueueState m = KueueManifests.read("fs.yaml", text, d, T0);
    assertThat(d.errors()).isEmpty();
    assertThat(m.configuration().fairSharing()).contains(new FairSharingConfig(List.of(
        FairSharingConfig.PreemptionStrategy.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE,
        FairSharingConfig.PreemptionStrategy.LESS_THAN_INITIAL_SHARE)));
    assertThat(m.clusterQueues().get(0).fairSharing().weightValue()).isEqualTo(2.5);
    assertThat(m.cohorts().get(0).fairSharing().weightValue()).isEqualTo(0.0);
    // Both settings are acted on: neither is warned about.
    assertThat(d.warnings()).isEmpty();
    assertThat(m.configuration().waitForPodsReady()).isPresent();
  }

  @Test
  void withoutEnableOrWithoutAConfigurationFairSharingIsOff() {
    Diagnostics d = new Diagnostics();
    assertThat(KueueManifests.read("a.yaml", SETUP, d, T0).configuration().fairSharing()).isEmpty();
    KueueState off = KueueManifests.read("b.yaml", """
        apiVersion: config.kueue.x-k8s.io/v1beta1
        kind: Configuration
        fairSharing: {preemptionStrategies: [LessThanInitialShare]}
        """, d, T0);
    assertThat(off.configuration().fairSharing()).as("v1beta1 enable defaults to false").isEmpty();
    KueueState on = KueueManifests.read("c.yaml", """
        apiVersion: config.kueue.x-k8s.io/v1beta2
        kind: Configuration
        fairSharing: {preemptionStrategies: [LessThanInitialShare]}
        """, d, T0);
    assertThat(on.configuration().fairSharing()).contains(new FairSharingConfig(List.of(
        FairSharingConfig.PreemptionStrategy.LESS_THAN_INITIAL_SHARE)));
    assertThat(d.errors()).isEmpty();
  }

  @Test
  void badWeightsAndStrategiesAreErrorsAtTheirLineInKueuesWords() {
    String text = """
        apiVersion: config.kueue.x-k8s.io/v1beta2
        kind: Configuration
        fairSharing:
          preemptionStrategies: [LessThanInitialShare, LessThanOrEqualToFinalShare]
        manageJobsWithoutQueueNames: true
        ---
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ClusterQueue
        metadata: {name: a}
        spec:
          fairSharing: {weight: heavy}
        ---
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ClusterQueue
        metadata: {name: b}
        spec:
          fairSharing: {weight: "-1"}
        ---
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: Cohort
        metadata: {name: c}
        spec:
          fairSharing: {weight: 1n, share: 2}
        """;
    Diagnostics d = new Diagnostics();
    KueueState m = KueueManifests.read("bad.yaml", text, d, T0);
    assertThat(d.errors().stream().map(ManifestProblem::toString)).containsExactly(
        "bad.yaml:4:25: fairSharing.preemptionStrategies: supported values: \"LessThanOrEqualToFinalShare\", "
            + "\"LessThanInitialShare\", \"LessThanOrEqualToFinalShare,LessThanInitialShare\", found "
            + "\"LessThanInitialShare,LessThanOrEqualToFinalShare\"",
        "bad.yaml:5:1: manageJobsWithoutQueueNames: strict decoding error: unknown field \"manageJobsWithoutQueueNames\"",
        "bad.yaml:11:25: spec.fairSharing.weight: expected a quantity such as 500m, 2, 1.5, 16Gi or 1e3, found "
            + "\"heavy\": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
        "bad.yaml:17:25: spec.fairSharing.weight: must be greater than or equal to 0",
        "bad.yaml:23:25: spec.fairSharing.weight: When not 0, weight must be > 10e-9",
        "bad.yaml:23:29: spec.fairSharing.share: strict decoding error: unknown field \"spec.fairSharing.share\"");
    assertThat(m.configuration().fairSharing()).isEmpty();
  }
}
