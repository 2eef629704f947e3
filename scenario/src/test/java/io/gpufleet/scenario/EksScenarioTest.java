package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.state.NodeState;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * EKS set-ups as they are run: a Bottlerocket EC2NodeClass whose userData time-slices its GPUs (the
 * EKS user guide's "Use time-slicing with NVIDIA GPUs on Amazon EKS" example), and an EKS Auto Mode
 * NodePool that selects its GPU by Auto Mode's instance labels.
 */
class EksScenarioTest {

  static final String GPU_PODS = """
          - apiVersion: apps/v1
            kind: Deployment
            metadata: {name: infer}
            spec:
              replicas: 4
              selector: {matchLabels: {app: infer}}
              template:
                metadata: {labels: {app: infer}}
                spec:
                  tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
                  containers:
                  - name: c
                    image: vllm/vllm-openai
                    resources: {requests: {cpu: 500m, memory: 1Gi}, limits: {nvidia.com/gpu: 1}}
        """;

  static SimulationResult run(String text) {
    ScenarioFile f = ScenarioReader.read("s.yaml", text, ScenarioSources.directory(Path.of(".")));
    return Simulation.run(f.scenario());
  }

  static String bottlerocket(String sizing, String configMap) {
    return """
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: bottlerocket}
        spec:
          autoscaler: {sizing: %s}
          cluster:
        %s
          - apiVersion: karpenter.k8s.aws/v1
            kind: EC2NodeClass
            metadata: {name: gpu-bottlerocket-timeslicing}
            spec:
              amiFamily: Bottlerocket
              amiSelectorTerms:
                - alias: bottlerocket@latest
              role: KarpenterNodeRole
              userData: |
                [settings.kubelet-device-plugins.nvidia]
                device-sharing-strategy = "time-slicing"

                [settings.kubelet-device-plugins.nvidia.time-slicing]
                replicas = 4
                rename-by-default = false
                fail-requests-greater-than-one = true
          - apiVersion: karpenter.sh/v1
            kind: NodePool
            metadata: {name: gpu}
            spec:
              template:
                spec:
                  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: gpu-bottlerocket-timeslicing}
                  requirements:
                  - {key: node.kubernetes.io/instance-type, operator: In, values: [g5.xlarge]}
                  - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
                  taints: [{key: nvidia.com/gpu, effect: NoSchedule}]
        %s
          steps:
          - title: wait
            actions:
            - wait: 10m
        """.formatted(sizing, configMap, GPU_PODS);
  }

  /** A ConfigMap that would give every node of the cluster's own plugin 2 replicas. */
  static final String TWO_REPLICAS_CONFIG_MAP = """
          - apiVersion: v1
            kind: ConfigMap
            metadata: {name: device-plugin-config, namespace: kube-system}
            data:
              any: |-
                version: v1
                sharing:
                  timeSlicing:
                    resources:
                    - name: nvidia.com/gpu
                      replicas: 2
        """;

  @Test
  void bottlerocketTimeSlicingPutsFourOneGpuPodsOnOneG5() {
    SimulationResult r = run(bottlerocket("advertised", ""));
    assertThat(r.violations()).isEmpty();
    List<NodeState> nodes = List.copyOf(r.finalState().nodes().values());
    assertThat(nodes).singleElement().satisfies(n -> {
      assertThat(n.node().labels().get("node.kubernetes.io/instance-type")).contains("g5.xlarge");
      assertThat(n.node().labels().get("karpenter.k8s.aws/ec2nodeclass")).contains("gpu-bottlerocket-timeslicing");
      assertThat(n.node().allocatable().getOrZero(ResourceName.NVIDIA_GPU).value()).isEqualTo(4);
    });
    String node = nodes.getFirst().name();
    assertThat(r.finalState().pods().values()).hasSize(4).allSatisfy(p -> assertThat(p.node()).contains(node));
  }

  @Test
  void theNodeClassSettingsBeatTheClusterConfigMap() {
    SimulationResult r = run(bottlerocket("advertised", TWO_REPLICAS_CONFIG_MAP));
    assertThat(r.finalState().nodes().values()).singleElement().satisfies(n ->
        assertThat(n.node().allocatable().getOrZero(ResourceName.NVIDIA_GPU).value()).isEqualTo(4));
  }

  @Test
  void anAl2023NodeClassFollowsTheConfigMapInstead() {
    String al2023 = bottlerocket("advertised", TWO_REPLICAS_CONFIG_MAP).replace("amiFamily: Bottlerocket",
        "amiFamily: AL2023").replace("bottlerocket@latest", "al2023@latest");
    SimulationResult r = run(al2023);
    assertThat(r.finalState().nodes().values()).isNotEmpty().allSatisfy(n ->
        assertThat(n.node().allocatable().getOrZero(ResourceName.NVIDIA_GPU).value()).isEqualTo(2));
  }

  @Test
  void withKarpentersPhysicalSizingFourNodesAreLaunchedEachAdvertisingFour() {
    SimulationResult r = run(bottlerocket("physical", ""));
    // Karpenter counts the g5.xlarge's one physical GPU: one NodeClaim per pod (kubernetes-sigs/karpenter#2140).
    assertThat(r.record().of(RunRecord.Kind.NODECLAIM_LAUNCHED)).hasSize(4);
    assertThat(r.finalState().nodes().values()).isNotEmpty().allSatisfy(n ->
        assertThat(n.node().allocatable().getOrZero(ResourceName.NVIDIA_GPU).value()).isEqualTo(4));
    assertThat(r.finalState().pods().values()).hasSize(4).allSatisfy(p -> assertThat(p.node()).isPresent());
  }

  static String autoMode(String gpuName) {
    return """
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: auto-mode}
        spec:
          cluster:
          - apiVersion: karpenter.sh/v1
            kind: NodePool
            metadata: {name: gpu}
            spec:
              template:
                spec:
                  nodeClassRef: {group: eks.amazonaws.com, kind: NodeClass, name: default}
                  requirements:
                  - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
                  - {key: eks.amazonaws.com/instance-gpu-name, operator: In, values: [%s]}
          - apiVersion: v1
            kind: Pod
            metadata: {name: nvidia-smi}
            spec:
              nodeSelector: {eks.amazonaws.com/compute-type: auto}
              containers:
              - name: c
                image: nvidia/cuda
                resources: {requests: {cpu: "1", memory: 4Gi}, limits: {nvidia.com/gpu: 1}}
          steps:
          - title: wait
            actions:
            - wait: 10m
        """.formatted(gpuName);
  }

  @Test
  void anAutoModeNodePoolOnInstanceGpuNameL4ProvisionsAG6() {
    SimulationResult r = run(autoMode("l4"));
    assertThat(r.violations()).isEmpty();
    NodeState n = r.finalState().nodes().values().stream().findFirst().orElseThrow();
    assertThat(r.finalState().nodes().size()).isEqualTo(1);
    assertThat(n.node().labels().get("karpenter.k8s.aws/instance-family")).isEmpty();
    assertThat(n.node().labels().get("eks.amazonaws.com/instance-family")).contains("g6");
    assertThat(n.node().labels().get("eks.amazonaws.com/instance-gpu-name")).contains("l4");
    assertThat(n.node().labels().get("eks.amazonaws.com/compute-type")).contains("auto");
    assertThat(n.node().labels().get("eks.amazonaws.com/nodeclass")).contains("default");
    assertThat(r.finalState().pods().get("default/nvidia-smi").node()).contains(n.name());
  }

  @Test
  void aPodAskingForTheProvidersLabelGetsNoAutoModeNode() {
    // Auto Mode's nodes carry eks.amazonaws.com/*, not karpenter.k8s.aws/* (the guide's label table).
    SimulationResult r = run(autoMode("l4").replace("nodeSelector: {eks.amazonaws.com/compute-type: auto}",
        "nodeSelector: {karpenter.k8s.aws/instance-gpu-name: l4}"));
    assertThat(r.finalState().nodes().size()).isZero();
    assertThat(r.record().of(RunRecord.Kind.KARPENTER_EVENT)).anySatisfy(e -> assertThat(e.message())
        .contains("label \"karpenter.k8s.aws/instance-gpu-name\" does not have known values"));
  }

  @Test
  void anotherGpuNameGivesAnotherFamily() {
    SimulationResult r = run(autoMode("l40s"));
    NodeState n = r.finalState().nodes().values().stream().findFirst().orElseThrow();
    assertThat(n.node().labels().get("eks.amazonaws.com/instance-family")).contains("g6e");
  }
}
