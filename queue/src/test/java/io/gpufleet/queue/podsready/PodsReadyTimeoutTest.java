package io.gpufleet.queue.podsready;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.queue.api.WaitForPodsReady;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The requeue backoff over seeded draws, against the formula Kueue's docs and {@code UpdateRequeueState}
 * state: after the n-th eviction the wait is {@code base * 2^(n-1)}, held at {@code max}, plus a jitter
 * below 0.0001 of it, and the requeue time is kept in whole seconds; past {@code backoffLimitCount}
 * the workload is deactivated instead.
 */
class PodsReadyTimeoutTest {

  @Test
  void theBackoffDoublesFromTheBaseUpToTheMaximumWithASmallJitter() {
    SplittableRandom gen = new SplittableRandom(42);
    Instant now = Instant.parse("2026-01-01T00:00:00Z");
    for (int i = 0; i < 2000; i++) {
      int base = gen.nextInt(1, 120);
      int max = gen.nextInt(base, 7200);
      int count = gen.nextInt(0, 20);
      WaitForPodsReady config = new WaitForPodsReady(Duration.ofMinutes(5), false,
          new WaitForPodsReady.RequeuingStrategy(WaitForPodsReady.Timestamp.EVICTION, Optional.empty(), base, max),
          Optional.empty());
      SplittableRandom draws = new SplittableRandom(gen.nextLong());
      var o = (PodsReadyTimeout.Evicted) PodsReadyTimeout.exceeded("ns/wl", "WaitForStart", count, config, now,
          draws::nextDouble);
      double want = Math.min(base * Math.pow(2, count), max);
      double waited = Duration.between(now, o.requeueAt()).toMillis() / 1000.0;
      assertThat(o.count()).isEqualTo(count + 1);
      assertThat(o.requeueAt().getNano()).isZero();
      assertThat(waited).as("base %d, max %d, count %d", base, max, count).isGreaterThan(want - 1)
          .isLessThanOrEqualTo(want * 1.0001);
    }
  }

  @Test
  void pastTheLimitTheWorkloadIsDeactivatedAndWithoutOneNever() {
    WaitForPodsReady limited = new WaitForPodsReady(Duration.ofMinutes(5), false,
        new WaitForPodsReady.RequeuingStrategy(WaitForPodsReady.Timestamp.EVICTION, Optional.of(3), 60, 3600),
        Optional.empty());
    Instant now = Instant.EPOCH;
    assertThat(PodsReadyTimeout.exceeded("a/b", "WaitForStart", 2, limited, now, () -> 0.5))
        .isInstanceOf(PodsReadyTimeout.Evicted.class);
    assertThat(PodsReadyTimeout.exceeded("a/b", "WaitForStart", 3, limited, now, () -> 0.5))
        .isInstanceOf(PodsReadyTimeout.Deactivated.class);
    assertThat(PodsReadyTimeout.exceeded("a/b", "WaitForStart", 1000, WaitForPodsReady.DEFAULT, now, () -> 0.5))
        .isInstanceOf(PodsReadyTimeout.Evicted.class);
  }
}
