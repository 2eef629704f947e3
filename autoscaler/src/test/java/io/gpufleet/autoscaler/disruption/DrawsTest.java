package io.gpufleet.autoscaler.disruption;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.workload.PodNames;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/** Replaying the noted calls moves a stream as making them did. */
class DrawsTest {

  @Test
  void aReplayLeavesTheStreamWhereTheCallsWould() {
    for (long seed = 1; seed <= 200; seed++) {
      SplittableRandom made = new SplittableRandom(seed * 7);
      Draws noted = new Draws(made);
      calls(new SplittableRandom(seed), noted);
      SplittableRandom replayed = new SplittableRandom(seed * 7);
      Draws.replay(noted.calls(), replayed);
      assertThat(replayed.nextLong()).as("seed %d", seed).isEqualTo(made.nextLong());
    }
  }

  /** Calls of the kinds a simulation may make: names as replacements draw them, bounded ints, doubles. */
  private static void calls(SplittableRandom r, RandomGenerator stream) {
    for (int i = r.nextInt(5); i > 0; i--) {
      switch (r.nextInt(3)) {
        case 0 -> PodNames.suffix(stream, 1 + r.nextInt(8));
        case 1 -> stream.nextInt(1 + r.nextInt(1000));
        default -> stream.nextDouble();
      }
    }
  }
}
