package io.gpufleet.engine.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.gpufleet.model.advise.ClosedLoopRow;
import io.gpufleet.model.advise.H200Measurement;
import io.gpufleet.model.gpu.GpuCatalog;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The model against every closed-loop row of the H200 measurement: aggregate throughput and p50
 * within ±15%, and the shipped constants equal to what the fit gives from those rows.
 */
class H200CalibrationTest {

  private static final GpuCatalog CATALOG = GpuCatalog.builtIn();
  private static final List<ClosedLoopRow> ROWS = H200Measurement.closedLoopRows();

  @Test
  void theMeasurementHasTwentyFourClosedLoopRows() {
    assertThat(ROWS).hasSize(24);
    assertThat(ROWS).extracting(ClosedLoopRow::mode).containsOnly("time-slicing", "mps", "mps-capped");
    assertThat(ROWS).extracting(ClosedLoopRow::tenants).containsOnly(1, 2, 4, 8);
  }

  @Test
  void shippedConstantsAreWhatTheFitGives() {
    double bandwidth = CATALOG.byId(H200Measurement.GPU).orElseThrow().bandwidthGBps().orElseThrow();
    Calibration fitted = CalibrationFit.fit(ROWS, bandwidth, H200Measurement.BIG, H200Measurement.SMALL);
    Calibration shipped = Calibration.H200_2026_11_30;
    assertThat(shipped.singleStreamBandwidth()).isCloseTo(fitted.singleStreamBandwidth(), within(5e-4 * fitted.singleStreamBandwidth()));
    assertThat(shipped.overlappedBandwidth()).isCloseTo(fitted.overlappedBandwidth(), within(5e-4 * fitted.overlappedBandwidth()));
    assertThat(shipped.contextSwitchOverhead()).isCloseTo(fitted.contextSwitchOverhead(), within(5e-4 * fitted.contextSwitchOverhead()));
    assertThat(shipped.hostMsPerKernel()).isCloseTo(fitted.hostMsPerKernel(), within(5e-4 * fitted.hostMsPerKernel()));
    assertThat(shipped.launchBoundGpuShare()).isCloseTo(fitted.launchBoundGpuShare(), within(5e-4 * fitted.launchBoundGpuShare()));
    assertThat(shipped.mpsLaunchFactor()).isCloseTo(fitted.mpsLaunchFactor(), within(5e-4 * fitted.mpsLaunchFactor()));
    assertThat(shipped.mpsKernelConcurrency()).isCloseTo(fitted.mpsKernelConcurrency(), within(5e-4 * fitted.mpsKernelConcurrency()));
    assertThat(shipped.cappedBandwidthExponent()).isCloseTo(fitted.cappedBandwidthExponent(), within(5e-4 * fitted.cappedBandwidthExponent()));
  }

  @Test
  void everyClosedLoopRowWithinFifteenPercent() {
    var replay = new MeasurementReplay(new SharingModel(Calibration.H200_2026_11_30), CATALOG);
    for (var c : replay.closedLoop(H200Measurement.builtIn())) {
      String row = c.measured().workload() + " " + c.measured().mode() + " N=" + c.measured().tenants();
      System.out.printf(java.util.Locale.ROOT, "%-24s X %7.1f vs %7.1f (%+5.1f%%)  p50 %6.2f vs %6.2f (%+5.1f%%)%n",
          row, c.throughput(), c.measured().throughput(), 100 * c.throughputError(), c.p50Ms(), c.measured().p50Ms(),
          100 * c.p50Error());
      assertThat(Math.abs(c.throughputError())).as("throughput of %s", row).isLessThanOrEqualTo(0.15);
      assertThat(Math.abs(c.p50Error())).as("p50 of %s", row).isLessThanOrEqualTo(0.15);
    }
  }
}
