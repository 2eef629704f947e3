package io.gpufleet.engine.perf;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.advise.ClosedLoopRow;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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

  /**
   * Capped MPS shaped like the H100's run-1 {@code big} rows: back to back the cap never binds
   * (N=2 at 50% 236 req/s, as uncapped), 216 req/s alone.
   */
  private static final Map<Integer, Double> CAPPED = Map.of(1, 216.0, 2, 236.0, 4, 241.0, 8, 242.0);

  @Test
  void aLoneCappedClientSlowerThanUncappedRaisesLightLoadLatencies() {
    CapacityCurve today = new CapacityCurve("big", "mps-capped", CAPPED);
    // Synthetic lone capped clients: 12% of the SMs stream a request in 10 ms instead of 4.6 ms.
    CapacityCurve solo = new CapacityCurve("big", "mps-capped", CAPPED, Map.of(2, 180.0, 4, 140.0, 8, 100.0));
    for (double rate : new double[] {2, 15, 25}) {
      OpenLoopForecast before = MeasuredQueueing.predict(today, 8, rate);
      OpenLoopForecast after = MeasuredQueueing.predict(solo, 8, rate);
      assertThat(after.p50Ms()).as("p50 at %s/s", rate).isGreaterThan(before.p50Ms());
      assertThat(after.p99Ms()).as("p99 at %s/s", rate).isGreaterThan(before.p99Ms());
      // The cap does not change the card's capacity with all 8 busy.
      assertThat(after.load()).isEqualTo(before.load());
    }
    // Nearly alone (2/s each), a request takes at least the lone capped 10 ms: the p50 sits on it.
    OpenLoopForecast light = MeasuredQueueing.predict(solo, 8, 2);
    assertThat(light.p50Ms()).isBetween(10.0, 10.5);
    assertThat(MeasuredQueueing.predict(today, 8, 2).p50Ms()).isLessThan(4.7);
  }

  @Test
  void aCapThatNeverBindsAndAbsentRowsLeaveThePredictionAsItWas() {
    SplittableRandom random = new SplittableRandom(33);
    for (int trial = 0; trial < 100; trial++) {
      Map<Integer, Double> x = Map.of(1, 200 + 100 * random.nextDouble(), 2, 300 + 100 * random.nextDouble(),
          4, 400 + 100 * random.nextDouble(), 8, 500 + 100 * random.nextDouble());
      CapacityCurve today = new CapacityCurve("small", "mps-capped", x);
      // A lone capped client as fast as an uncapped one: never slower than the shared curve.
      CapacityCurve idle = new CapacityCurve("small", "mps-capped", x, Map.of(2, x.get(1), 4, x.get(1), 8, x.get(1)));
      int n = 2 + random.nextInt(7);
      double rate = (0.05 + 0.85 * random.nextDouble()) * x.get(8) / n;
      assertThat(MeasuredQueueing.predict(idle, n, rate)).isEqualTo(MeasuredQueueing.predict(today, n, rate));
      assertThat(MeasuredQueueing.predict(CapacityCurve.of(rows(x, Map.of()), "small", "mps-capped"), n, rate))
          .isEqualTo(MeasuredQueueing.predict(today, n, rate));
    }
  }

  @Test
  void withAllBusyTheClosedLoopRowStillDecides() {
    // Lone capped 5 ms; 8 busy share 820 req/s: 9.8 ms each, slower than the cap, as the rows measured.
    CapacityCurve c = new CapacityCurve("small", "mps-capped", Map.of(1, 500.0, 2, 600.0, 8, 820.0), Map.of(8, 200.0));
    assertThat(c.cappedAloneMs(8)).hasValue(5.0);
    OpenLoopForecast f = MeasuredQueueing.predict(c, 8, 90);
    assertThat(f.regime()).isEqualTo(OpenLoopForecast.Regime.STABLE);
    assertThat(MeasuredQueueing.predict(c, 8, 103).regime()).isEqualTo(OpenLoopForecast.Regime.OVERLOADED);
    assertThat(f.serviceMs()).isLessThanOrEqualTo(8 * 1000 / 820.0 + 1e-9).isGreaterThanOrEqualTo(5.0);
  }

  @Test
  void theLoneCappedRowsAreTakenRelativeToTheirOwnUncappedRowAndInterpolatedInTheShare() {
    Map<Integer, Double> x = Map.of(1, 400.0, 2, 600.0, 4, 800.0, 8, 900.0);
    // Measured in another session, 10% faster all round: solo N=1 (100%) at 440, N=2 (50%) at 330, N=8 (12%) at 220.
    CapacityCurve c = CapacityCurve.of(rows(x, Map.of(1, 440.0, 2, 330.0, 8, 220.0)), "small", "mps-capped");
    assertThat(c.cappedAlone()).containsOnlyKeys(2, 8);
    assertThat(c.cappedAloneMs(2).orElseThrow()).isCloseTo(1000 / 300.0, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(c.cappedAloneMs(8).orElseThrow()).isCloseTo(1000 / 200.0, org.assertj.core.api.Assertions.within(1e-9));
    // 4 tenants: 25% of the SMs, between 12% (200/s) and 50% (300/s).
    double x25 = 200 + (25 - 12) / (50.0 - 12) * 100;
    assertThat(c.cappedAloneMs(4).orElseThrow()).isCloseTo(1000 / x25, org.assertj.core.api.Assertions.within(1e-9));
    // 16 tenants (6%): below every share measured, the 12% time (a bound).
    assertThat(c.cappedAloneMs(16).orElseThrow()).isCloseTo(5.0, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(c.cappedAloneMs(1)).isEmpty();
    assertThat(c.cappedAloneUpTo()).isEqualTo(8);
    // Without a solo N=1 row the solo throughputs are taken as measured; scaled curves scale them.
    CapacityCurve raw = CapacityCurve.of(rows(x, Map.of(8, 220.0)), "small", "mps-capped");
    assertThat(raw.cappedAloneMs(8).orElseThrow()).isCloseTo(1000 / 220.0, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(raw.scaled(2).cappedAloneMs(8).orElseThrow()).isCloseTo(2000 / 220.0, org.assertj.core.api.Assertions.within(1e-9));
    // Other modes never carry them.
    assertThat(CapacityCurve.of(rows(x, Map.of(8, 220.0)), "small", "mps").cappedAlone()).isEmpty();
  }

  /** Capped rows {@code x} of {@code small}, the same as uncapped {@code mps} rows, and lone capped rows {@code solo}. */
  private static List<ClosedLoopRow> rows(Map<Integer, Double> x, Map<Integer, Double> solo) {
    List<ClosedLoopRow> out = new ArrayList<>();
    x.forEach((n, v) -> out.add(new ClosedLoopRow("small", "mps-capped", n, v, n * 1000 / v, n * 1000 / v)));
    x.forEach((n, v) -> out.add(new ClosedLoopRow("small", "mps", n, v, n * 1000 / v, n * 1000 / v)));
    solo.forEach((n, v) -> out.add(new ClosedLoopRow("small", "mps-capped-solo", n, v, 1000 / v, 1000 / v)));
    return out;
  }
}
