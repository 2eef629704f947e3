package io.gpufleet.engine.perf;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.advise.ClosedLoopRow;
import io.gpufleet.model.advise.H200Measurement;
import io.gpufleet.model.deviceplugin.SharingMode;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The advisor's model with a card's own closed-loop rows ({@link SharingModel#measured}): the
 * issue's launch-bound failures on the H100 ({@code data/h100-bench-sharing/run-1}) predicted from
 * that run's closed-loop rows, against its open-loop rows.
 */
class MeasuredSharingModelTest {

  private static final GpuCatalog CATALOG = GpuCatalog.builtIn();
  private static final GpuModel H100 = CATALOG.byId("H100-80GB").orElseThrow();

  /** {@code data/h100-bench-sharing/run-1/closed-loop.json}, closedLoop, in its order. */
  static final List<ClosedLoopRow> H100_RUN_1 = List.of(
      new ClosedLoopRow("big", "time-slicing", 1, 218.3, 4.57, 4.7),
      new ClosedLoopRow("big", "time-slicing", 2, 193.9, 10.31, 10.49),
      new ClosedLoopRow("big", "time-slicing", 4, 193.3, 20.68, 21.19),
      new ClosedLoopRow("big", "time-slicing", 8, 192.7, 41.51, 42.0),
      new ClosedLoopRow("small", "time-slicing", 1, 478.5, 2.08, 2.47),
      new ClosedLoopRow("small", "time-slicing", 2, 388.5, 5.14, 5.22),
      new ClosedLoopRow("small", "time-slicing", 4, 417.9, 9.77, 11.94),
      new ClosedLoopRow("small", "time-slicing", 8, 406.2, 19.68, 20.08),
      new ClosedLoopRow("big", "mps", 1, 217.2, 4.59, 4.68),
      new ClosedLoopRow("big", "mps", 2, 236.5, 8.45, 8.56),
      new ClosedLoopRow("big", "mps", 4, 235.5, 16.98, 17.19),
      new ClosedLoopRow("big", "mps", 8, 235.6, 33.94, 34.31),
      new ClosedLoopRow("small", "mps", 1, 399.3, 2.5, 2.56),
      new ClosedLoopRow("small", "mps", 2, 673.4, 2.97, 3.1),
      new ClosedLoopRow("small", "mps", 4, 825.1, 4.84, 5.01),
      new ClosedLoopRow("small", "mps", 8, 880.4, 9.07, 9.51),
      new ClosedLoopRow("big", "mps-capped", 1, 216.4, 4.6, 4.76),
      new ClosedLoopRow("big", "mps-capped", 2, 236.1, 8.46, 8.79),
      new ClosedLoopRow("big", "mps-capped", 4, 240.9, 16.59, 17.23),
      new ClosedLoopRow("big", "mps-capped", 8, 241.7, 33.04, 33.64),
      new ClosedLoopRow("small", "mps-capped", 1, 390.3, 2.5, 3.3),
      new ClosedLoopRow("small", "mps-capped", 2, 656.4, 3.04, 3.18),
      new ClosedLoopRow("small", "mps-capped", 4, 813.3, 4.91, 5.03),
      new ClosedLoopRow("small", "mps-capped", 8, 889.6, 8.98, 9.26));

  private static final Calibration FITTED = CalibrationFit.fitWhatIsMeasured(H100_RUN_1,
      H100.bandwidthGBps().orElseThrow(), H200Measurement.BIG, H200Measurement.SMALL).calibration();
  private static final SharingModel OWN =
      new SharingModel(FITTED, Optional.of(new SharingCurves(H100.id(), H100_RUN_1)));

  private static CardForecast small(SharingModel model, GpuModel gpu, SharingMode mode, int n, double rate) {
    Device device = Device.whole(gpu);
    ServiceDemand d = ServiceDemand.of(H200Measurement.SMALL, device, model.calibration(), CATALOG);
    List<Tenant> tenants = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      tenants.add(new Tenant("t" + i, d, 1024, rate, 1.0));
    }
    return model.openLoop(new Colocation(device, mode, tenants));
  }

  @Test
  void launchBoundTenantsSlowEachOtherUnderTimeSlicing() {
    // Measured (open-small-60.json): small x4 at 60/s time-sliced, p99 18.23 ms.
    CardForecast four = small(OWN, H100, new SharingMode.TimeSlicing(4), 4, 60);
    assertThat(four.stable()).isTrue();
    assertThat(four.worstP99Ms() / 18.23 - 1).isBetween(-0.25, 0.25);
    // Measured: 8 x 60/s time-sliced, p99 927 ms: the card fell behind.
    assertThat(small(OWN, H100, new SharingMode.TimeSlicing(8), 8, 60).stable()).isFalse();
    // Capped MPS x8 at 60/s kept up (p99 13.68 ms).
    CardForecast capped = small(OWN, H100, SharingMode.Mps.devicePlugin(8), 8, 60);
    assertThat(capped.stable()).isTrue();
    assertThat(capped.worstP99Ms()).isLessThan(four.worstP99Ms());
  }

  @Test
  void theH100sRowsFitWithTheLaunchShareAtOneAndNameTheCapTheyDoNotDetermine() {
    CalibrationFit.Fitted f = CalibrationFit.fitWhatIsMeasured(H100_RUN_1, H100.bandwidthGBps().orElseThrow(),
        H200Measurement.BIG, H200Measurement.SMALL);
    // 8 time-sliced small tenants get 406.2 req/s, one alone 478.5: the whole request holds the GPU.
    assertThat(f.calibration().launchBoundGpuShare()).isEqualTo(1.0);
    // No capped big row binds on the cap (N=2: 236.1 req/s capped, 236.5 uncapped).
    assertThat(f.gaps()).extracting(CalibrationFit.Gap::constant).containsExactly("cappedBandwidthExponent");
    assertThat(f.calibration().cappedBandwidthExponent()).isZero();
  }

  @Test
  void otherCardsKeepTheFittedModel() {
    GpuModel h200 = CATALOG.byId(H200Measurement.GPU).orElseThrow();
    SharingMode mode = new SharingMode.TimeSlicing(4);
    assertThat(small(OWN, h200, mode, 4, 60)).isEqualTo(small(new SharingModel(FITTED), h200, mode, 4, 60));
  }

  /** What a coverage line says where no lone open-loop row was measured. */
  private static final String IDLE = "finds its tenant idle";

  @Test
  void theCurveScalesToTheTenantsOwnRequest() {
    SharingCurves curves = new SharingCurves(H100.id(), H100_RUN_1);
    CapacityCurve bench = CapacityCurve.of(H100_RUN_1, "small", "time-slicing");
    CapacityCurve twice = curves.scaled(io.gpufleet.model.advise.Boundness.LAUNCH, new SharingMode.TimeSlicing(2),
        2 * bench.serviceMs(1)).orElseThrow();
    assertThat(twice.serviceMs(2)).isCloseTo(2 * bench.serviceMs(2), org.assertj.core.api.Assertions.within(1e-9));
    // run-1 has every mode up to 8 tenants, but no lone capped client: capped MPS rests on the uncapped lone time.
    String bigSolo = "memory-bound capped-MPS tenants whose co-tenants are idle take the uncapped lone time (no big "
        + "mps-capped-solo rows: one client under the cap of N); measure: gpufleet bench-sharing --workloads big "
        + "--modes mps-capped-solo --tenants 1,2,4,8 --seconds 4 --json-file big-mps-capped-solo.json";
    String smallSolo = "launch-bound capped-MPS tenants whose co-tenants are idle take the uncapped lone time (no small "
        + "mps-capped-solo rows: one client under the cap of N); measure: gpufleet bench-sharing --workloads small "
        + "--modes mps-capped-solo --tenants 1,2,4,8 --seconds 4 --json-file small-mps-capped-solo.json";
    assertThat(curves.uncovered(8)).filteredOn(s -> !s.contains(IDLE)).containsExactly(bigSolo, smallSolo);
    // run-1 has no lone open-loop rows: every measured workload and mode says so, with its run.
    assertThat(curves.uncovered(8)).filteredOn(s -> s.contains(IDLE)).hasSize(6).contains(
        "launch-bound tenants under time-slicing take no extra time for a request that finds its tenant idle (no small "
            + "time-slicing open-loop row with 1 tenant under half its capacity); measure: gpufleet bench-sharing --workloads small --modes "
            + "time-slicing --tenants 1 --rate 24 --seconds 16 --json-file small-time-slicing-idle.json");
    assertThat(curves.uncovered(16)).filteredOn(s -> !s.contains(IDLE)).hasSize(8)
        .filteredOn(s -> s.contains("--tenants 8,16")).hasSize(6);
    assertThat(new SharingCurves(H100.id(), H100_RUN_1.stream().filter(r -> !r.mode().equals("mps")).toList())
        .uncovered(8)).filteredOn(s -> !s.contains(IDLE)).containsExactly(
            bigSolo,
            "memory-bound tenants under mps use the fitted constants (no big mps rows with 1 tenant and more); measure: "
                + "gpufleet bench-sharing --workloads big --modes mps --tenants 1,2,4,8 --seconds 4 --json-file big-mps.json",
            smallSolo,
            "launch-bound tenants under mps use the fitted constants (no small mps rows with 1 tenant and more); measure: "
                + "gpufleet bench-sharing --workloads small --modes mps --tenants 1,2,4,8 --seconds 4 --json-file small-mps.json");
  }

  /** run-1 with lone capped {@code big} clients measured in another session: 230 req/s alone, × (100/N %)^0.5 capped. */
  private static List<ClosedLoopRow> withBigSolo() {
    List<ClosedLoopRow> rows = new ArrayList<>(H100_RUN_1);
    for (int n : List.of(1, 2, 4, 8)) {
      double x = 230.0 * Math.pow((100 / n) / 100.0, 0.5);
      rows.add(new ClosedLoopRow("big", "mps-capped-solo", n, x, 1000 / x, 1000 / x));
    }
    return rows;
  }

  @Test
  void loneCappedRowsDetermineTheCapExponentTheBackToBackRowsLeaveOpen() {
    CalibrationFit.Fitted f = CalibrationFit.fitWhatIsMeasured(withBigSolo(), H100.bandwidthGBps().orElseThrow(),
        H200Measurement.BIG, H200Measurement.SMALL);
    assertThat(f.gaps()).isEmpty();
    assertThat(f.calibration().cappedBandwidthExponent()).isCloseTo(0.5, org.assertj.core.api.Assertions.within(1e-9));
    // --calibration replays a solo row as one client under the cap of N: every N is off by the same
    // factor, the other session's speed (230 req/s against run-1's 217.75 alone), not by the cap.
    var replay = new MeasurementReplay(new SharingModel(f.calibration()), CATALOG).closedLoop(
        new io.gpufleet.model.advise.MeasuredSharing("t", H100.id(), H200Measurement.BIG, H200Measurement.SMALL,
            withBigSolo()));
    List<Double> errors = replay.stream().filter(c -> c.measured().mode().equals("mps-capped-solo"))
        .map(MeasurementReplay.ClosedLoopComparison::throughputError).toList();
    assertThat(errors).hasSize(4).allSatisfy(e -> assertThat(e).isCloseTo(errors.getFirst(),
        org.assertj.core.api.Assertions.within(1e-9)));
    assertThat(errors.getFirst()).isCloseTo(2000 / (1000 / 218.3 + 1000 / 217.2) / 230 - 1,
        org.assertj.core.api.Assertions.within(1e-9));
  }

  @Test
  void withLoneCappedRowsCappedReplicasAloneRunAtTheCappedTimeAndTheNotesSayWhatIsLeft() {
    SharingCurves curves = new SharingCurves(H100.id(), withBigSolo());
    assertThat(curves.uncovered(8)).filteredOn(s -> !s.contains(IDLE)).singleElement().asString()
        .startsWith("launch-bound capped-MPS tenants whose co-tenants are idle");
    assertThat(curves.uncovered(16)).filteredOn(s -> s.startsWith("memory-bound capped-MPS")).containsExactly(
        "memory-bound capped-MPS tenants beyond 8 per card take a lone client's time under the cap of 8 while co-tenants "
            + "are idle, a lower bound (the mps-capped-solo rows stop there); measure: gpufleet bench-sharing --workloads "
            + "big --modes mps-capped-solo --tenants 1,16 --seconds 4 --json-file big-mps-capped-solo.json");
    // Relative to their own N=1 row: at 12% of the SMs a lone big request takes 1/sqrt(0.12) of run-1's lone capped time.
    CapacityCurve big = CapacityCurve.of(withBigSolo(), "big", "mps-capped");
    assertThat(big.cappedAloneMs(8).orElseThrow()).isCloseTo(1000 / 216.4 / Math.sqrt(0.12),
        org.assertj.core.api.Assertions.within(1e-9));
    // x8 at 15/s each: the measured p50 was 15.85 ms, today's prediction 8.47 ms; the lone capped
    // time (13.3 ms) now floors every request that meets few busy co-tenants.
    CapacityCurve today = CapacityCurve.of(H100_RUN_1, "big", "mps-capped");
    OpenLoopForecast before = MeasuredQueueing.predict(today, 8, 15);
    OpenLoopForecast after = MeasuredQueueing.predict(big, 8, 15);
    assertThat(after.p50Ms()).isGreaterThan(before.p50Ms()).isGreaterThanOrEqualTo(big.cappedAloneMs(8).orElseThrow());
    assertThat(after.p99Ms()).isGreaterThan(before.p99Ms());
  }

  @Test
  void aCardDealtFewerReplicasThanTheModeKeepsTheModesCap() {
    SharingModel own = new SharingModel(FITTED, Optional.of(new SharingCurves(H100.id(), withBigSolo())));
    Device device = Device.whole(H100);
    ServiceDemand d = ServiceDemand.of(H200Measurement.BIG, device, FITTED, CATALOG);
    List<Tenant> three = List.of(new Tenant("a", d, 1024, 10, 1.0), new Tenant("b", d, 1024, 10, 1.0),
        new Tenant("c", d, 1024, 10, 1.0));
    // Three replicas on a card of the 4-replica layout run at 25 % each, slower alone than at 33 %.
    double at25 = own.openLoop(new Colocation(device, SharingMode.Mps.devicePlugin(4), three)).tenants().getFirst().p50Ms();
    double at33 = own.openLoop(new Colocation(device, SharingMode.Mps.devicePlugin(3), three)).tenants().getFirst().p50Ms();
    assertThat(at25).isGreaterThan(at33);
    // Uncapped MPS has no lone capped rows to read, with or without them in the file.
    double mps = own.openLoop(new Colocation(device, SharingMode.Mps.unlimited(3), three)).tenants().getFirst().p50Ms();
    assertThat(mps).isEqualTo(OWN.openLoop(new Colocation(device, SharingMode.Mps.unlimited(3), three)).tenants()
        .getFirst().p50Ms());
  }
}
