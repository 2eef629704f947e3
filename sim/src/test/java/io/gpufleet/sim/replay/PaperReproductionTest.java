package io.gpufleet.sim.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.gpufleet.engine.placement.PolicyKind;
import io.gpufleet.manifest.openb.OpenbTrace;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The FGD paper's table on the vendored trace: allocation at 130% arrived, mean of seeds 42–51.
 * Published: Random 87.47, DotProduct 90.85, GpuClustering 91.88, GpuPacking 92.00, BestFit 93.08,
 * FGD 95.39. Our generator is not Go's, so means are expected within noise, not to the digit.
 */
class PaperReproductionTest {

  private static final Map<PolicyKind, Double> MEANS = new LinkedHashMap<>();
  private static ReplayWorkload workload;

  @BeforeAll
  static void replay() throws IOException, InterruptedException {
    OpenbTrace trace = new OpenbTrace(Path.of("..", "data", "openb"));
    ReplayCluster cluster = ReplayCluster.of(trace.gpuNodes());
    workload = ReplayWorkload.of("default", trace.pods("default"), ReplayProtocol.PAPER);
    List<SweepCell> cells = new ArrayList<>();
    for (PolicyKind p : PolicyKind.values()) {
      for (long s = 42; s <= 51; s++) {
        cells.add(new SweepCell("default", p, s));
      }
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Runtime.getRuntime().availableProcessors()));
    try {
      for (SweepOutcome o : ReplaySweep.run(cluster, Map.of("default", workload), cells, ReplayProtocol.PAPER, pool,
          SweepProgress.SILENT)) {
        MEANS.merge(o.cell().policy(), o.summary().allocAtTarget() / 10, Double::sum);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void theTypicalPodsAreTheTop35Of91ShapesCovering95Point26Percent() {
    assertThat(workload.typical().size()).isEqualTo(35);
    assertThat(workload.typical().distinctShapes()).isEqualTo(91);
    assertThat(workload.typical().coverage()).isCloseTo(0.9526, within(0.00005));
  }

  @Test
  void bestFitAndFgdLandWithinHalfAPointOfThePaper() {
    assertThat(MEANS.get(PolicyKind.BEST_FIT)).isCloseTo(93.08, within(0.5));
    assertThat(MEANS.get(PolicyKind.FGD)).isCloseTo(95.39, within(0.5));
  }

  @Test
  void thePoliciesRankAsInThePaper() {
    List<Double> paperOrder = PolicyKind.PAPER.stream().map(MEANS::get).toList();
    assertThat(paperOrder).isSorted();
  }

  @Test
  void fgdCpuBeatsFgd() {
    assertThat(MEANS.get(PolicyKind.FGD_CPU)).isGreaterThan(MEANS.get(PolicyKind.FGD));
  }
}
