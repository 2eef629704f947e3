package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A Capacity Block ended early by {@code expireReservation}: inside the 40-minute window Karpenter
 * deletes the claim at once, and EC2 takes the instance back 30 minutes before the end whether or
 * not its pod has finished draining (here a pod with an hour's grace).
 */
class CapacityBlockReclaimTest {

  static final String SCENARIO = """
      apiVersion: gpufleet.io/v1alpha1
      kind: Scenario
      metadata: {name: reclaim}
      spec:
        start: "2026-01-05T11:30:00Z"
        capacityReservations:
        - {id: cr-0abc, type: capacity-block, instanceType: p5.48xlarge, zone: us-east-1a, count: 1,
           start: "2026-01-05T11:30:00Z", end: "2026-01-06T11:30:00Z", price: 39.33}
        cluster:
        - apiVersion: karpenter.k8s.aws/v1
          kind: EC2NodeClass
          metadata: {name: default}
          spec: {capacityReservationSelectorTerms: [{id: cr-0abc}]}
        - apiVersion: karpenter.sh/v1
          kind: NodePool
          metadata: {name: train}
          spec:
            template:
              spec:
                nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                requirements:
                - {key: karpenter.sh/capacity-type, operator: In, values: [reserved, on-demand]}
                - {key: node.kubernetes.io/instance-type, operator: In, values: [p5.48xlarge]}
        - apiVersion: v1
          kind: Pod
          metadata: {name: worker}
          spec:
            terminationGracePeriodSeconds: 3600
            containers:
            - name: c
              image: trainer
              resources: {limits: {nvidia.com/gpu: 8}}
        steps:
        - title: run, then the block is ended
          actions:
          - waitUntil: {condition: {podReady: default/worker}, timeout: 30m}
          - expireReservation: {id: cr-0abc, in: 35m}
          - wait: 10m
      """;

  @Test
  void karpenterDeletesAtOnceAndEc2ReclaimsThirtyMinutesBeforeTheEnd() {
    ScenarioFile f = ScenarioReader.read("s.yaml", SCENARIO, ScenarioSources.directory(Path.of(".")));
    SimulationResult r = Simulation.run(f.scenario());
    assertThat(r.expectations()).allSatisfy(e -> assertThat(e.passed()).as(e.detail()).isTrue());
    List<RunRecord.Entry> launched = r.record().of(RunRecord.Kind.NODECLAIM_LAUNCHED);
    assertThat(launched).hasSize(1);
    assertThat(launched.getFirst().message()).startsWith("p5.48xlarge reserved");
    String claim = launched.getFirst().subject();
    Instant ended = r.record().of(RunRecord.Kind.SCENARIO).stream()
        .filter(e -> e.message().startsWith("capacity reservation ends")).findFirst().orElseThrow().time();
    Instant end = ended.plus(Duration.ofMinutes(35));
    assertThat(r.record().about(claim).stream().filter(e -> e.kind() == RunRecord.Kind.NODECLAIM_DELETING)
        .map(RunRecord.Entry::time)).containsExactly(ended);
    assertThat(r.record().about(claim).stream().filter(e -> e.kind() == RunRecord.Kind.NODE_TERMINATED)
        .map(RunRecord.Entry::time)).containsExactly(end.minus(Duration.ofMinutes(30)));
    assertThat(r.record().about(claim).stream().filter(e -> e.kind() == RunRecord.Kind.CAPACITY_RESERVATION))
        .extracting(RunRecord.Entry::message).singleElement().asString().startsWith("instance reclaimed by EC2");
  }
}
