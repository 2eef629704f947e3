package io.gpufleet.queue.podsready;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * Kueue's exponential backoff ({@code pkg/util/wait/backoff.go} NewBackoff and WaitTime over
 * apimachinery's {@code wait.Backoff} Step): the n-th step's duration is {@code initial * factor^(n-1)},
 * held at {@code cap} once a step would pass it, plus a jitter of up to {@code jitter} times itself. A
 * zero cap means none ({@code MaxInt64 / ceil(factor)}); zero or fewer iterations wait nothing.
 *
 * @param jitter the jitter factor; Kueue's workload controller uses 0.0001 ({@code pkg/controller/core/core.go})
 */
public record Backoff(Duration initial, Duration cap, double factor, double jitter) {

  /** The jitter of the requeue backoff after a PodsReady timeout ({@code requeuingBackoffJitter}, core.go). */
  public static final double REQUEUE_JITTER = 0.0001;

  /**
   * The wait of iteration {@code n}. Each upstream step draws its own jitter but only the last step's
   * duration is returned, so one draw from {@code random} (uniform in [0, 1), Go's {@code rand.Float64})
   * serves, and none when the jitter is zero.
   */
  public Duration waitTime(int iteration, DoubleSupplier random) {
    long capNanos = cap.isZero() ? (long) (Long.MAX_VALUE / Math.ceil(factor)) : cap.toNanos();
    long duration = initial.toNanos();
    long step = 0;
    boolean capped = false;
    for (int i = 0; i < iteration; i++) {
      step = duration;
      if (!capped && factor != 0) {
        long next = (long) (duration * factor);
        if (capNanos > 0 && next > capNanos) {
          next = capNanos;
          capped = true; // Steps = 0: the duration stays at the cap from now on
        }
        duration = next;
      }
      if (step == capNanos) {
        break; // WaitTime: "wait.Backoff caps at limit, no need to continue iterating"
      }
    }
    if (iteration <= 0) {
      return Duration.ZERO;
    }
    if (jitter > 0) {
      step += (long) (random.getAsDouble() * jitter * step);
    }
    return Duration.ofNanos(step);
  }
}
