package io.gpufleet.nvml.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.perf.Calibration;
import io.gpufleet.engine.perf.CalibrationFit;
import io.gpufleet.engine.perf.MeasurementReplay;
import io.gpufleet.engine.perf.SharingModel;
import io.gpufleet.model.advise.ClosedLoopRow;
import io.gpufleet.model.advise.H200Measurement;
import io.gpufleet.model.advise.MeasuredSharing;
import io.gpufleet.model.gpu.GpuCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bench-sharing run on an H200 kept in {@code data/h200-bench-sharing/}: it reads as calibration
 * rows, and the statements docs/gpu-probe.md makes about it hold.
 */
class MeasuredH200Test {

  private static List<ClosedLoopRow> rows() throws IOException {
    Path file = Path.of("..", "data", "h200-bench-sharing", "closed-loop.json");
    return SharingMeasurement.closedLoopRows(file.toString(), Files.readString(file));
  }

  private static double throughput(List<ClosedLoopRow> rows, String workload, String mode, int n) {
    return rows.stream().filter(r -> r.workload().equals(workload) && r.mode().equals(mode) && r.tenants() == n)
        .findFirst().orElseThrow().throughput();
  }

  @Test
  void everyModeAndTenantCountWasMeasured() throws IOException {
    assertThat(rows()).hasSize(2 * 3 * 4);
  }

  @Test
  void theCapDoesNotSlowAMemoryBoundOrLaunchBoundClientMuch() throws IOException {
    List<ClosedLoopRow> rows = rows();
    for (int n : List.of(4, 8)) {
      assertThat(throughput(rows, "big", "mps-capped", n) / throughput(rows, "big", "mps", n)).isBetween(0.95, 1.05);
      assertThat(throughput(rows, "small", "mps-capped", n) / throughput(rows, "small", "mps", n)).isBetween(0.9, 1.1);
    }
  }

  /** What {@code advise --calibration-file} does with this file: fit it, and replay its own rows. */
  @Test
  void theModelFittedToTheseRowsReproducesThemWithin15Percent() throws IOException {
    Path file = Path.of("..", "data", "h200-bench-sharing", "closed-loop.json");
    MeasuredSharing m = SharingMeasurement.calibration(file.toString(), Files.readString(file));
    assertThat(m.gpu()).isEqualTo(H200Measurement.GPU);
    assertThat(m.big().bytesPerRequest()).isEqualTo(H200Measurement.BIG.bytesPerRequest());
    assertThat(m.small()).isEqualTo(H200Measurement.SMALL);
    assertThat(m.rows()).isEqualTo(rows());
    GpuCatalog catalog = GpuCatalog.builtIn();
    Calibration c = CalibrationFit.fit(m, catalog);
    assertThat(c).isNotEqualTo(Calibration.H200_2026_11_30);
    var comparisons = new MeasurementReplay(new SharingModel(c), catalog).closedLoop(m);
    assertThat(comparisons).hasSize(24);
    for (var cmp : comparisons) {
      System.out.printf("%s %s N=%d measured %.1f predicted %.1f (%+.1f%%)%n", cmp.measured().workload(),
          cmp.measured().mode(), cmp.measured().tenants(), cmp.measured().throughput(), cmp.throughput(),
          100 * cmp.throughputError());
    }
    assertThat(comparisons).allSatisfy(cmp -> assertThat(Math.abs(cmp.throughputError())).isLessThanOrEqualTo(0.15));
  }
}
