package io.gpufleet.engine.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link IdleArrival}: fitted to a lone tenant's open-loop row, and what it does to a tenant's queue. */
class IdleArrivalTest {

  @Test
  void aShiftedExponentialHasTheQuantilesItWasBuiltFrom() {
    IdleArrival d = IdleArrival.ofQuantiles(1.0, 4.0);
    assertThat(d.cdf(1.0)).isCloseTo(0.5, within(1e-12));
    assertThat(d.cdf(4.0)).isCloseTo(0.99, within(1e-12));
    assertThat(d.cdf(d.offsetMs() - 1e-9)).isZero();
    // Too wide a spread for an offset of 0 or more: offset 0, and only a share of arrivals start cold.
    IdleArrival wide = IdleArrival.ofQuantiles(0.1, 10.0);
    assertThat(wide.offsetMs()).isZero();
    assertThat(wide.coldShare()).isBetween(0.5, 1.0);
    assertThat(wide.cdf(0.1)).isCloseTo(0.5, within(1e-9));
    assertThat(wide.cdf(10.0)).isCloseTo(0.99, within(1e-9));
    assertThat(wide.meanMs()).isCloseTo(wide.coldShare() * wide.tailMs(), within(1e-12));
    // A p50 of 0: half the arrivals take nothing.
    IdleArrival half = IdleArrival.ofQuantiles(0, 10.0);
    assertThat(half.coldShare()).isEqualTo(0.5);
    assertThat(half.cdf(0)).isEqualTo(0.5);
    assertThat(half.cdf(10.0)).isCloseTo(0.99, within(1e-12));
  }

  @Test
  void theTwoFormsMeetWhereTheOffsetReachesZero() {
    // At p99 = p50 · ln 100 / ln 2 the shifted exponential starts at 0 with every arrival cold.
    double p50 = 1.0;
    double edge = p50 * Math.log(100) / Math.log(2);
    IdleArrival below = IdleArrival.ofQuantiles(p50, edge * (1 - 1e-9));
    IdleArrival above = IdleArrival.ofQuantiles(p50, edge * (1 + 1e-9));
    assertThat(below.coldShare()).isEqualTo(1.0);
    assertThat(above.offsetMs()).isZero();
    for (double x : new double[] {0.5, 1, 3, 10}) {
      assertThat(above.cdf(x)).isCloseTo(below.cdf(x), within(1e-6));
    }
  }

  @Test
  void theFitReproducesTheLoneRowItsQueueingIncluded() {
    // A lone small tenant: 2.6 ms back to back; at 20/s open loop its p50 3.6 ms and p99 7.0 ms.
    IdleArrival d = IdleArrival.fit(2.6, 20, 3.6, 7.0);
    TenantQueue q = new TenantQueue(0.020, 1, ServiceTimes.fixed(2.6), d);
    assertThat(q.percentileMs(0.50)).isCloseTo(3.6, within(1e-4));
    assertThat(q.percentileMs(0.99)).isCloseTo(7.0, within(1e-4));
  }

  @Test
  void aLongTailedLoneRowIsReproducedAtBothQuantiles() {
    // run-4's big lone row under time-slicing: 4.55 ms back to back; at 10/s p50 4.99, p99 9.45 ms.
    // No shifted exponential from 0 has both; the fit takes the cold share instead.
    IdleArrival d = IdleArrival.fit(4.55, 10, 4.99, 9.45);
    assertThat(d.coldShare()).isLessThan(1.0);
    TenantQueue q = new TenantQueue(0.010, 1, ServiceTimes.fixed(4.55), d);
    assertThat(q.percentileMs(0.50)).isCloseTo(4.99, within(1e-4));
    assertThat(q.percentileMs(0.99)).isCloseTo(9.45, within(1e-4));
  }

  @Test
  void aLoneRowNoSlowerThanTheQueueAloneGivesNoExtraTime() {
    TenantQueue plain = new TenantQueue(0.020, 1, ServiceTimes.fixed(2.6));
    IdleArrival d = IdleArrival.fit(2.6, 20, plain.percentileMs(0.5), plain.percentileMs(0.99));
    assertThat(d.meanMs()).isCloseTo(0, within(1e-5));
  }

  @Test
  void withoutExtraTimeTheQueueIsTheOldOneBitForBit() {
    ServiceTimes s = new ServiceTimes(java.util.List.of(2.0, 5.0), java.util.List.of(0.7, 0.3));
    TenantQueue a = new TenantQueue(0.1, 1.3, s);
    TenantQueue b = new TenantQueue(0.1, 1.3, s, IdleArrival.NONE);
    assertThat(a.percentileMs(0.99)).isEqualTo(b.percentileMs(0.99));
    assertThat(a.meanLatencyMs()).isEqualTo(b.meanLatencyMs());
  }

  @Test
  void requestsThatWaitPayNoExtraTimeSoItMattersLessUnderLoad() {
    IdleArrival d = new IdleArrival(1.0, 0.5);
    ServiceTimes s = ServiceTimes.fixed(2.6);
    double light = new TenantQueue(0.02, 1, s, d).percentileMs(0.5) - new TenantQueue(0.02, 1, s).percentileMs(0.5);
    double heavy = new TenantQueue(0.3, 1, s, d).meanLatencyMs() - new TenantQueue(0.3, 1, s).meanLatencyMs();
    double lightMean = new TenantQueue(0.02, 1, s, d).meanLatencyMs() - new TenantQueue(0.02, 1, s).meanLatencyMs();
    assertThat(light).isGreaterThan(1.0);
    assertThat(heavy).isLessThan(lightMean);
  }

  @Test
  void theCurveTakesItsLoneRowAndKeepsItWhenScaled() {
    CapacityCurve c = new CapacityCurve("small", "mps", Map.of(1, 400.0, 2, 700.0));
    var lone = java.util.List.of(new io.gpufleet.model.advise.OpenLoopRow("small", "mps", 1, 20, 20, 3.6, 7.0),
        new io.gpufleet.model.advise.OpenLoopRow("small", "time-slicing", 1, 20, 20, 9.0, 19.0));
    CapacityCurve fitted = CapacityCurve.of(java.util.List.of(
        new io.gpufleet.model.advise.ClosedLoopRow("small", "mps", 1, 400.0, 2.5, 2.6),
        new io.gpufleet.model.advise.ClosedLoopRow("small", "mps", 2, 700.0, 2.9, 3.3)), lone, "small", "mps");
    assertThat(fitted.idle()).isEqualTo(IdleArrival.fit(2.5, 20, 3.6, 7.0));
    assertThat(fitted.scaled(3).idle()).isEqualTo(fitted.idle());
    assertThat(c.idle().none()).isTrue();
  }

  @Test
  void aLoneRowTheTenantCannotServeIsRefused() {
    assertThatThrownBy(() -> IdleArrival.fit(2.6, 500, 3.6, 7.0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("offers more than one tenant serves");
  }
}
