package io.gpufleet.sim.kernel;

import java.time.Instant;
import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * Pending events ordered by time, then priority, then the sequence they were scheduled in, so two
 * runs with the same inputs process the same events in the same order.
 */
public final class EventQueue {

  /** An event due at an instant, with its tie-breakers. */
  public record Scheduled(Instant time, int priority, long sequence, Event event) {}

  private static final Comparator<Scheduled> ORDER = Comparator.comparing(Scheduled::time)
      .thenComparingInt(Scheduled::priority).thenComparingLong(Scheduled::sequence);

  private final PriorityQueue<Scheduled> queue = new PriorityQueue<>(ORDER);
  private long sequence;

  public Scheduled schedule(Instant time, Event event) {
    Scheduled s = new Scheduled(time, event.priority(), sequence++, event);
    queue.add(s);
    return s;
  }

  public Scheduled poll() {
    return queue.poll();
  }

  public Scheduled peek() {
    return queue.peek();
  }

  public boolean isEmpty() {
    return queue.isEmpty();
  }

  public int size() {
    return queue.size();
  }
}
