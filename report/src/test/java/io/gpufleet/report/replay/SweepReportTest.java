package io.gpufleet.report.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.placement.PolicyKind;
import io.gpufleet.model.gpu.share.GpuDemand;
import io.gpufleet.model.gpu.share.ShareNode;
import io.gpufleet.model.gpu.share.ShareRequest;
import io.gpufleet.model.gpu.share.SharePod;
import io.gpufleet.sim.replay.ReplayCluster;
import io.gpufleet.sim.replay.ReplayCurve;
import io.gpufleet.sim.replay.ReplayProtocol;
import io.gpufleet.sim.replay.ReplayRun;
import io.gpufleet.sim.replay.ReplaySweep;
import io.gpufleet.sim.replay.ReplayWorkload;
import io.gpufleet.sim.replay.SweepCell;
import io.gpufleet.sim.replay.SweepOutcome;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SweepReportTest {

  private static final ReplayCluster CLUSTER = ReplayCluster.of(List.of(
      new ShareNode("a", 32_000, 65_536, 4, "T4"), new ShareNode("b", 16_000, 65_536, 2, "T4")));
  private static final ReplayWorkload WORKLOAD = ReplayWorkload.of("default", List.of(
      new SharePod("p1", ShareRequest.of(2_000, 1024, GpuDemand.of(1, 500))),
      new SharePod("p2", ShareRequest.of(4_000, 1024, GpuDemand.of(1, 1000))),
      new SharePod("p3", ShareRequest.of(1_000, 1024, GpuDemand.NONE))), ReplayProtocol.PAPER);

  private static List<SweepOutcome> outcomes() {
    List<SweepOutcome> out = new ArrayList<>();
    for (PolicyKind p : List.of(PolicyKind.BEST_FIT, PolicyKind.FGD)) {
      for (long s = 1; s <= 3; s++) {
        out.add(ReplaySweep.runOne(CLUSTER, WORKLOAD, new SweepCell("default", p, s), ReplayProtocol.PAPER));
      }
    }
    return out;
  }

  @Test
  void condensesSeedsIntoMeanAndSampleDeviation() {
    SweepReport r = new SweepReport(outcomes());
    assertThat(r.variants()).containsExactly("default");
    assertThat(r.policies()).containsExactly("BestFit", "FGD");
    SweepReport.Cell c = r.cell("default", "FGD").orElseThrow();
    assertThat(c.seeds()).isEqualTo(3);
    assertThat(r.table()).startsWith("| variant | BestFit | FGD |\n|---|---:|---:|\n| default | ");
    assertThat(r.paperComparison()).contains("| BestFit | 93.08 | ").contains("| FGD | 95.39 | ");
    assertThat(r.runsCsv().lines()).hasSize(7);
    assertThat(r.tableCsv().lines()).hasSize(3);
  }

  @Test
  void everyOutputIsAPureFunctionOfTheOutcomes() {
    SweepReport a = new SweepReport(outcomes());
    SweepReport b = new SweepReport(outcomes());
    assertThat(a.html()).isEqualTo(b.html());
    assertThat(a.runsCsv()).isEqualTo(b.runsCsv());
    assertThat(a.html()).contains("<svg", "openb default: allocation vs arrived demand").doesNotContain("<script");
  }

  @Test
  void curveCsvHasOneRowPerArrival() {
    ReplayCurve curve = ReplayRun.run(CLUSTER, WORKLOAD, PolicyKind.FGD, ReplaySweep.generator(1), ReplayProtocol.PAPER);
    StringBuilder csv = new StringBuilder();
    CurveCsv.perPod(curve, csv);
    List<String> lines = csv.toString().lines().toList();
    assertThat(lines.getFirst()).isEqualTo(CurveCsv.HEADER);
    assertThat(lines).hasSize(curve.size() + 1);
    assertThat(lines.get(1)).matches("0,p[123],(a|b)?,\\d+,\\d+,[0-9.]+,[0-9.]+,[0-9.]+,[0-9.]+");
  }
}
