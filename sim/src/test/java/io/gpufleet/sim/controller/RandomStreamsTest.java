package io.gpufleet.sim.controller;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.random.RandomGenerator;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class RandomStreamsTest {

  static long[] draws(RandomGenerator g, int n) {
    return LongStream.range(0, n).map(i -> g.nextLong()).toArray();
  }

  @Test
  void aClaimsInterruptionStreamDependsOnlyOnTheSeedAndTheClaim() {
    RandomStreams quiet = new RandomStreams(42);
    RandomStreams busy = new RandomStreams(42);
    draws(busy.names(), 1000);
    draws(busy.tieBreaks(), 17);
    draws(busy.provisioning(), 3);
    draws(busy.disruption(), 99);
    draws(busy.interruptions("gpu-abcde"), 5);
    assertThat(draws(busy.interruptions("gpu-abcde"), 4)).containsExactly(draws(quiet.interruptions("gpu-abcde"), 4));
    assertThat(draws(busy.interruptions("gpu-abcde"), 4)).isNotEqualTo(draws(quiet.interruptions("gpu-fghij"), 4));
    assertThat(draws(new RandomStreams(43).interruptions("gpu-abcde"), 4))
        .isNotEqualTo(draws(quiet.interruptions("gpu-abcde"), 4));
  }

  @Test
  void drawsForOnePurposeDoNotShiftAnother() {
    RandomStreams a = new RandomStreams(7);
    RandomStreams b = new RandomStreams(7);
    draws(a.disruption(), 50);
    draws(a.names(), 50);
    draws(a.kueueRequeueJitter(), 50);
    assertThat(draws(a.provisioning(), 8)).containsExactly(draws(b.provisioning(), 8));
    assertThat(draws(a.tieBreaks(), 8)).containsExactly(draws(b.tieBreaks(), 8));
  }

  @Test
  void thePurposesGetDifferentStreams() {
    RandomStreams s = new RandomStreams(7);
    long[] names = draws(new RandomStreams(7).names(), 8);
    assertThat(draws(s.tieBreaks(), 8)).isNotEqualTo(names);
    assertThat(draws(s.provisioning(), 8)).isNotEqualTo(names);
    assertThat(draws(s.disruption(), 8)).isNotEqualTo(names);
    assertThat(draws(s.kueueRequeueJitter(), 8)).isNotEqualTo(names);
  }
}
