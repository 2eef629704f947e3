package io.gpufleet.engine.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link MeasuredQueueing}: its regimes, its monotonicity, and its queue against a simulation. */
class MeasuredQueueingTest {

  /** One tenant alone: 2 ms per request (500 req/s); more tenants share the card as given. */
  private static CapacityCurve curve(double x2, double x4) {
    return new CapacityCurve("small", "time-slicing", Map.of(1, 500.0, 2, x2, 4, x4));
  }

  @Test
  void overloadAtCapacityAtAndAboveNinetyFivePercentOfIt() {
    CapacityCurve c = curve(400, 400);
    assertThat(MeasuredQueueing.predict(c, 4, 101).regime()).isEqualTo(OpenLoopForecast.Regime.OVERLOADED);
    assertThat(MeasuredQueueing.predict(c, 4, 99).regime()).isEqualTo(OpenLoopForecast.Regime.AT_CAPACITY);
    assertThat(MeasuredQueueing.predict(c, 4, 100).p99Ms()).isInfinite();
    assertThat(MeasuredQueueing.predict(c, 4, 96).regime()).isEqualTo(OpenLoopForecast.Regime.AT_CAPACITY);
    assertThat(MeasuredQueueing.predict(c, 4, 90).regime()).isEqualTo(OpenLoopForecast.Regime.STABLE);
    assertThat(MeasuredQueueing.predict(c, 4, 90).load()).isEqualTo(360.0 / 400);
  }

  @Test
  void aFlatCurveCostsMoreThanALinearOne() {
    // Time-slicing's flat capacity (the H100's small rows) against MPS-like overlap.
    double flat = MeasuredQueueing.predict(curve(400, 400), 4, 60).p99Ms();
    double overlap = MeasuredQueueing.predict(curve(1000, 2000), 4, 60).p99Ms();
    assertThat(flat).isGreaterThan(1.5 * overlap);
  }

  @Test
  void p50AndP99GrowWithTheRateOnSeededCurves() {
    SplittableRandom random = new SplittableRandom(32);
    // (to the percentile search's 1e-9 relative tolerance)
    for (int trial = 0; trial < 200; trial++) {
      double x2 = 300 + 700 * random.nextDouble();
      CapacityCurve c = curve(x2, x2 * (0.9 + 1.2 * random.nextDouble()));
      int n = 1 + random.nextInt(4);
      double previous50 = 0;
      double previous99 = 0;
      for (double rate = 5; ; rate += 5) {
        OpenLoopForecast f = MeasuredQueueing.predict(c, n, rate);
        if (!f.stable()) {
          // The card's load, or (where co-tenants stretch each request) a tenant's own queue, is full.
          assertThat(f.p99Ms()).isInfinite();
          break;
        }
        assertThat(f.p50Ms()).isGreaterThanOrEqualTo(previous50 * (1 - 1e-6));
        assertThat(f.p99Ms()).isGreaterThanOrEqualTo(previous99 * (1 - 1e-6)).isGreaterThanOrEqualTo(f.p50Ms());
        previous50 = f.p50Ms();
        previous99 = f.p99Ms();
      }
    }
  }

  @Test
  void oneTenantIsAnMd1QueueAsASimulationOfItGives() {
    CapacityCurve c = curve(400, 400);
    SplittableRandom random = new SplittableRandom(7);
    for (double rate : new double[] {100, 250, 400}) {
      OpenLoopForecast f = MeasuredQueueing.predict(c, 1, rate);
      // Lindley's recursion with 2 ms service and Poisson arrivals.
      int n = 400_000;
      double[] latency = new double[n];
      double wait = 0;
      for (int i = 0; i < n; i++) {
        latency[i] = wait + 2.0;
        double gap = -Math.log(1 - random.nextDouble()) * 1000 / rate;
        wait = Math.max(0, wait + 2.0 - gap);
      }
      Arrays.sort(latency);
      assertThat(f.p50Ms()).as("p50 at %s/s", rate).isCloseTo(latency[n / 2], org.assertj.core.api.Assertions.within(0.05 * latency[n / 2] + 0.02));
      assertThat(f.p99Ms()).as("p99 at %s/s", rate).isCloseTo(latency[(int) (0.99 * n)],
          org.assertj.core.api.Assertions.within(0.05 * latency[(int) (0.99 * n)]));
    }
  }
}
