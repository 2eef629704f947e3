package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.cluster.ClusterAssembly;
import io.gpufleet.cluster.ClusterNode;
import io.gpufleet.cluster.ClusterSettings;
import io.gpufleet.manifest.ManifestInput;
import io.gpufleet.manifest.ManifestReader;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.scenario.ScenarioFile;
import io.gpufleet.scenario.ScenarioReader;
import io.gpufleet.scenario.ScenarioSources;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One MIG manager: a custom mig-parted ConfigMap and a node labelled with a config only that
 * ConfigMap names give the same advertised resources, GFD labels and MIG manager state in
 * {@code node describe} as in {@code simulate}: both register the node through the engine's
 * {@code GpuOperator}.
 */
class MigManagerParityTest {

  static final String NODE = "gpu-h100-1";

  /** Device plugin in mixed strategy; a custom layout "two-3g" (two 3g.40gb per H100) no stock config has. */
  static final String GPU_MANIFESTS = """
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: nvidia-device-plugin-configs, namespace: gpu-operator}
      data:
        default: |
          version: v1
          flags:
            migStrategy: mixed
      ---
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: custom-mig-parted-config, namespace: gpu-operator}
      data:
        config.yaml: |
          version: v1
          mig-configs:
            two-3g:
              - devices: all
                mig-enabled: true
                mig-devices:
                  "3g.40gb": 2
      ---
      apiVersion: v1
      kind: Node
      metadata:
        name: gpu-h100-1
        labels:
          node.kubernetes.io/instance-type: p5.4xlarge
          karpenter.sh/nodepool: mig
          nvidia.com/mig.config: two-3g
      """;

  static final String SCENARIO = """
      apiVersion: gpufleet.io/v1alpha1
      kind: Scenario
      metadata: {name: mig-parity}
      spec:
        seed: 1
        cluster:
        - apiVersion: karpenter.k8s.aws/v1
          kind: EC2NodeClass
          metadata: {name: gpu}
          spec: {amiSelectorTerms: [{alias: bottlerocket@latest}]}
        - apiVersion: karpenter.sh/v1
          kind: NodePool
          metadata: {name: mig}
          spec:
            template:
              spec:
                nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: gpu}
                requirements:
                - {key: node.kubernetes.io/instance-type, operator: In, values: [p5.4xlarge]}
            disruption: {consolidationPolicy: WhenEmpty, consolidateAfter: 1h}
        - file: gpu.yaml
        steps:
        - title: the node as it joined
          actions:
          - wait: 10s
      """;

  @Test
  void aCustomConfigAdvertisesTheSameInNodeDescribeAndInTheSimulator(@TempDir Path dir) throws IOException {
    Path manifests = dir.resolve("gpu.yaml");
    Files.writeString(manifests, GPU_MANIFESTS);
    Files.writeString(dir.resolve("scenario.yaml"), SCENARIO);

    ClusterNode described = ClusterAssembly.assemble(new ManifestReader().read(List.of(ManifestInput.read(manifests))),
        ClusterSettings.defaults()).nodes().getFirst();
    ScenarioFile scenario = ScenarioReader.read("scenario.yaml", SCENARIO, ScenarioSources.directory(dir));
    SimulationResult run = Simulation.run(scenario.scenario());
    Node simulated = run.checkpoints().getLast().state().nodes().get(NODE).node();

    // The custom layout took effect: the H100 carries two 3g.40gb instances and no whole GPU.
    assertThat(gpuResources(described.node())).containsExactly(Map.entry("nvidia.com/mig-3g.40gb", 2L));
    assertThat(described.registration().orElseThrow().warnings()).isEmpty();
    assertThat(gpuResources(simulated)).isEqualTo(gpuResources(described.node()));
    assertThat(nvidiaLabels(simulated)).isEqualTo(nvidiaLabels(described.node()))
        .containsEntry("nvidia.com/mig.config.state", "success")
        .containsEntry("nvidia.com/mig-3g.40gb.count", "2");
  }

  private static Map<String, Long> gpuResources(Node n) {
    Map<String, Long> out = new TreeMap<>();
    n.allocatable().quantities().forEach((ResourceName name, Quantity q) -> {
      if (name.isNvidiaGpuLike()) {
        out.put(name.name(), q.value());
      }
    });
    return out;
  }

  private static Map<String, String> nvidiaLabels(Node n) {
    Map<String, String> out = new TreeMap<>();
    n.labels().map().forEach((k, v) -> {
      if (k.startsWith("nvidia.com/")) {
        out.put(k, v);
      }
    });
    return out;
  }
}
