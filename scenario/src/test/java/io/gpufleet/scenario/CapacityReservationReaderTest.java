package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.cloud.CapacityReservation;
import io.gpufleet.sim.scenario.ScenarioAction;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code spec.capacityReservations} and {@code expireReservation}: what they declare, and errors at their line. */
class CapacityReservationReaderTest {

  private static ScenarioFile read(String text) {
    return ScenarioReaderTest.read(text);
  }

  private static List<String> errors(String text) {
    return ScenarioReaderTest.errors(text);
  }

  @Test
  void declaresOdcrsAndCapacityBlocksWithTheirDefaults() {
    ScenarioFile f = read("""
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: t}
        spec:
          capacityReservations:
          - {id: cr-0aaa, instanceType: g6.xlarge, zone: us-east-1b, count: 3}
          - id: cr-0bbb
            type: capacity-block
            instanceType: p5.48xlarge
            zone: us-east-1a
            count: 2
            start: "2026-01-05T11:30:00Z"
            end: "2026-01-06T11:30:00Z"
            price: 39.33
            tags: {team: training}
            ownerID: "012345678901"
          steps:
          - title: end it
            actions:
            - expireReservation: {id: cr-0bbb, in: 2h}
            - expireReservation: {id: cr-0aaa}
        """);
    List<CapacityReservation> rs = f.scenario().reservations();
    assertThat(rs).hasSize(2);
    CapacityReservation odcr = rs.get(0);
    assertThat(odcr.type()).isEqualTo(CapacityReservation.Type.DEFAULT);
    assertThat(odcr.instanceMatchCriteria()).isEqualTo(CapacityReservation.MatchCriteria.OPEN);
    assertThat(odcr.start()).isEmpty();
    assertThat(odcr.end()).isEmpty();
    assertThat(odcr.price()).isEmpty();
    assertThat(odcr.ownerId()).isEqualTo(CapacityReservationReader.DEFAULT_OWNER);
    CapacityReservation block = rs.get(1);
    assertThat(block.type()).isEqualTo(CapacityReservation.Type.CAPACITY_BLOCK);
    assertThat(block.instanceMatchCriteria()).isEqualTo(CapacityReservation.MatchCriteria.TARGETED);
    assertThat(block.count()).isEqualTo(2);
    assertThat(block.start()).contains(Instant.parse("2026-01-05T11:30:00Z"));
    assertThat(block.end()).contains(Instant.parse("2026-01-06T11:30:00Z"));
    assertThat(block.price()).hasValue(39.33);
    assertThat(block.tags()).isEqualTo(Map.of("team", "training"));
    assertThat(block.ownerId()).isEqualTo("012345678901");
    assertThat(f.scenario().timeline()).contains(new ScenarioAction.ExpireReservation("cr-0bbb", Duration.ofHours(2)),
        new ScenarioAction.ExpireReservation("cr-0aaa", Duration.ZERO));
  }

  @Test
  void badDeclarationsAreErrorsAtTheirLineAndColumn() {
    assertThat(errors("""
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: t}
        spec:
          capacityReservations:
          - {id: CR-1, instanceType: g6.xlarge, zone: us-east-1a, count: 1}
          - {id: cr-2, instanceType: g9.huge, zone: us-east-1a, count: 1}
          - {id: cr-3, instanceType: g6.xlarge, zone: eu-west-1a, count: 0}
          - {id: cr-4, type: capacity-block, instanceType: p5.48xlarge, zone: us-east-1a, count: 1}
          - {id: cr-5, type: spot, instanceType: g6.xlarge, zone: us-east-1a, count: 1, size: 3}
          - {id: cr-6, instanceType: g6.xlarge, zone: us-east-1a, count: 1, start: "2026-01-06T00:00:00Z",
             end: "2026-01-05T00:00:00Z", price: free}
          - {id: cr-6, instanceType: g6.xlarge, zone: us-east-1a, count: 1}
          steps:
          - title: end
            actions:
            - expireReservation: {id: cr-9}
        """)).containsExactly(
        "s.yaml:6:10: spec.capacityReservations[0].id: expected an id matching ^cr-[0-9a-z]+$ (such as "
            + "cr-0123456789abcdef0), found \"CR-1\"",
        "s.yaml:7:30: spec.capacityReservations[1].instanceType: no instance type \"g9.huge\" in the instance catalogue",
        "s.yaml:8:47: spec.capacityReservations[2].zone: g6.xlarge is not offered in eu-west-1a; its zones: "
            + "us-east-1a, us-east-1b, us-east-1c",
        "s.yaml:8:66: spec.capacityReservations[2].count: expected a count of at least 1, found 0",
        "s.yaml:9:5: spec.capacityReservations[3]: a capacity-block reservation needs start",
        "s.yaml:9:5: spec.capacityReservations[3]: a capacity-block reservation needs end",
        "s.yaml:9:5: spec.capacityReservations[3]: a capacity-block reservation needs price (what EC2 bills per "
            + "instance-hour: the block's upfront price over its instance-hours)",
        "s.yaml:10:22: spec.capacityReservations[4].type: expected one of default, capacity-block, found \"spot\"",
        "s.yaml:10:81: spec.capacityReservations[4].size: unknown field \"size\"",
        "s.yaml:12:11: spec.capacityReservations[5].end: expected an end after the start (2026-01-06T00:00:00Z), "
            + "found 2026-01-05T00:00:00Z",
        "s.yaml:12:42: spec.capacityReservations[5].price: expected a non-negative number (dollars per "
            + "instance-hour), found the string \"free\"",
        "s.yaml:13:10: spec.capacityReservations[6].id: capacity reservation cr-6 is declared twice",
        "s.yaml:17:31: spec.steps[0].actions[0].expireReservation.id: no capacity reservation \"cr-9\" in "
            + "spec.capacityReservations; declared: cr-4, cr-6");
  }

  @Test
  void theReservedCapacityGateIsModelledOnlyOn() {
    assertThat(errors("""
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: t}
        spec:
          autoscaler: {featureGates: {ReservedCapacity: false}}
        """)).containsExactly("s.yaml:5:49: spec.autoscaler.featureGates[ReservedCapacity]: gpufleet models capacity "
        + "reservations with the feature gate ReservedCapacity on, its default; ReservedCapacity=false is not modelled");
  }
}
