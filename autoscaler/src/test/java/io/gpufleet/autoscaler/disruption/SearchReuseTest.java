package io.gpufleet.autoscaler.disruption;

import static io.gpufleet.autoscaler.disruption.DisruptionViews.T0;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.node;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.pool;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.view;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.autoscaler.testing.Fixtures;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.pod.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The single-node search reuses the failures of earlier polls over the same inputs: a controller kept
 * across a sequence of polls must propose what a new controller proposes at each poll, and leave the
 * poll's random stream where it does, so every later name is the same.
 */
class SearchReuseTest {

  private static final String[] TYPES = {"m5.large", "m5.xlarge", "m5.2xlarge"};

  @Test
  void aKeptControllerProposesAsANewOneAndDrawsTheSame() {
    NodePool pool = pool();
    int reused = 0;
    int proposed = 0;
    for (long seed = 1; seed <= 60; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      List<StateNode> nodes = new ArrayList<>();
      int made = 0;
      for (int i = 0, count = 2 + r.nextInt(6); i < count; i++) {
        nodes.add(draw(r, pool, made++));
      }
      DisruptionController kept = UnconsolidatableTest.controller(pool);
      SplittableRandom keptStream = new SplittableRandom(seed * 31);
      SplittableRandom freshStream = new SplittableRandom(seed * 31);
      Instant now = T0.plus(Duration.ofHours(1));
      for (int step = 0; step < 12; step++) {
        now = now.plus(Duration.ofSeconds(10 + r.nextInt(300)));
        if (r.nextBoolean()) {
          nodes.set(r.nextInt(nodes.size()), draw(r, pool, made++));
        } else {
          reused++;
        }
        ClusterView v = view(now, pool, List.copyOf(nodes));
        Optional<DisruptionCommand> a = kept.poll(v, keptStream);
        Optional<DisruptionCommand> b = UnconsolidatableTest.controller(pool).poll(v, freshStream);
        assertThat(a).as("seed %d step %d", seed, step).isEqualTo(b);
        assertThat(keptStream.nextLong()).as("seed %d step %d: the stream moved alike", seed, step)
            .isEqualTo(freshStream.nextLong());
        proposed += a.isPresent() ? 1 : 0;
      }
    }
    assertThat(reused).isGreaterThan(200);
    assertThat(proposed).isBetween(50, 650);
  }

  /** A node whose one to three pods of 0.25 to 3.5 CPUs may fit elsewhere, or on a cheaper node, or not. */
  private static StateNode draw(SplittableRandom r, NodePool pool, int index) {
    List<Pod> pods = new ArrayList<>();
    for (int j = 1 + r.nextInt(3); j > 0; j--) {
      pods.add(Fixtures.cpuPod("p" + index + "-" + j, (250 * (1 + r.nextInt(14))) + "m", "1Gi"));
    }
    return node(pool, TYPES[r.nextInt(TYPES.length)], 100 + index, pods.toArray(Pod[]::new));
  }
}
