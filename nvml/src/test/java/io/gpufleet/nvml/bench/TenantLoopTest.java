package io.gpufleet.nvml.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TenantLoopTest {

  /** Time that moves only when the workload serves or the loop sleeps. */
  static final class FakeTime implements Ticker {
    long now = 1_000;

    @Override
    public long nanos() {
      return now;
    }

    @Override
    public void sleepUntil(long deadline) {
      now = Math.max(now, deadline);
    }
  }

  /** Each request takes {@code serviceNanos} of the fake time and as much GPU time. */
  record FixedService(FakeTime time, long serviceNanos) implements Workload {
    @Override
    public void request() {
      time.now += serviceNanos;
    }

    @Override
    public double gpuMillis() {
      return 0;
    }

    @Override
    public void close() {}
  }

  private static final long MS = 1_000_000;

  @Test
  void closedLoopSendsBackToBackUntilTheEnd() {
    FakeTime t = new FakeTime();
    TenantRun run = TenantLoop.run(new FixedService(t, 10 * MS), new Arrivals.Closed(), 1_000 * MS, t);
    assertThat(run.latencyNanos()).hasSize(100).containsOnly(10 * MS);
    assertThat(run.elapsedNanos()).isEqualTo(1_000 * MS);
  }

  @Test
  void openLoopLatencyIsServiceTimeWhenIdleAndGrowsWhenBehind() {
    FakeTime t = new FakeTime();
    TenantRun light = TenantLoop.run(new FixedService(t, MS / 10), new Arrivals.Poisson(10, 3), 100_000 * MS, t);
    // 10/s over 100 s: about 1000 arrivals, each served alone in 0.1 ms.
    assertThat(light.latencyNanos().size()).isBetween(900, 1100);
    assertThat(light.latencyNanos().stream().filter(l -> l == MS / 10).count())
        .isGreaterThan(light.latencyNanos().size() * 99L / 100);
    FakeTime t2 = new FakeTime();
    TenantRun heavy = TenantLoop.run(new FixedService(t2, 90 * MS), new Arrivals.Poisson(10, 3), 100_000 * MS, t2);
    // At 90% load requests queue behind each other: the tail is many service times.
    List<Long> sorted = heavy.latencyNanos().stream().sorted().toList();
    assertThat(SharingRow.quantile(sorted, 0.99)).isGreaterThan(5 * 90 * MS);
    assertThat(sorted.getFirst()).isEqualTo(90 * MS);
  }

  @Test
  void theSameSeedGivesTheSameArrivalsAndAnotherSeedOthers() {
    FakeTime a = new FakeTime();
    FakeTime b = new FakeTime();
    FakeTime c = new FakeTime();
    TenantRun ra = TenantLoop.run(new FixedService(a, 3 * MS), new Arrivals.Poisson(60, 1), 5_000 * MS, a);
    TenantRun rb = TenantLoop.run(new FixedService(b, 3 * MS), new Arrivals.Poisson(60, 1), 5_000 * MS, b);
    TenantRun rc = TenantLoop.run(new FixedService(c, 3 * MS), new Arrivals.Poisson(60, 2), 5_000 * MS, c);
    assertThat(ra).isEqualTo(rb);
    assertThat(rc.latencyNanos()).isNotEqualTo(ra.latencyNanos());
  }

  @Test
  void eachTenantOfARunDrawsItsOwnStream() {
    Arrivals.Settings s = new Arrivals.Settings(6, 60, 1);
    assertThat(s.forTenant(1)).isEqualTo(new Arrivals.Poisson(60, 2));
    assertThat(s.forTenant(2)).isEqualTo(new Arrivals.Poisson(60, 3));
    assertThat(new Arrivals.Settings(6, 0, 1).forTenant(1)).isEqualTo(new Arrivals.Closed());
  }
}
