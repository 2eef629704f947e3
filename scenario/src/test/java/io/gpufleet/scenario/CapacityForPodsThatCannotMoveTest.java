package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord.Entry;
import io.gpufleet.sim.record.RunRecord.Kind;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A GPU node expires under a pod whose {@code karpenter.sh/do-not-disrupt: 90m} still protects it.
 * Upstream's provisioner plans only for the pods of deleting nodes that can move now
 * ({@code K:pkg/controllers/provisioning/provisioner.go} Schedule, {@code nodes.Deleting().CurrentlyReschedulablePods};
 * {@code K:pkg/utils/pdb/pdb.go} IsCurrentlyReschedulable), so no second GPU node is launched until the
 * protection runs out and the drain evicts the pod; without the annotation the replacement is
 * launched as soon as the claim starts deleting (the pod moves only after its 30 s grace).
 */
class CapacityForPodsThatCannotMoveTest {

  private static final String SCENARIO = """
      apiVersion: gpufleet.io/v1alpha1
      kind: Scenario
      metadata: {name: expiry-under-do-not-disrupt}
      spec:
        seed: 3
        cluster:
        - apiVersion: karpenter.k8s.aws/v1
          kind: EC2NodeClass
          metadata: {name: gpu}
          spec: {amiSelectorTerms: [{alias: bottlerocket@latest}]}
        - apiVersion: karpenter.sh/v1
          kind: NodePool
          metadata: {name: gpu}
          spec:
            template:
              spec:
                nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: gpu}
                expireAfter: 1h
                requirements:
                - {key: karpenter.k8s.aws/instance-family, operator: In, values: [g6]}
                - {key: karpenter.k8s.aws/instance-gpu-count, operator: In, values: ["1"]}
                - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
            disruption: {consolidationPolicy: WhenEmpty, consolidateAfter: 10m}
        - apiVersion: apps/v1
          kind: Deployment
          metadata: {name: train}
          spec:
            replicas: 1
            selector: {matchLabels: {app: train}}
            template:
              metadata:
                labels: {app: train}
                annotations: ANNOTATIONS
              spec:
                terminationGracePeriodSeconds: 30
                containers:
                - name: worker
                  image: ghcr.io/example/trainer:2.1
                  resources: {requests: {cpu: "1", memory: 4Gi}, limits: {nvidia.com/gpu: 1}}
        steps:
        - id: "1"
          title: The pod runs on a fresh GPU node, which expires after an hour
          actions:
          - waitUntil: {condition: {readyPods: {workload: Deployment/train, equals: 1}}, timeout: 15m}
          - wait: 2h30m
          - expect:
              that: the pod runs again
              condition: {readyPods: {workload: Deployment/train, equals: 1}}
      """;

  private static SimulationResult run(String annotations) {
    ScenarioFile f = ScenarioReader.read("expiry.yaml", SCENARIO.replace("ANNOTATIONS", annotations),
        ScenarioSources.directory(Path.of(".")));
    SimulationResult r = Simulation.run(f.scenario());
    assertThat(r.violations()).isEmpty();
    assertThat(r.allExpectationsPassed()).as(r.expectations().toString()).isTrue();
    return r;
  }

  private static Instant first(SimulationResult r, Kind kind) {
    return r.record().of(kind).stream().map(Entry::time).findFirst()
        .orElseThrow(() -> new AssertionError("no " + kind));
  }

  private static List<Instant> launches(SimulationResult r) {
    return r.record().of(Kind.NODECLAIM_LAUNCHED).stream().map(Entry::time).toList();
  }

  @Test
  void noReplacementIsLaunchedWhileTheDoNotDisruptPodCannotMove() {
    SimulationResult r = run("{karpenter.sh/do-not-disrupt: 90m}");
    // The protection runs from the pod's status.startTime, which the kubelet sets on admission, before
    // the image pull (IsDoNotDisruptActive): here the binding.
    Instant movable = first(r, Kind.POD_SCHEDULED).plus(Duration.ofMinutes(90));
    Instant deleting = first(r, Kind.NODECLAIM_DELETING);
    assertThat(deleting).isBefore(movable.minus(Duration.ofMinutes(20))); // expiry came well before
    List<Instant> launches = launches(r);
    assertThat(launches).hasSizeGreaterThanOrEqualTo(2);
    assertThat(launches.get(1)).isAfterOrEqualTo(movable).isAfterOrEqualTo(first(r, Kind.POD_EVICTED));
  }

  @Test
  void withoutTheAnnotationTheReplacementIsLaunchedAtOnce() {
    SimulationResult r = run("{}");
    Instant deleting = first(r, Kind.NODECLAIM_DELETING);
    List<Instant> launches = launches(r);
    assertThat(launches).hasSizeGreaterThanOrEqualTo(2); // the replacement expires in its turn
    assertThat(Duration.between(deleting, launches.get(1))).isLessThan(Duration.ofMinutes(1));
  }
}
