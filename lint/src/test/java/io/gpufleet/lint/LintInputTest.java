package io.gpufleet.lint;

import io.gpufleet.manifest.ManifestSource;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.karpenter.KarpenterLabels;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where lint thinks GPU pods may run: GPU Nodes, and the nodes a NodePool could launch. */
class LintInputTest {

  private static LintInput input(String text) {
    return LintInput.read(List.of(new ManifestSource("in.yaml", text)));
  }

  private static String pool(String name, String requirements) {
    return """
        apiVersion: karpenter.sh/v1
        kind: NodePool
        metadata:
          name: %s
        spec:
          template:
            spec:
              requirements:
        %s
              nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
        """.formatted(name, requirements);
  }

  @Test
  void aNodePoolOffersEachGpuInstanceTypeAndCapacityTypeItsRequirementsAllow() {
    LintInput in = input(pool("g5-any", """
              - {key: node.kubernetes.io/instance-type, operator: In, values: [g5.xlarge, g5.2xlarge, m5.large]}
              - {key: karpenter.sh/capacity-type, operator: In, values: [spot, on-demand]}
        """));
    assertThat(in.targets()).extracting(GpuTarget::name).containsExactlyInAnyOrder(
        "g5-any/g5.xlarge/on-demand", "g5-any/g5.xlarge/spot", "g5-any/g5.2xlarge/on-demand", "g5-any/g5.2xlarge/spot");
    assertThat(in.targets()).allSatisfy(t -> {
      assertThat(t.gpu()).hasValueSatisfying(g -> assertThat(g.productLabel()).isEqualTo("NVIDIA-A10G"));
      assertThat(t.labels().get(KarpenterLabels.NODEPOOL)).hasValue("g5-any");
    });
    assertThat(in.gpuNodePools()).extracting(p -> p.value().name()).containsExactly("g5-any");
  }

  @Test
  void withoutACapacityTypeRequirementKarpenterLaunchesOnDemand() {
    LintInput in = input(pool("g6", "      - {key: karpenter.k8s.aws/instance-family, operator: In, values: [g6]}\n"));
    assertThat(in.targets()).isNotEmpty().allSatisfy(t -> assertThat(t.capacityType()).hasValue("on-demand"));
    LintInput notSpot = input(pool("g6", """
              - {key: karpenter.k8s.aws/instance-family, operator: In, values: [g6]}
              - {key: karpenter.sh/capacity-type, operator: NotIn, values: [spot]}
        """));
    assertThat(notSpot.targets()).extracting(t -> t.capacityType().orElseThrow()).doesNotContain("spot")
        .contains("on-demand");
  }

  @Test
  void aCpuOnlyNodePoolAndACpuNodeAreNoGpuCapacity() {
    LintInput in = input(pool("cpu", "      - {key: karpenter.k8s.aws/instance-category, operator: In, values: [c, m]}\n")
        + """
        ---
        apiVersion: v1
        kind: Node
        metadata:
          name: cpu-1
          labels: {node.kubernetes.io/instance-type: m5.large}
        status:
          capacity: {cpu: "2", memory: 8Gi}
        """);
    assertThat(in.targets()).isEmpty();
    assertThat(in.gpuNodePools()).isEmpty();
    assertThat(in.gpuNodes()).isEmpty();
  }

  @Test
  void aNodesGpusComeFromGfdLabelsOrItsAdvertisedCapacity() {
    LintInput in = input("""
        apiVersion: v1
        kind: Node
        metadata:
          name: labelled
          labels: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3, nvidia.com/gpu.count: "8"}
        ---
        apiVersion: v1
        kind: Node
        metadata:
          name: advertised
        status:
          capacity: {cpu: "8", nvidia.com/gpu: "2"}
        """);
    assertThat(in.targets()).extracting(GpuTarget::name, GpuTarget::gpuCount)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("labelled", 8),
            org.assertj.core.groups.Tuple.tuple("advertised", 2));
    assertThat(in.targets().getFirst().gpu()).hasValueSatisfying(g -> assertThat(g.migCapable()).isTrue());
    assertThat(in.targets().get(1).gpu()).isEmpty();
  }

  @Test
  void podSitesSayWhatThePodsAreFor() {
    LintInput in = input("""
        apiVersion: batch/v1
        kind: Job
        metadata: {name: train}
        spec:
          parallelism: 4
          template:
            spec:
              restartPolicy: Never
              containers: [{name: c, resources: {limits: {nvidia.com/gpu: 1}}}]
        ---
        apiVersion: apps/v1
        kind: StatefulSet
        metadata: {name: db, namespace: data}
        spec:
          replicas: 3
          selector: {matchLabels: {app: db}}
          template:
            metadata: {labels: {app: db}}
            spec:
              containers: [{name: c}]
        """);
    assertThat(in.podSites()).extracting(s -> s.owner().ref().toString(), PodSite::kind, PodSite::replicas,
            PodSite::requestsGpu)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("Job/default/train", PodSite.Kind.BATCH, 4, true),
            org.assertj.core.groups.Tuple.tuple("StatefulSet/data/db", PodSite.Kind.SERVICE, 3, false));
    assertThat(in.gpuPodSites()).hasSize(1);
  }
}
