package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Kueue's topology-aware scheduling played in the simulator over EKS's network-node labels (the
 * decisions themselves are checked by the queue module's conformance suite). Six nodes under one
 * layer-2 switch: two under layer-3 node nn-a, four under nn-b. A 4-pod Job that requires one layer-3
 * node is admitted onto nn-b and each pod is pinned to one of its hosts; a 3-pod Job then fits under
 * no layer-3 node (nn-a has room for 2), waits with Kueue's TAS message, and is admitted onto nn-b
 * when the first Job completes.
 */
class KueueTopologySimulationTest {

  /** A node under layer-3 network node {@code layer3}, labelled as EKS labels it. */
  private static String node(String name, String layer3) {
    return "  - {apiVersion: v1, kind: Node, metadata: {name: %s, labels: {pool: tas, kubernetes.io/hostname: %s, "
        .formatted(name, name) + "topology.k8s.aws/network-node-layer-1: nn-1, topology.k8s.aws/network-node-layer-2: "
        + "nn-2, topology.k8s.aws/network-node-layer-3: %s}}, ".formatted(layer3)
        + "status: {allocatable: {cpu: \"8\", memory: 32Gi, pods: \"110\"}}}\n";
  }

  /** A Job of {@code pods} pods of 7 CPUs, all under one layer-3 network node. */
  private static String job(String name, int pods, String runFor) {
    return ("      - {apiVersion: batch/v1, kind: Job, metadata: {name: %s, labels: {kueue.x-k8s.io/queue-name: q}}, "
        + "spec: {parallelism: %d, completions: %d, template: {metadata: {annotations: {gpufleet.io/run-for: %s, "
        + "kueue.x-k8s.io/podset-required-topology: topology.k8s.aws/network-node-layer-3}}, spec: {restartPolicy: "
        + "Never, containers: [{name: c, image: trainer, resources: {requests: {cpu: \"7\"}}}]}}}}\n")
        .formatted(name, pods, pods, runFor);
  }

  static final String SCENARIO = "apiVersion: gpufleet.io/v1alpha1\nkind: Scenario\nmetadata: {name: kueue-tas}\n"
      + "spec:\n  cluster:\n" + node("n1", "nn-a") + node("n2", "nn-a") + node("n3", "nn-b") + node("n4", "nn-b")
      + node("n5", "nn-b") + node("n6", "nn-b")
      + "  - {apiVersion: kueue.x-k8s.io/v1beta2, kind: Topology, metadata: {name: aws}, spec: {levels: ["
      + "{nodeLabel: topology.k8s.aws/network-node-layer-1}, {nodeLabel: topology.k8s.aws/network-node-layer-2}, "
      + "{nodeLabel: topology.k8s.aws/network-node-layer-3}, {nodeLabel: kubernetes.io/hostname}]}}\n"
      + "  - {apiVersion: kueue.x-k8s.io/v1beta2, kind: ResourceFlavor, metadata: {name: tas}, "
      + "spec: {nodeLabels: {pool: tas}, topologyName: aws}}\n"
      + "  - {apiVersion: kueue.x-k8s.io/v1beta2, kind: ClusterQueue, metadata: {name: cq}, spec: {namespaceSelector: {}, "
      + "resourceGroups: [{coveredResources: [cpu], flavors: [{name: tas, resources: [{name: cpu, nominalQuota: 100}]}]}]}}\n"
      + "  - {apiVersion: kueue.x-k8s.io/v1beta2, kind: LocalQueue, metadata: {namespace: default, name: q}, "
      + "spec: {clusterQueue: cq}}\n"
      + "  steps:\n  - title: a 4-pod Job that needs one layer-3 network node\n    actions:\n    - apply:\n"
      + job("train", 4, "1h") + "    - wait: 5m\n"
      + "  - title: a 3-pod Job that fits under no layer-3 node until the first completes\n    actions:\n    - apply:\n"
      + job("next", 3, "30m")
      + "    - waitUntil: {condition: {events: {type: KueueEvent, reason: Admitted, object: default/next, atLeast: 1}}, "
      + "timeout: 3h}\n    - wait: 5m\n";

  static final SimulationResult RESULT = EksScenarioTest.run(SCENARIO);

  private static List<RunRecord.Entry> kueue(String workload, String reason) {
    return KueueTwoTeamsExampleTest.kueue(RESULT, workload, reason);
  }

  /** The nodes the Job's pods were bound to. */
  private static List<String> boundNodes(String job) {
    return RESULT.record().of(RunRecord.Kind.POD_SCHEDULED).stream().filter(e -> e.subject().startsWith("default/" + job
        + "-")).map(RunRecord.Entry::message).toList();
  }

  @Test
  void theFirstJobIsPlacedUnderTheLayer3NodeWithRoomAndEachPodPinnedToItsHost() {
    assertThat(RESULT.expectations()).allSatisfy(e -> assertThat(e.passed()).as(e.detail()).isTrue());
    assertThat(kueue("default/train", "Admitted")).hasSize(1);
    List<String> bound = boundNodes("train");
    assertThat(bound).hasSize(4);
    assertThat(String.join(" ", bound)).contains("n3").contains("n4").contains("n5").contains("n6")
        .doesNotContain("n1").doesNotContain("n2");
  }

  @Test
  void theSecondJobWaitsWithKueuesTopologyMessageAndIsAdmittedWhenTheFirstCompletes() {
    assertThat(kueue("default/next", "Pending").getFirst().message()).isEqualTo("Pending: couldn't assign flavors to "
        + "pod set main: topology \"aws\" allows to fit only 2 out of 3 pod(s). Total nodes: 6; excluded: resource "
        + "\"cpu\": 4");
    RunRecord.Entry trainDone = RESULT.record().about("Job/default/train").stream()
        .filter(e -> e.message().startsWith("Job complete")).findFirst().orElseThrow();
    Instant admitted = kueue("default/next", "Admitted").getFirst().time();
    assertThat(admitted).isEqualTo(trainDone.time());
    assertThat(boundNodes("next")).hasSize(3).noneMatch(m -> m.contains("n1") || m.contains("n2"));
  }
}
