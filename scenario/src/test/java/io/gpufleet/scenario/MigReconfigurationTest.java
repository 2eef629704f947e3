package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.sim.Checkpoint;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord.Entry;
import io.gpufleet.sim.record.RunRecord.Kind;
import io.gpufleet.sim.state.NodeState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Relabelling a running node's {@code nvidia.com/mig.config}: the MIG manager goes through
 * {@code pending} (operands paused, GPU pods evicted, no GPUs advertised), takes
 * {@code migReconfiguration}, and ends in {@code success} with the new layout or {@code failed} with
 * the old one, as NVIDIA's k8s-mig-manager does; a config the file lacks fails at once.
 */
class MigReconfigurationTest {

  static final Duration TAKES = Duration.ofMinutes(3);
  static final String POOL = "{selector: {matchLabels: {karpenter.sh/nodepool: mig}}, index: 0}";

  static String scenario(String config) {
    return """
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: mig-reconfigure}
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
                metadata:
                  labels: {nvidia.com/gpu.deploy.device-plugin: "true"}
                spec:
                  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: gpu}
                  requirements:
                  - {key: node.kubernetes.io/instance-type, operator: In, values: [p5.4xlarge]}
                  - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
              limits: {nvidia.com/gpu: 1}
              # Emptied by the MIG manager's eviction, the node would otherwise be consolidated away.
              disruption: {consolidationPolicy: WhenEmpty, consolidateAfter: Never}
          - apiVersion: v1
            kind: ConfigMap
            metadata: {name: nvidia-device-plugin-configs, namespace: gpu-operator}
            data:
              default: |
                version: v1
                flags:
                  migStrategy: mixed
          - apiVersion: v1
            kind: ConfigMap
            metadata: {name: custom-mig-parted-config, namespace: gpu-operator}
            data:
              config.yaml: |
                version: v1
                mig-configs:
                  all-disabled:
                    - devices: all
                      mig-enabled: false
                  seven-small:
                    - devices: all
                      mig-enabled: true
                      mig-devices:
                        "1g.10gb": 7
                  too-many:
                    - devices: all
                      mig-enabled: true
                      mig-devices:
                        "1g.10gb": 8
          devicePlugin:
            migReconfiguration: 3m
          steps:
          - id: "1"
            title: a whole-GPU trainer runs
            actions:
            - apply:
              - apiVersion: apps/v1
                kind: Deployment
                metadata: {name: trainer, namespace: default}
                spec:
                  replicas: 1
                  selector: {matchLabels: {app: trainer}}
                  template:
                    metadata: {labels: {app: trainer}}
                    spec:
                      containers:
                      - name: train
                        image: example/train:1
                        resources: {requests: {cpu: "1", memory: 8Gi}, limits: {nvidia.com/gpu: 1}}
            - waitUntil:
                condition: {readyPods: {workload: Deployment/default/trainer, equals: 1}}
                timeout: 30m
          - id: "2"
            title: relabel the node
            actions:
            - label: {node: %s, key: nvidia.com/mig.config, value: %s}
            - wait: 1m
            - show: mid-reconfiguration
            - wait: 10m
        """.formatted(POOL, config);
  }

  static SimulationResult run(String config) {
    ScenarioFile f = ScenarioReader.read("mig.yaml", scenario(config),
        ScenarioSources.directory(java.nio.file.Path.of(".")));
    return Simulation.run(f.scenario());
  }

  static List<Entry> labels(SimulationResult r, String prefix) {
    return r.record().of(Kind.NODE_LABELED).stream().filter(e -> e.message().startsWith(prefix)).toList();
  }

  static NodeState node(Checkpoint c) {
    return c.state().nodes().values().stream().filter(n -> n.node().labels().get("nvidia.com/mig.config").isPresent())
        .findFirst().orElseThrow();
  }

  @Test
  void aNewLayoutDrainsTheGpuPodsTakesItsTimeAndEndsInSuccess() {
    SimulationResult r = run("seven-small");
    assertThat(r.violations()).isEmpty();
    Instant relabelled = labels(r, "nvidia.com/mig.config=").getFirst().time();
    List<Entry> states = labels(r, "nvidia.com/mig.config.state=");
    assertThat(states).extracting(Entry::message).containsExactly("nvidia.com/mig.config.state=pending",
        "nvidia.com/mig.config.state=success");
    assertThat(states.get(0).time()).isEqualTo(relabelled);
    assertThat(states.get(1).time()).isEqualTo(relabelled.plus(TAKES));
    // The operator's device-plugin operand is paused while the manager works, then restored.
    assertThat(labels(r, "nvidia.com/gpu.deploy.device-plugin=")).extracting(Entry::message).containsExactly(
        "nvidia.com/gpu.deploy.device-plugin=paused-for-mig-change", "nvidia.com/gpu.deploy.device-plugin=true");
    // The trainer's pod was evicted as the manager started.
    List<Entry> evicted = r.record().of(Kind.POD_EVICTED);
    assertThat(evicted).singleElement().satisfies(e -> {
      assertThat(e.subject()).startsWith("default/trainer-");
      assertThat(e.time()).isEqualTo(relabelled);
      assertThat(e.message()).contains("MIG reconfiguration to seven-small");
    });
    // Part-way, the node advertises no GPUs and says pending.
    NodeState mid = node(r.checkpoints().stream().filter(c -> c.label().contains("mid-reconfiguration")).findFirst()
        .orElseThrow());
    assertThat(mid.node().labels().get("nvidia.com/mig.config.state")).contains("pending");
    assertThat(mid.node().allocatable().getOrZero(ResourceName.NVIDIA_GPU).value()).isZero();
    // After it, the plugin registers the seven slices.
    Entry registered = r.record().of(Kind.DEVICE_PLUGIN_REGISTERED).getLast();
    assertThat(registered.time()).isAfter(states.get(1).time());
    assertThat(registered.message()).contains("nvidia.com/mig-1g.10gb: 7");
    NodeState end = node(r.checkpoints().getLast());
    assertThat(end.migLayout().instances(0)).hasSize(7);
    assertThat(end.node().labels().get("nvidia.com/mig.config.state")).contains("success");
  }

  @Test
  void aLayoutMigPartedCannotApplyFailsAfterTheDrainAndKeepsTheOldLayout() {
    SimulationResult r = run("too-many");
    assertThat(r.violations()).isEmpty();
    Instant relabelled = labels(r, "nvidia.com/mig.config=").getFirst().time();
    List<Entry> states = labels(r, "nvidia.com/mig.config.state=");
    assertThat(states).extracting(e -> e.message().split(" ")[0]).containsExactly("nvidia.com/mig.config.state=pending",
        "nvidia.com/mig.config.state=failed");
    assertThat(states.get(1).message()).contains("asked for 8");
    assertThat(states.get(1).time()).isEqualTo(relabelled.plus(TAKES));
    assertThat(r.record().of(Kind.POD_EVICTED)).hasSize(1);
    NodeState end = node(r.checkpoints().getLast());
    assertThat(end.migLayout().isEmpty()).isTrue();
    assertThat(end.node().allocatable().getOrZero(ResourceName.NVIDIA_GPU).value()).isEqualTo(1);
  }

  @Test
  void aConfigTheFileLacksFailsAtOnceAndTouchesNoPod() {
    SimulationResult r = run("no-such-config");
    assertThat(r.violations()).isEmpty();
    Instant relabelled = labels(r, "nvidia.com/mig.config=").getFirst().time();
    List<Entry> states = labels(r, "nvidia.com/mig.config.state=");
    assertThat(states).singleElement().satisfies(e -> {
      assertThat(e.message()).startsWith("nvidia.com/mig.config.state=failed");
      assertThat(e.time()).isEqualTo(relabelled);
    });
    assertThat(r.record().of(Kind.POD_EVICTED)).isEmpty();
    NodeState end = node(r.checkpoints().getLast());
    assertThat(end.node().allocatable().getOrZero(ResourceName.NVIDIA_GPU).value()).isEqualTo(1);
  }
}
