package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.state.PodState;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The API server's chain inside a simulation: what EKS admits and kube-scheduler then does with it,
 * on one node tainted for its extended resource.
 */
class AdmissionScenarioTest {

  private static final String SCENARIO = """
      apiVersion: gpufleet.io/v1alpha1
      kind: Scenario
      metadata: {name: admission}
      spec:
        cluster:
        - apiVersion: v1
          kind: Namespace
          metadata: {name: research, labels: {team: x}}
        - apiVersion: v1
          kind: Node
          metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
          spec: {taints: [{key: example.com/fpga, effect: NoSchedule}]}
          status: {capacity: {cpu: "8", memory: 16Gi, pods: "110", example.com/fpga: "2"}}
        - apiVersion: v1
          kind: Pod
          metadata: {name: fpga}
          spec:
            containers: [{name: c, image: busybox, resources: {limits: {example.com/fpga: 1}}}]
        - apiVersion: v1
          kind: Pod
          metadata: {name: gated}
          spec:
            schedulingGates: [{name: example.com/quota}]
            tolerations: [{operator: Exists}]
            containers: [{name: c, image: busybox}]
        - apiVersion: v1
          kind: Pod
          metadata: {name: port-a}
          spec:
            tolerations: [{operator: Exists}]
            containers: [{name: c, image: busybox, ports: [{containerPort: 9100, hostPort: 9100}]}]
        - apiVersion: v1
          kind: Pod
          metadata: {name: port-b}
          spec:
            tolerations: [{operator: Exists}]
            containers: [{name: c, image: busybox, ports: [{containerPort: 9100, hostPort: 9100}]}]
        - apiVersion: v1
          kind: Pod
          metadata: {name: anchor, namespace: research, labels: {app: anchor}}
          spec:
            tolerations: [{operator: Exists}]
            containers: [{name: c, image: busybox}]
        - apiVersion: v1
          kind: Pod
          metadata: {name: follower}
          spec:
            tolerations: [{operator: Exists}]
            affinity:
              podAffinity:
                requiredDuringSchedulingIgnoredDuringExecution:
                - topologyKey: kubernetes.io/hostname
                  labelSelector: {matchLabels: {app: anchor}}
                  namespaceSelector: {matchLabels: {team: x}}
            containers: [{name: c, image: busybox}]
        steps:
        - title: Let the scheduler run
          actions:
          - wait: 5m
      """;

  private static SimulationResult run() {
    return run(SCENARIO);
  }

  private static SimulationResult run(String text) {
    ScenarioFile f = ScenarioReader.read("s.yaml", text, ScenarioSources.directory(Path.of(".")));
    return Simulation.run(f.scenario());
  }

  private static PodState pod(SimulationResult r, String key) {
    return r.finalState().pods().get(key);
  }

  @Test
  void eksAdmissionAndTheSchedulerTogether() {
    SimulationResult r = run();
    // ExtendedResourceToleration: the pod asking for the resource tolerates the node's taint of its name.
    assertThat(pod(r, "default/fpga").node()).contains("n1");
    // SchedulingGates: never bound, though the node has room.
    assertThat(pod(r, "default/gated").phase()).isEqualTo(PodState.Phase.PENDING);
    assertThat(pod(r, "default/gated").node()).isEmpty();
    // NodePorts: one node, one holder of port 9100.
    assertThat(java.util.List.of(pod(r, "default/port-a").node(), pod(r, "default/port-b").node()))
        .containsExactlyInAnyOrder(Optional.of("n1"), Optional.empty());
    // Namespace labels: the namespaceSelector on team: x finds the anchor in research.
    assertThat(pod(r, "default/follower").node()).contains("n1");
  }

  @Test
  void withoutTheNamespaceObjectItsLabelIsUnknownAndTheFollowerWaits() {
    SimulationResult r = run(SCENARIO.replace("metadata: {name: research, labels: {team: x}}",
        "metadata: {name: research}"));
    assertThat(pod(r, "default/follower").node()).isEmpty();
    assertThat(pod(r, "default/follower").schedulingMessage()).isPresent();
  }

  private static final String GATED_ON_THE_LAB = """
      apiVersion: gpufleet.io/v1alpha1
      kind: Scenario
      metadata: {name: gated-lab}
      spec:
        cluster:
        - file: cluster.yaml
        - apiVersion: v1
          kind: Pod
          metadata: {name: big}
          spec:
            schedulingGates: [{name: example.com/quota}]
            containers:
            - name: c
              image: busybox
              resources: {requests: {cpu: "6"}, limits: {nvidia.com/gpu: 1}}
        devicePlugin: {configMap: nvidia-device-plugin/nvidia-device-plugin-configs}
        steps:
        - title: Wait
          actions:
          - wait: 15m
      """;

  /** Nodes Karpenter launched (the lab starts with one node of its own). */
  private static long launched(SimulationResult r) {
    return r.record().of(io.gpufleet.sim.record.RunRecord.Kind.NODE_REGISTERED).size();
  }

  @Test
  void karpenterProvisionsNothingForAGatedPod() {
    ScenarioSources lab = ScenarioSources.directory(Path.of("..", "examples", "lab"));
    SimulationResult gated = Simulation.run(ScenarioReader.read("s.yaml", GATED_ON_THE_LAB, lab).scenario());
    assertThat(launched(gated)).isZero();
    assertThat(pod(gated, "default/big").node()).isEmpty();
    // The control: ungated, the pod (6 CPUs, more than the lab's g5.xlarge has) brings a node of the
    // GPU pool, whose taint it tolerates only through ExtendedResourceToleration.
    SimulationResult free = Simulation.run(ScenarioReader.read("s.yaml",
        GATED_ON_THE_LAB.replace("schedulingGates: [{name: example.com/quota}]", "priority: 0"), lab).scenario());
    assertThat(launched(free)).isEqualTo(1);
    assertThat(pod(free, "default/big").node()).isPresent();
  }
}
