package io.gpufleet.sim.kernel;

import java.time.Instant;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The discrete-event loop: takes the next event, moves the clock to it, hands it to the runtime,
 * until the runtime says stop or nothing is left.
 */
public final class Kernel {

  private final VirtualClock clock;
  private final EventQueue queue = new EventQueue();
  private long processed;

  public Kernel(Instant start) {
    this.clock = new VirtualClock(start);
  }

  public VirtualClock clock() {
    return clock;
  }

  public Instant now() {
    return clock.instant();
  }

  public EventQueue.Scheduled schedule(Instant at, Event event) {
    if (at.isBefore(clock.instant())) {
      at = clock.instant();
    }
    return queue.schedule(at, event);
  }

  public long processed() {
    return processed;
  }

  /** Runs events until {@code stop} returns true after one, or the queue is empty. */
  public void run(Consumer<Event> handler, BooleanSupplier stop) {
    while (!queue.isEmpty()) {
      EventQueue.Scheduled next = queue.poll();
      clock.advanceTo(next.time());
      processed++;
      handler.accept(next.event());
      if (stop.getAsBoolean()) {
        return;
      }
    }
  }
}
