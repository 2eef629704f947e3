package io.gpufleet.sim.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.placement.PolicyKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ReplaySweepTest {

  private static List<SweepOutcome> sweep(int threads, List<SweepCell> cells, SweepProgress progress)
      throws InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      return ReplaySweep.run(SmallCluster.cluster(), Map.of("a", SmallCluster.workload(1, 300), "b",
          SmallCluster.workload(2, 300)), cells, ReplayProtocol.PAPER, pool, progress);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void outcomesComeInCellOrderWhateverTheThreadCount() throws InterruptedException {
    List<SweepCell> cells = new ArrayList<>();
    for (String v : List.of("a", "b")) {
      for (PolicyKind p : List.of(PolicyKind.RANDOM, PolicyKind.FGD, PolicyKind.FGD_CPU)) {
        for (long s = 42; s < 45; s++) {
          cells.add(new SweepCell(v, p, s));
        }
      }
    }
    AtomicInteger calls = new AtomicInteger();
    List<SweepOutcome> one = sweep(1, cells, SweepProgress.SILENT);
    List<SweepOutcome> three = sweep(3, cells, (done, total, cell) -> {
      calls.incrementAndGet();
      assertThat(total).isEqualTo(cells.size());
    });
    assertThat(one).extracting(SweepOutcome::cell).containsExactlyElementsOf(cells);
    assertThat(three).isEqualTo(one);
    assertThat(calls).hasValue(cells.size());
  }
}
