package io.gpufleet.model.cloud;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.cloud.CapacityReservation.MatchCriteria;
import io.gpufleet.model.cloud.CapacityReservation.State;
import io.gpufleet.model.cloud.CapacityReservation.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** A reservation's state over its time, its prices, and which selector terms select it. */
class CapacityReservationTest {

  static final Instant START = Instant.parse("2026-01-05T11:30:00Z");
  static final Instant END = Instant.parse("2026-01-06T11:30:00Z");

  static CapacityReservation block() {
    return new CapacityReservation("cr-1", "p5.48xlarge", "us-east-1a", "111122223333", MatchCriteria.TARGETED,
        Map.of("team", "ml"), Type.CAPACITY_BLOCK, 2, Optional.of(START), Optional.of(END), OptionalDouble.of(39.33));
  }

  @Test
  void aCapacityBlockIsScheduledActiveExpiringFortyMinutesBeforeItsEndThenExpired() {
    CapacityReservation b = block();
    assertThat(b.state(START.minusSeconds(1))).isEqualTo(State.SCHEDULED);
    assertThat(b.state(START)).isEqualTo(State.ACTIVE);
    assertThat(b.state(END.minus(Duration.ofMinutes(40)).minusSeconds(1))).isEqualTo(State.ACTIVE);
    assertThat(b.state(END.minus(Duration.ofMinutes(40)))).isEqualTo(State.EXPIRING);
    assertThat(b.state(END)).isEqualTo(State.EXPIRED);
    assertThat(b.listed(START.minusSeconds(1))).isFalse();
    assertThat(b.listed(END.minus(Duration.ofMinutes(1)))).isTrue();
    assertThat(b.listed(END)).isFalse();
  }

  @Test
  void anOdcrIsNeverExpiringOnlyExpiredAtItsEnd() {
    CapacityReservation odcr = new CapacityReservation("cr-2", "g6.xlarge", "us-east-1a", "111122223333",
        MatchCriteria.OPEN, Map.of(), Type.DEFAULT, 1, Optional.empty(), Optional.of(END), OptionalDouble.empty());
    assertThat(odcr.state(END.minus(Duration.ofMinutes(1)))).isEqualTo(State.ACTIVE);
    assertThat(odcr.state(END)).isEqualTo(State.EXPIRED);
    assertThat(odcr.billedPrice(0.8048)).isEqualTo(0.8048); // an ODCR bills at on-demand
    assertThat(block().billedPrice(55.04)).isEqualTo(39.33); // a block bills at its stated price
    assertThat(block().endingAt(START.plusSeconds(60)).state(START.plusSeconds(60))).isEqualTo(State.EXPIRED);
  }

  @Test
  void aReservedOfferingIsPricedAtOnDemandOverTenMillionAndSortsFirst() {
    Offering o = Offering.reserved(block(), 55.04, 2, true);
    assertThat(o.pricePerHour()).isEqualTo(55.04 / 10_000_000.0);
    assertThat(o.reservationId()).contains("cr-1");
    Offering spot = new Offering(CapacityType.SPOT, "us-east-1a", 55.04 * 0.7, true);
    assertThat(InstanceType.OFFERING_ORDER.compare(o, spot)).isNegative();
  }

  @Test
  void selectorTermsSelectByIdOrByTagsOwnerAndCriteriaTogether() {
    CapacityReservation b = block();
    assertThat(CapacityReservationSelectorTerm.byId("cr-1").selects(b)).isTrue();
    assertThat(CapacityReservationSelectorTerm.byId("cr-9").selects(b)).isFalse();
    var anyTeam = new CapacityReservationSelectorTerm(Optional.empty(), Map.of("team", "*"), Optional.empty(),
        Optional.empty());
    assertThat(anyTeam.selects(b)).isTrue();
    var otherOwner = new CapacityReservationSelectorTerm(Optional.empty(), Map.of("team", "ml"),
        Optional.of("012345678901"), Optional.empty());
    assertThat(otherOwner.selects(b)).isFalse();
    var open = new CapacityReservationSelectorTerm(Optional.empty(), Map.of(), Optional.empty(),
        Optional.of(MatchCriteria.OPEN));
    assertThat(open.selects(b)).isFalse();
    var ownerOnly = new CapacityReservationSelectorTerm(Optional.empty(), Map.of(), Optional.of("111122223333"),
        Optional.empty());
    assertThat(ownerOnly.selects(b)).as("an owner alone makes no query").isFalse();
  }
}
