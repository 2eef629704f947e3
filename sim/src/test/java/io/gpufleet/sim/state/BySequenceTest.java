package io.gpufleet.sim.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The primitive sort gives the order of the stable comparator sort it replaces, ties included. */
class BySequenceTest {

  @Test
  void sameOrderAsTheStableComparatorSort() {
    SplittableRandom random = new SplittableRandom(33_07);
    PodSpec spec = PodSpec.of(Container.of("c", "img", ResourceList.of("cpu", "1"), ResourceList.of("cpu", "1")));
    for (int trial = 0; trial < 500; trial++) {
      int n = random.nextInt(0, 400);
      // Small ranges force ties; the last kinds fall back to the comparator (negative, too large to pack).
      long bound = switch (trial % 5) {
        case 0 -> 5;
        case 1 -> 1_000;
        case 2 -> Long.MAX_VALUE / 2;
        default -> 1L << 40;
      };
      List<PodState> pods = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        long seq = random.nextLong(0, bound);
        if (trial % 7 == 3 && random.nextInt(10) == 0) {
          seq = -seq - 1;
        }
        pods.add(new PodState(new Pod(ObjectMeta.named("p" + i), spec), seq, Optional.empty(),
            PodState.Phase.PENDING, Optional.empty(), Instant.EPOCH, Optional.empty(), Optional.empty(),
            Optional.empty(), Optional.empty(), 0));
      }
      List<PodState> expected = new ArrayList<>(pods);
      expected.sort(Comparator.comparingLong(PodState::sequence));
      BySequence.sort(pods);
      assertThat(pods).as("trial %d", trial).containsExactlyElementsOf(expected);
      for (int i = 0; i < n; i++) {
        assertThat(pods.get(i)).as("trial %d row %d", trial, i).isSameAs(expected.get(i));
      }
    }
  }
}
