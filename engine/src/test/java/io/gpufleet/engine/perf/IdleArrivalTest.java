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
    // Too wide a spread for an offset of 0 or more: the p99 is kept.
    IdleArrival wide = IdleArrival.ofQuantiles(0.1, 10.0);
    assertThat(wide.offsetMs()).isZero();
    assertThat(wide.cdf(10.0)).isCloseTo(0.99, within(1e-12));
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
