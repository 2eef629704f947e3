package io.gpufleet.report.timeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.sim.Checkpoint;
import io.gpufleet.sim.ImageListener;
import io.gpufleet.sim.state.ClusterState;
import io.gpufleet.testing.property.Gen;
import io.gpufleet.testing.property.Property;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrameLogTest {

  private static final ClusterState EMPTY = ClusterState.empty(InstanceCatalog.builtIn());
  private static final Instant T0 = Instant.parse("2026-01-05T00:00:00Z");

  private static ImageListener.Image image(int i) {
    return new ImageListener.Image(T0.plusSeconds(i), i, EMPTY, i);
  }

  @Test
  void staysWithinItsCapacityAndKeepsFirstAndLast() {
    Property.check(20261206L, 50, Gen.ints(4, 64), Gen.ints(1, 2_000), this::staysWithinItsCapacityAndKeepsFirstAndLast);
  }

  private void staysWithinItsCapacityAndKeepsFirstAndLast(int capacity, int offered) {
    FrameLog log = new FrameLog(capacity);
    for (int i = 0; i < offered; i++) {
      log.onImage(image(i));
    }
    List<Frame> frames = log.frames(List.of());
    assertThat(frames.size()).isLessThanOrEqualTo(capacity + 1);
    assertThat(frames.getFirst().time()).isEqualTo(T0);
    assertThat(frames.getLast().time()).isEqualTo(T0.plusSeconds(offered - 1));
    assertThat(log.thinned()).isEqualTo(offered > capacity);
    for (int i = 1; i < frames.size(); i++) {
      assertThat(frames.get(i).time()).isAfter(frames.get(i - 1).time());
    }
  }

  @Test
  void aCheckpointComesBeforeTheFirstImageRecordedAfterIt() {
    FrameLog log = new FrameLog(100);
    for (int i = 0; i < 5; i++) {
      log.onImage(image(i * 10));
    }
    List<Frame> frames = log.frames(List.of(new Checkpoint("a", T0.plusSeconds(15), EMPTY, 15),
        new Checkpoint("b", T0.plusSeconds(99), EMPTY, 99)));
    assertThat(frames).extracting(f -> f.checkpoint().orElse("-"))
        .containsExactly("-", "-", "a", "-", "-", "-", "b");
  }

  @Test
  void refusesATinyCapacity() {
    assertThatThrownBy(() -> new FrameLog(2)).isInstanceOf(IllegalArgumentException.class);
  }
}
