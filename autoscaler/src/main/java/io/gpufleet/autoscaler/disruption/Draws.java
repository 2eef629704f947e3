package io.gpufleet.autoscaler.disruption;

import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * A random stream that notes the calls made of it, so that a later stream can be moved on by the
 * same calls without the work that made them: a search that reuses a simulation's answer leaves the
 * stream where running the simulation would have, and every later draw (names of replacements and
 * commands) is the same. Calls are {@code nextInt(bound)} (how names are drawn) and {@code nextLong()},
 * through which every other draw of a {@link RandomGenerator} goes.
 */
final class Draws implements RandomGenerator {

  /** The bound of each {@code nextInt(bound)} call in order; 0 for a {@code nextLong()}. */
  private final List<Integer> calls = new ArrayList<>();
  private final RandomGenerator stream;

  Draws(RandomGenerator stream) {
    this.stream = stream;
  }

  @Override
  public long nextLong() {
    calls.add(0);
    return stream.nextLong();
  }

  @Override
  public int nextInt(int bound) {
    calls.add(bound);
    return stream.nextInt(bound);
  }

  /** The calls made so far, to {@link #replay} later. */
  int[] calls() {
    int[] out = new int[calls.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = calls.get(i);
    }
    return out;
  }

  /** Makes {@code calls} of {@code stream}, in order, as the stream they were noted on did. */
  static void replay(int[] calls, RandomGenerator stream) {
    for (int bound : calls) {
      if (bound == 0) {
        stream.nextLong();
      } else {
        stream.nextInt(bound);
      }
    }
  }
}
