package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.state.NodeState;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * An EC2NodeClass's block device mappings and kubelet settings reach both what Karpenter plans with
 * and what the node's kubelet then advertises.
 */
class NodeClassScenarioTest {

  static String scenario(String nodeClassSpec) {
    return scenario(nodeClassSpec, "m5.xlarge", "busybox", "{requests: {cpu: 100m, ephemeral-storage: 50Gi}}", """
          - title: wait
            actions:
            - wait: 10m
        """);
  }

  /**
   * One EC2NodeClass (metadata.name {@code default}) with this spec, a NodePool of on-demand
   * {@code instanceType} nodes of it, one pod {@code p} of {@code image} with these container
   * {@code resources}, and these steps (YAML list items, indented as {@link #scenario(String)}'s).
   */
  static String scenario(String nodeClassSpec, String instanceType, String image, String resources, String steps) {
    return """
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: node-class}
        spec:
          cluster:
          - apiVersion: karpenter.k8s.aws/v1
            kind: EC2NodeClass
            metadata: {name: default}
            spec: %s
          - apiVersion: karpenter.sh/v1
            kind: NodePool
            metadata: {name: general}
            spec:
              template:
                spec:
                  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                  requirements:
                  - {key: node.kubernetes.io/instance-type, operator: In, values: [%s]}
                  - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
          - apiVersion: v1
            kind: Pod
            metadata: {name: p}
            spec:
              containers:
              - name: c
                image: %s
                resources: %s
          steps:
        %s""".formatted(nodeClassSpec, instanceType, image, resources, steps);
  }

  static SimulationResult run(String nodeClassSpec) {
    return play(scenario(nodeClassSpec));
  }

  static SimulationResult play(String scenarioText) {
    ScenarioFile f = ScenarioReader.read("s.yaml", scenarioText, ScenarioSources.directory(Path.of(".")));
    return Simulation.run(f.scenario());
  }

  @Test
  void aLargerRootVolumeAndKubeletReservationsShapeTheNodeKarpenterLaunches() {
    SimulationResult r = run("{blockDeviceMappings: [{deviceName: /dev/xvda, rootVolume: true, ebs: {volumeSize: 100Gi}}],"
        + " kubelet: {maxPods: 20, kubeReserved: {memory: 2Gi}}}");
    assertThat(r.violations()).isEmpty();
    NodeState node = r.finalState().nodes().values().stream().findFirst().orElseThrow();
    var alloc = node.node().allocatable();
    // 100Gi less kube-reserved 1Gi and the 10 % nodefs threshold.
    assertThat(alloc.getOrZero(ResourceName.EPHEMERAL_STORAGE).value()).isEqualTo((100L << 30) - (1L << 30) - (10L << 30));
    assertThat(alloc.getOrZero(ResourceName.PODS).value()).isEqualTo(20);
    // m5.xlarge: 16384 MiB less 7.5 % (15155 MiB), kube-reserved 2Gi, eviction 100Mi.
    assertThat(alloc.getOrZero(ResourceName.MEMORY).value()).isEqualTo((15155L - 2048 - 100) << 20);
    assertThat(r.finalState().pods().get("default/p").node()).contains(node.name());
  }

  @Test
  void withKarpentersDefaultRootVolumeThePodCannotBeProvisioned() {
    SimulationResult r = run("{role: KarpenterNodeRole}");
    assertThat(r.finalState().nodes().size()).isZero();
    assertThat(r.record().of(RunRecord.Kind.KARPENTER_EVENT)).anySatisfy(e -> assertThat(e.message())
        .startsWith("FailedScheduling").contains("ephemeral-storage"));
  }
}
