package io.gpufleet.engine.perf;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.advise.ClosedLoopRow;
import io.gpufleet.model.advise.H200Measurement;
import io.gpufleet.model.gpu.GpuCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * A calibration file with any subset of workloads, modes and tenant counts fits what its rows
 * determine and names each constant it leaves at the built-in value, with the rows it lacks and the
 * bench-sharing run that measures them (issue: time-slicing + mps-capped used to fail with "no rows
 * to fit to").
 */
class CalibrationFitSubsetTest {

  private static final List<ClosedLoopRow> ROWS = H200Measurement.closedLoopRows();
  private static final double BANDWIDTH =
      GpuCatalog.builtIn().byId(H200Measurement.GPU).orElseThrow().bandwidthGBps().orElseThrow();
  private static final List<String> WORKLOADS = List.of("big", "small");
  private static final List<String> MODES = List.of("time-slicing", "mps", "mps-capped");

  private static CalibrationFit.Fitted fit(Predicate<ClosedLoopRow> keep) {
    return CalibrationFit.fitWhatIsMeasured(ROWS.stream().filter(keep).toList(), BANDWIDTH, H200Measurement.BIG,
        H200Measurement.SMALL);
  }

  private static List<String> constants(CalibrationFit.Fitted f) {
    return f.gaps().stream().map(CalibrationFit.Gap::constant).toList();
  }

  @Test
  void everyRowFitsEveryConstant() {
    CalibrationFit.Fitted all = fit(r -> true);
    assertThat(all.gaps()).isEmpty();
    assertThat(all.calibration()).isEqualTo(CalibrationFit.fit(ROWS, BANDWIDTH, H200Measurement.BIG, H200Measurement.SMALL));
  }

  @Test
  void timeSlicingAndCappedMpsFitAndNameTheUncappedMpsRun() {
    CalibrationFit.Fitted f = fit(r -> !r.mode().equals("mps"));
    assertThat(constants(f)).containsExactly("overlappedBandwidth");
    assertThat(f.gaps().getFirst().missing()).isEqualTo("big mps rows with 1, 2, 4, 8 tenants");
    assertThat(f.gaps().getFirst().command())
        .isEqualTo("gpufleet bench-sharing --workloads big --modes mps --tenants 1,2,4,8 --seconds 4 --json-file big-mps.json");
  }

  @Test
  void onlyTimeSlicingLeavesTheMpsConstants() {
    CalibrationFit.Fitted f = fit(r -> r.mode().equals("time-slicing"));
    assertThat(constants(f)).containsExactlyInAnyOrder("overlappedBandwidth", "mpsLaunchFactor", "mpsKernelConcurrency",
        "cappedBandwidthExponent");
    Calibration d = Calibration.H200_2026_11_30;
    assertThat(f.calibration().mpsLaunchFactor()).isEqualTo(d.mpsLaunchFactor());
    assertThat(f.calibration().cappedBandwidthExponent()).isEqualTo(d.cappedBandwidthExponent());
    // What time-slicing determines is fitted as with every row.
    Calibration full = fit(r -> true).calibration();
    // (the lone big time is the time-sliced N=1 row alone here, the mean with MPS's there)
    assertThat(f.calibration().contextSwitchOverhead()).isCloseTo(full.contextSwitchOverhead(),
        org.assertj.core.api.Assertions.within(0.05 * full.contextSwitchOverhead()));
    assertThat(f.calibration().hostMsPerKernel()).isEqualTo(full.hostMsPerKernel());
    assertThat(f.calibration().launchBoundGpuShare()).isCloseTo(full.launchBoundGpuShare(),
        org.assertj.core.api.Assertions.within(0.01 * full.launchBoundGpuShare()));
  }

  @Test
  void oneWorkloadLeavesTheOthersConstants() {
    assertThat(constants(fit(r -> r.workload().equals("big"))))
        .containsExactlyInAnyOrder("hostMsPerKernel", "launchBoundGpuShare", "mpsLaunchFactor", "mpsKernelConcurrency");
    assertThat(constants(fit(r -> r.workload().equals("small"))))
        .containsExactlyInAnyOrder("singleStreamBandwidth", "overlappedBandwidth", "contextSwitchOverhead",
            "cappedBandwidthExponent");
  }

  @Test
  void loneTenantsOnlyLeaveWhatContentionDetermines() {
    assertThat(constants(fit(r -> r.tenants() == 1))).containsExactlyInAnyOrder("overlappedBandwidth",
        "contextSwitchOverhead", "launchBoundGpuShare", "mpsKernelConcurrency", "cappedBandwidthExponent");
  }

  /** All 63 non-empty sets of (workload, mode) pairs, every tenant count: each fits, and says what it lacks. */
  @Test
  void everySubsetOfWorkloadsAndModesFitsOrNamesWhatIsMissing() {
    List<String[]> pairs = new ArrayList<>();
    for (String w : WORKLOADS) {
      for (String m : MODES) {
        pairs.add(new String[] {w, m});
      }
    }
    Calibration d = Calibration.H200_2026_11_30;
    for (int mask = 1; mask < 1 << pairs.size(); mask++) {
      int bits = mask;
      Predicate<ClosedLoopRow> keep = r -> {
        for (int i = 0; i < pairs.size(); i++) {
          if ((bits & 1 << i) != 0 && pairs.get(i)[0].equals(r.workload()) && pairs.get(i)[1].equals(r.mode())) {
            return true;
          }
        }
        return false;
      };
      CalibrationFit.Fitted f = fit(keep);
      Set<String> measured = new java.util.HashSet<>();
      ROWS.stream().filter(keep).forEach(r -> measured.add(r.workload() + " " + r.mode()));
      for (CalibrationFit.Gap g : f.gaps()) {
        // The run it names measures rows the subset does not have.
        String named = g.command().replaceAll(".*--workloads (\\S+) --modes (\\S+).*", "$1 $2");
        assertThat(measured).as("subset %s, gap %s", measured, g.constant()).doesNotContain(named);
        assertThat(g.command()).startsWith("gpufleet bench-sharing --workloads ");
        assertThat(g.missing()).isNotBlank();
      }
      if (f.gaps().isEmpty()) {
        assertThat(measured).as("no gap, so every pair but the redundant ones").hasSizeGreaterThanOrEqualTo(5);
      }
      if (constants(f).contains("cappedBandwidthExponent")) {
        assertThat(f.calibration().cappedBandwidthExponent()).isEqualTo(d.cappedBandwidthExponent());
      }
    }
  }
}
