package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import org.junit.jupiter.api.Test;

/**
 * A mig-parted ConfigMap among the scenario's manifests reaches the simulator's MIG manager: a
 * NodePool whose nodes are labelled with a config only that ConfigMap names gets nodes cut that way.
 */
class CustomMigConfigTest {

  private static String scenario(boolean withCustomConfigMap) {
    String custom = """
          - apiVersion: v1
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
        """;
    return """
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: custom-mig}
        spec:
          seed: 1
          # Karpenter cannot see MIG slices on an instance type; the twin's advertised sizing can.
          autoscaler: {sizing: advertised}
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
                metadata:
                  labels: {nvidia.com/mig.config: two-3g}
                spec:
                  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: gpu}
                  requirements:
                  - {key: node.kubernetes.io/instance-type, operator: In, values: [p5.4xlarge]}
                  - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
          - apiVersion: v1
            kind: ConfigMap
            metadata: {name: nvidia-device-plugin-configs, namespace: gpu-operator}
            data:
              default: |
                version: v1
                flags:
                  migStrategy: mixed
        """ + (withCustomConfigMap ? custom : "") + """
          steps:
          - title: two tenants ask for a 3g.40gb slice each
            actions:
            - apply:
              - apiVersion: apps/v1
                kind: Deployment
                metadata: {name: tenant, namespace: default}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: tenant}}
                  template:
                    metadata: {labels: {app: tenant}}
                    spec:
                      containers:
                      - name: model
                        image: example/model:1
                        resources: {requests: {cpu: "1", memory: 8Gi}, limits: {nvidia.com/mig-3g.40gb: 1}}
            - waitUntil:
                condition: {readyPods: {workload: Deployment/default/tenant, equals: 2}}
                timeout: 30m
            - expect:
                that: one H100 cut into two 3g.40gb slices holds both
                condition: {nodeCount: {selector: {matchLabels: {karpenter.sh/nodepool: mig}}, equals: 1}}
            - expect:
                that: the node advertises the custom layout
                condition: {resourceAdvertised: {node: {selector: {matchLabels: {karpenter.sh/nodepool: mig}}, index: 0}, resource: nvidia.com/mig-3g.40gb, equals: 2}}
        """;
  }

  private static SimulationResult run(String text) {
    ScenarioFile f = ScenarioReader.read("custom-mig.yaml", text, ScenarioSources.directory(java.nio.file.Path.of(".")));
    return Simulation.run(f.scenario());
  }

  @Test
  void aConfigNamedOnlyInTheCustomConfigMapLaysOutLaunchedNodes() {
    SimulationResult r = run(scenario(true));
    assertThat(r.allExpectationsPassed()).as(r.expectations().toString()).isTrue();
    var node = r.checkpoints().getLast().state().nodes().values().iterator().next();
    assertThat(node.node().labels().get("nvidia.com/mig-3g.40gb.count")).contains("2");
  }

  @Test
  void aConfigNoManagerKnowsFailsVisiblyAndLeavesTheCardWhole() {
    // One tenant asking for a whole GPU on a node whose mig.config names a layout no config holds.
    String text = scenario(false).replace("migStrategy: mixed", "migStrategy: none")
        .replace("nvidia.com/mig-3g.40gb: 1", "nvidia.com/gpu: 1").replace("replicas: 2", "replicas: 1")
        .replace("Deployment/default/tenant, equals: 2", "Deployment/default/tenant, equals: 1");
    SimulationResult r = run(text);
    var node = r.checkpoints().getLast().state().nodes().values().iterator().next();
    assertThat(node.node().labels().get("nvidia.com/mig.config.state")).contains("failed");
    assertThat(node.node().allocatable().getOrZero(io.gpufleet.model.resource.ResourceName.NVIDIA_GPU).value())
        .isEqualTo(1);
    assertThat(r.record().of(io.gpufleet.sim.record.RunRecord.Kind.DEVICE_PLUGIN_REGISTERED)).singleElement()
        .asString().contains("MIG manager: ", "\"two-3g\"", "nvidia.com/mig.config.state=failed");
  }

  @Test
  void withoutTheConfigMapTheStockConfigsDoNotKnowIt() {
    SimulationResult r = run(scenario(false));
    assertThat(r.allExpectationsPassed()).isFalse();
  }
}
