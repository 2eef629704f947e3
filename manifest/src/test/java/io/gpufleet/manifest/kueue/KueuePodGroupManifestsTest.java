package io.gpufleet.manifest.kueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.queue.api.KueueState;
import io.gpufleet.queue.api.PodSet;
import io.gpufleet.queue.api.Workload;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Kueue's pod integration read from manifests ({@code pkg/controller/jobs/pod/}): enabled only by
 * "pod" in the Configuration's {@code integrations.frameworks} ({@code defaults.go}: batch/job alone
 * when empty); a group's pods make one Workload once all {@code pod-group-total-count} exist
 * (ConstructComposableWorkload), a single pod one of its own; the webhook's refusals
 * (validatePodGroupMetadata) are errors at the pod's line.
 */
class KueuePodGroupManifestsTest {

  private static final String CONFIG_WITH_PODS = """
      apiVersion: config.kueue.x-k8s.io/v1beta2
      kind: Configuration
      integrations:
        frameworks: ["batch/job", "pod"]
      ---
      """;

  private static String pod(String name, String group, String count) {
    return """
        apiVersion: v1
        kind: Pod
        metadata:
          name: %s
          namespace: team
          labels: {kueue.x-k8s.io/queue-name: lq%s}
        %s
        spec:
          containers: [{name: c, image: i, resources: {requests: {nvidia.com/gpu: "1"}, limits: {nvidia.com/gpu: "1"}}}]
        ---
        """.formatted(name, group == null ? "" : ", kueue.x-k8s.io/pod-group-name: " + group,
        count == null ? "" : "  annotations: {kueue.x-k8s.io/pod-group-total-count: \"" + count + "\"}");
  }

  private static KueueState read(String text, Diagnostics d) {
    return KueueManifests.read("pods.yaml", text, d, Instant.EPOCH);
  }

  @Test
  void aCompleteGroupIsOneWorkloadAndASinglePodItsOwn() {
    Diagnostics d = new Diagnostics();
    KueueState s = read(CONFIG_WITH_PODS + pod("a-0", "train", "3") + pod("a-1", "train", "3") + pod("a-2", "train", "3")
        + pod("solo", null, null), d);
    assertThat(d.errors()).isEmpty();
    assertThat(s.workloads()).extracting(Workload::key).containsExactly("team/train", "team/solo");
    Workload group = s.workloads().getFirst();
    assertThat(group.queueName()).isEqualTo("lq");
    assertThat(group.podSets()).extracting(PodSet::name, PodSet::count).containsExactly(
        org.assertj.core.groups.Tuple.tuple("role-0", 3));
    assertThat(s.workloads().get(1).podSets()).extracting(PodSet::name, PodSet::count).containsExactly(
        org.assertj.core.groups.Tuple.tuple(PodSet.MAIN, 1));
  }

  @Test
  void anIncompleteGroupHasNoWorkloadYetInKueuesWords() {
    Diagnostics d = new Diagnostics();
    KueueState s = read(CONFIG_WITH_PODS + pod("a-0", "train", "3") + pod("a-1", "train", "3"), d);
    assertThat(s.workloads()).isEmpty();
    assertThat(d.warnings()).extracting(ManifestProblem::message).anySatisfy(m -> assertThat(m)
        .contains("'train' group has fewer runnable pods than expected"));
  }

  @Test
  void badGroupMetadataIsTheWebhooksErrorAtThePodsLine() {
    Diagnostics d = new Diagnostics();
    read(CONFIG_WITH_PODS + pod("a-0", "train", "0") + pod("b-0", "train", null), d);
    assertThat(d.errors()).extracting(ManifestProblem::path, ManifestProblem::message).containsExactly(
        org.assertj.core.groups.Tuple.tuple("metadata.annotations[kueue.x-k8s.io/pod-group-total-count]",
            "Kueue's pod webhook (vpod.kb.io) denies the pod: Invalid value: \"0\": incorrect annotation value "
                + "'kueue.x-k8s.io/pod-group-total-count=0': group total count should be greater than zero"),
        org.assertj.core.groups.Tuple.tuple("metadata.annotations[kueue.x-k8s.io/pod-group-total-count]",
            "Kueue's pod webhook (vpod.kb.io) denies the pod: Required value: both the "
                + "'kueue.x-k8s.io/pod-group-total-count' annotation and the 'kueue.x-k8s.io/pod-group-name' label "
                + "should be set"));
    assertThat(d.errors().get(0).location().line()).isEqualTo(6);
  }

  @Test
  void withoutThePodIntegrationThePodsAreNotManagedAndSaySo() {
    Diagnostics d = new Diagnostics();
    KueueState s = read(CONFIG_WITH_PODS.replace(", \"pod\"", "") + pod("a-0", "train", "1"), d);
    assertThat(s.workloads()).isEmpty();
    assertThat(d.warnings()).extracting(ManifestProblem::message).containsExactly("names a LocalQueue, but Kueue's "
        + "Configuration does not enable the \"pod\" integration (integrations.frameworks): Kueue does not manage this Pod");
    // No Configuration among the objects: Kueue's defaults (batch/job alone), no Workload and nothing to warn about.
    Diagnostics none = new Diagnostics();
    assertThat(read(pod("a-0", "train", "1"), none).workloads()).isEmpty();
    assertThat(none.warnings()).isEmpty();
  }

  @Test
  void aConfigurationWithoutBatchJobLeavesJobsUnmanaged() {
    Diagnostics d = new Diagnostics();
    KueueState s = read("""
        apiVersion: config.kueue.x-k8s.io/v1beta2
        kind: Configuration
        integrations: {frameworks: [pod, ray.io/rayjob]}
        ---
        apiVersion: batch/v1
        kind: Job
        metadata: {name: j, labels: {kueue.x-k8s.io/queue-name: lq}}
        spec:
          template:
            spec:
              restartPolicy: Never
              containers: [{name: c, image: i}]
        """, d);
    assertThat(s.workloads()).isEmpty();
    assertThat(d.warnings()).extracting(ManifestProblem::message).contains(
        "integration \"ray.io/rayjob\" is not modelled by gpufleet (only batch/job, pod and jobset.x-k8s.io/jobset are): its objects are not "
            + "read as Workloads",
        "names a LocalQueue, but Kueue's Configuration does not enable the \"batch/job\" integration "
            + "(integrations.frameworks): Kueue does not manage this Job");
  }
}
