package io.gpufleet.nvml.bench;

/** The tenant loop's time: the monotonic clock in production, a fake in tests. */
public interface Ticker {

  long nanos();

  /** Returns at or after {@code deadline}; at once if it has passed. */
  void sleepUntil(long deadline);

  /** {@link System#nanoTime()}, sleeping through {@link Thread#sleep}. */
  Ticker SYSTEM = new Ticker() {
    @Override
    public long nanos() {
      return System.nanoTime();
    }

    @Override
    public void sleepUntil(long deadline) {
      long wait;
      while ((wait = deadline - System.nanoTime()) > 0) {
        try {
          Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  };
}
