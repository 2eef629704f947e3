package io.gpufleet.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.BatchPlacement;
import io.gpufleet.manifest.ManifestReader;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.model.resource.ResourceName;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One cluster, one answer: what the assembly makes of a ConfigMap, a node dump and a GFD label. */
class ClusterAssemblyTest {

  private static Cluster assemble(String yaml) {
    return ClusterAssembly.assemble(new ManifestReader().read("cluster.yaml", yaml), ClusterSettings.defaults());
  }

  private static List<String> placedOn(Cluster c) {
    return c.place(Cluster.defaultProfiles(), 1, false).result().outcomes().stream()
        .map(o -> o instanceof BatchPlacement.Outcome.Bound b ? b.node() : "Pending").toList();
  }

  private static final String CONFIG_MAP = """
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: nvidia-device-plugin-configs, namespace: gpu-operator}
      data:
        ts4: |-
          version: v1
          sharing:
            timeSlicing:
              resources:
              - name: nvidia.com/gpu
                replicas: 4
      ---
      """;

  private static final String WRITTEN_NODE = """
      apiVersion: v1
      kind: Node
      metadata:
        name: gpu-a10g-1
        labels: {node.kubernetes.io/instance-type: g5.2xlarge, nvidia.com/device-plugin.config: ts4}
      status:
        capacity: {cpu: "8", memory: 32Gi, pods: "110"}
        allocatable: {cpu: 7910m, memory: 29317Mi, pods: "110"}
      ---
      """;

  private static final String FIVE_GPU_PODS = """
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: notebook}
      spec:
        replicas: 5
        selector: {matchLabels: {app: notebook}}
        template:
          metadata: {labels: {app: notebook}}
          spec:
            containers:
            - name: jupyter
              image: jupyter
              resources: {limits: {nvidia.com/gpu: 1}}
      """;

  @Test
  void theDevicePluginConfigMapTimeSlicesTheNodeItSelects() {
    Cluster c = assemble(CONFIG_MAP + WRITTEN_NODE + FIVE_GPU_PODS);

    assertThat(c.nodes().getFirst().node().allocatable().getOrZero(ResourceName.NVIDIA_GPU).value()).isEqualTo(4);
    assertThat(placedOn(c)).containsExactly("gpu-a10g-1", "gpu-a10g-1", "gpu-a10g-1", "gpu-a10g-1", "Pending");
    assertThat(c.warnings()).isEmpty();
  }

  @Test
  void aDumpedNodeWithoutItsConfigMapKeepsWhatItReportsAndSaysWhereTheModelDiffers() {
    Cluster c = assemble("""
        apiVersion: v1
        kind: Node
        metadata:
          name: ts-node
          labels:
            node.kubernetes.io/instance-type: g5.2xlarge
            nvidia.com/gpu.product: NVIDIA-A10G-SHARED
            nvidia.com/gpu.count: "1"
            nvidia.com/gpu.replicas: "4"
            nvidia.com/gpu.sharing-strategy: time-slicing
            nvidia.com/cuda.driver.major: "550"
        status:
          capacity: {cpu: "8", memory: 32Gi, pods: "110", nvidia.com/gpu: "4"}
          allocatable: {cpu: 7910m, memory: 29317Mi, pods: "110", nvidia.com/gpu: "4"}
        ---
        """ + FIVE_GPU_PODS.replace("      containers:",
            "      nodeSelector: {nvidia.com/cuda.driver.major: \"550\"}\n      containers:"));

    ClusterNode n = c.nodes().getFirst();
    assertThat(n.node().allocatable().getOrZero(ResourceName.NVIDIA_GPU).value()).isEqualTo(4);
    assertThat(n.node().labels().get("nvidia.com/gpu.product")).hasValue("NVIDIA-A10G-SHARED");
    assertThat(placedOn(c)).containsExactly("ts-node", "ts-node", "ts-node", "ts-node", "Pending");
    assertThat(c.warnings()).singleElement().satisfies(w -> {
      assertThat(w.severity()).isEqualTo(ManifestProblem.Severity.WARNING);
      assertThat(w.location().file()).isEqualTo("cluster.yaml");
      assertThat(w.location().line()).isEqualTo(13);
      assertThat(w.message()).contains("reports nvidia.com/gpu: 4").contains("would advertise nvidia.com/gpu: 1");
    });
  }

  /** A node in the dump's style: it reports four GPUs, which the plugin's defaults would not advertise. */
  private static String reportingNode(String name, String indent) {
    return ("""
        kind: Node
        apiVersion: v1
        metadata:
          name: %s
          labels: {nvidia.com/gpu.product: NVIDIA-L4}
        status:
          allocatable: {cpu: "32", memory: 128Gi, pods: "110", nvidia.com/gpu: "4"}
        """).formatted(name).lines().map(l -> indent + l).reduce((a, b) -> a + "\n" + b).orElseThrow() + "\n";
  }

  @Test
  void everyWarningOfADumpIsAtItsOwnNodeInDocumentsAndInAList() {
    String listed = "apiVersion: v1\nkind: List\nitems:\n" + reportingNode("in-list-0", "- ").replace("\n- ", "\n  ")
        + reportingNode("in-list-1", "- ").replace("\n- ", "\n  ") + "---\n";
    String yaml = listed + reportingNode("doc-0", "") + "---\n" + reportingNode("doc-1", "");
    Cluster c = assemble(yaml);

    List<String> lines = yaml.lines().toList();
    assertThat(c.warnings()).hasSize(4).allSatisfy(w -> {
      String name = w.message().replaceAll("^node (\\S+) reports.*", "$1");
      // status.capacity is not written, so the warning stands at the node's status, two lines under its name
      assertThat(lines.get(w.location().line() - 1)).endsWith("status:");
      assertThat(lines.get(w.location().line() - 3)).endsWith("name: " + name);
    });
    assertThat(c.warnings()).extracting(w -> w.location().line()).doesNotHaveDuplicates();
  }
}
