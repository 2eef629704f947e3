package io.gpufleet.lint;

import io.gpufleet.manifest.ManifestSource;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.manifest.yaml.YamlReader;
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

  /** A GPU node of {@code product} in the dump's style, tainted for GPU pods. */
  private static String gpuNode(String name, String product) {
    return """
        ---
        apiVersion: v1
        kind: Node
        metadata:
          name: %s
          labels: {nvidia.com/gpu.product: %s, nvidia.com/gpu.count: "1"}
        spec:
          taints: [{key: nvidia.com/gpu, value: "true", effect: NoSchedule}]
        status:
          capacity: {cpu: "8", memory: 32Gi, nvidia.com/gpu: "1"}
        """.formatted(name, product);
  }

  /** A 1-GPU pod that tolerates the GPU taint, with this nodeSelector ({@code {}} for none). */
  private static String gpuPod(String name, String nodeSelector) {
    return """
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: %s, namespace: default}
        spec:
          nodeSelector: %s
          tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
          containers:
          - name: main
            image: app:1
            resources: {limits: {nvidia.com/gpu: 1}}
        """.formatted(name, nodeSelector);
  }

  @Test
  void podsOfEqualConstraintsAreCheckedAgainstTheTargetsOnceAndEachGetsItsOwnAnswer() {
    StringBuilder text = new StringBuilder();
    text.append(gpuNode("l4-1", "NVIDIA-L4")).append(gpuNode("h100-1", "NVIDIA-H100-80GB-HBM3"))
        .append(gpuNode("l4-2", "NVIDIA-L4"));
    for (int i = 0; i < 3; i++) {
      text.append(gpuPod("any-" + i, "{}")).append(gpuPod("l4-" + i, "{nvidia.com/gpu.product: NVIDIA-L4}"));
    }
    LintInput in = input(text.toString());
    List<PodSite> any = in.gpuPodSites().stream().filter(s -> s.owner().ref().name().startsWith("any-")).toList();
    List<PodSite> l4 = in.gpuPodSites().stream().filter(s -> s.owner().ref().name().startsWith("l4-")).toList();
    assertThat(any).hasSize(3);
    assertThat(l4).hasSize(3);
    assertThat(any).allSatisfy(s -> assertThat(in.targetsAdmitting(s)).extracting(GpuTarget::name)
        .containsExactly("l4-1", "h100-1", "l4-2"));
    assertThat(l4).allSatisfy(s -> assertThat(in.targetsAdmitting(s)).extracting(GpuTarget::name)
        .containsExactly("l4-1", "l4-2"));
    // One answer per distinct constraints, shared: the targets were filtered once for each, not per pod.
    assertThat(any).allSatisfy(s -> assertThat(in.targetsAdmitting(s)).isSameAs(in.targetsAdmitting(any.getFirst())));
    assertThat(l4).allSatisfy(s -> assertThat(in.targetsAdmitting(s)).isSameAs(in.targetsAdmitting(l4.getFirst())));
    // Each answer is the one a check of the pod itself gives.
    for (PodSite s : in.gpuPodSites()) {
      assertThat(in.targetsAdmitting(s)).isEqualTo(in.targets().stream().filter(t -> t.admits(s)).toList());
    }
  }

  private static String priorityClass(String name) {
    return "---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: " + name + "}\nvalue: 10\n";
  }

  @Test
  void aLocationBelongsToTheLastObjectThatStartsAtOrBeforeItInItsFileAndToItsOrigin() {
    String a = priorityClass("a-0") + priorityClass("a-1") + priorityClass("a-2");
    String b = priorityClass("b-0") + priorityClass("b-1");
    LintInput in = LintInput.readSources(List.of(
        new LintInput.Source("a.yaml", a, new YamlReader().readAll("a.yaml", a), false, ""),
        new LintInput.Source("b.yaml", b, new YamlReader().readAll("b.yaml", b), false, "applied by step 2 of s.yaml")),
        false);
    // Each document is five lines: "---", then apiVersion (where the object starts, column 1) and three more.
    for (String file : List.of("a.yaml", "b.yaml")) {
      int docs = file.equals("a.yaml") ? 3 : 2;
      String prefix = file.substring(0, 1) + "-";
      for (int line = 1; line <= 5 * docs; line++) {
        int doc = (line - 2) / 5; // the "---" of document i+1 still lies in document i
        Location at = new Location(file, line, 1);
        if (line == 1) {
          assertThat(in.objectAt(at)).as("%s", at).isEmpty();
        } else {
          assertThat(in.objectAt(at)).as("%s", at).hasValueSatisfying(o -> assertThat(o.ref().name())
              .isEqualTo(prefix + doc));
        }
      }
      // Column 0 of a start line is before the object that starts there.
      assertThat(in.objectAt(new Location(file, 7, 0))).hasValueSatisfying(o -> assertThat(o.ref().name())
          .isEqualTo(prefix + 0));
    }
    assertThat(in.objectAt(new Location("c.yaml", 3, 1))).isEmpty();
    assertThat(in.origin(new Location("a.yaml", 8, 2))).isEmpty();
    assertThat(in.origin(new Location("b.yaml", 8, 2))).hasValue("applied by step 2 of s.yaml");
    assertThat(in.origin(new Location("b.yaml", 1, 1))).isEmpty();
  }

  @Test
  void theAssemblysWarningsStandAtTheirOwnNodesFromTheTreesLintAlreadyRead() {
    // lint hands the cluster assembly the trees it read, so the assembly places its warnings without reading again.
    String yaml = """
        apiVersion: v1
        kind: List
        items:
        - apiVersion: v1
          kind: Node
          metadata: {name: in-list-0, labels: {nvidia.com/gpu.product: NVIDIA-A10G}}
          status:
            allocatable: {nvidia.com/gpu: "3", cpu: "4", memory: 16Gi, pods: "58"}
        - apiVersion: v1
          kind: Node
          metadata: {name: in-list-1, labels: {nvidia.com/gpu.product: NVIDIA-A10G}}
          status:
            allocatable: {nvidia.com/gpu: "3", cpu: "4", memory: 16Gi, pods: "58"}
        ---
        apiVersion: v1
        kind: Node
        metadata: {name: doc-0, labels: {nvidia.com/gpu.product: NVIDIA-A10G}}
        status:
          allocatable: {nvidia.com/gpu: "3", cpu: "4", memory: 16Gi, pods: "58"}
        """;
    List<String> lines = yaml.lines().toList();
    List<io.gpufleet.manifest.yaml.ManifestProblem> capacity = input(yaml).warnings().stream()
        .filter(w -> w.path().equals("status.capacity")).toList();
    assertThat(capacity).hasSize(3).allSatisfy(w -> {
      String name = w.message().replaceAll("^node (\\S+) reports.*", "$1");
      assertThat(w.location().file()).isEqualTo("in.yaml");
      assertThat(lines.get(w.location().line() - 1)).endsWith("status:");
      assertThat(lines.get(w.location().line() - 2)).contains("{name: " + name + ",");
    });
  }
}
