package io.gpufleet.nvml.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.engine.perf.Calibration;
import io.gpufleet.engine.perf.CalibrationFit;
import io.gpufleet.model.advise.ClosedLoopRow;
import io.gpufleet.model.advise.H200Measurement;
import io.gpufleet.model.gpu.GpuCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SharingMeasurementTest {

  private static final SharingMeasurement.Card CARD =
      new SharingMeasurement.Card("NVIDIA H200", Optional.of("H200-141GB"), 143771, "9.0", "580.159.04");

  /** The built-in H200 rows dressed as bench rows. */
  private static List<SharingRow> h200Rows() {
    List<SharingRow> out = new ArrayList<>();
    for (ClosedLoopRow r : H200Measurement.closedLoopRows()) {
      out.add(new SharingRow(r.workload(), r.mode(), r.tenants(), Optional.empty(), 0, 1000, r.throughput(), r.p50Ms(),
          r.p99Ms(), 1.0));
    }
    return out;
  }

  private static SharingBench.Plan plan() {
    return new SharingBench.Plan(TenantKernel.ALL, List.of(BenchMode.TIME_SLICING, BenchMode.MPS), List.of(1, 2, 4, 8),
        new Arrivals.Settings(6, 0, 1));
  }

  @Test
  void closedLoopRowsReadBackAsTheCalibrationsRowsAndFitTheSameConstants() {
    String json = new SharingMeasurement(CARD, plan(), h200Rows()).toJson();
    List<ClosedLoopRow> back = SharingMeasurement.closedLoopRows("h200.json", json);
    assertThat(back).isEqualTo(H200Measurement.closedLoopRows());
    double bandwidth = GpuCatalog.builtIn().byId(H200Measurement.GPU).orElseThrow().bandwidthGBps().orElseThrow();
    Calibration fromFile = CalibrationFit.fit(back, bandwidth, H200Measurement.BIG, H200Measurement.SMALL);
    assertThat(fromFile).isEqualTo(
        CalibrationFit.fit(H200Measurement.closedLoopRows(), bandwidth, H200Measurement.BIG, H200Measurement.SMALL));
  }

  @Test
  void openLoopRowsAreKeptAsideAndTheCapIsRecorded() {
    List<SharingRow> rows = List.of(
        new SharingRow("big", "mps-capped", 4, Optional.of(25), 0, 100, 344.44, 11.614, 12.09, 2.0),
        new SharingRow("big", "time-slicing", 4, Optional.empty(), 60, 970, 240.9, 15.37, 95.16, 3.0));
    String json = new SharingMeasurement(CARD, plan(), rows).toJson();
    assertThat(json).contains("\"threadPercentage\" : 25", "\"ratePerSecond\" : 60.0", "\"throughput\" : 344.4",
        "\"p50Ms\" : 11.61");
    assertThat(SharingMeasurement.closedLoopRows("r.json", json)).singleElement()
        .isEqualTo(new ClosedLoopRow("big", "mps-capped", 4, 344.4, 11.61, 12.09));
  }

  @Test
  void aBadFileNamesTheFieldAndWhatWasExpected() {
    assertThatThrownBy(() -> SharingMeasurement.closedLoopRows("x.json", "{\"format\":\"other\"}"))
        .hasMessage("x.json: format: expected \"gpufleet-sharing-measurement/1\", found \"other\"");
    assertThatThrownBy(() -> SharingMeasurement.closedLoopRows("x.json",
        "{\"format\":\"gpufleet-sharing-measurement/1\",\"closedLoop\":[{\"workload\":\"big\",\"mode\":\"mps\","
            + "\"tenants\":1,\"throughput\":\"fast\"}]}"))
        .hasMessage("x.json: closedLoop[0].throughput: expected a number, found \"fast\"");
    assertThatThrownBy(() -> SharingMeasurement.closedLoopRows("x.json", "{\n  nope"))
        .hasMessageStartingWith("x.json:2:3: not JSON:");
    assertThatThrownBy(() -> SharingMeasurement.calibration("x.json",
        "{\"format\":\"gpufleet-sharing-measurement/1\",\"card\":{},\"closedLoop\":[{\"workload\":\"big\","
            + "\"mode\":\"mps\",\"tenants\":1,\"throughput\":270,\"p50Ms\":3.7,\"p99Ms\":3.8}]}"))
        .hasMessage("x.json: card.catalogId: expected a string, found null");
  }

  @Test
  void openLoopRowsReadBackAndABadOneNamesItsField() {
    String ok = """
        {"format": "gpufleet-sharing-measurement/1", "closedLoop": [],
         "openLoop": [{"workload": "small", "mode": "mps-capped", "tenants": 4, "ratePerSecond": 60,
                       "throughput": 242.4, "p50Ms": 3.39, "p99Ms": 8.05}]}
        """;
    assertThat(SharingMeasurement.openLoopRows("o.json", ok)).containsExactly(
        new io.gpufleet.model.advise.OpenLoopRow("small", "mps-capped", 4, 60, 242.4, 3.39, 8.05));
    assertThatThrownBy(() -> SharingMeasurement.openLoopRows("o.json", ok.replace("\"ratePerSecond\": 60", "\"ratePerSecond\": \"x\"")))
        .hasMessage("o.json: openLoop[0].ratePerSecond: expected a number, found \"x\"");
  }

  @Test
  void aFileOfOneWorkloadCalibratesWithTheBenchsOtherWorkload() {
    String json = """
        {"format": "gpufleet-sharing-measurement/1", "card": {"catalogId": "H100-80GB"},
         "workloads": [{"name": "small", "kernelsPerRequest": 768}],
         "closedLoop": [{"workload": "small", "mode": "time-slicing", "tenants": 1, "throughput": 478.5, "p50Ms": 2.08, "p99Ms": 2.47}]}
        """;
    var m = SharingMeasurement.calibration("s.json", json);
    assertThat(m.big()).isEqualTo(H200Measurement.BIG);
    assertThat(m.rows()).hasSize(1);
    assertThatThrownBy(() -> SharingMeasurement.calibration("s.json", json.replace("\"small\", \"kernels", "\"tiny\", \"kernels")))
        .hasMessage("s.json: workloads: expected a \"big\" (memory-bound) or a \"small\" (launch-bound) workload, found neither");
  }

  @Test
  void loneCappedRowsRoundTripAndOlderFilesLoadWithoutThem() throws java.io.IOException {
    SharingBench.Plan plan = new SharingBench.Plan(List.of(TenantKernel.BIG), List.of(BenchMode.MPS_CAPPED,
        BenchMode.MPS_CAPPED_SOLO), List.of(1, 8), new Arrivals.Settings(4, 0, 1));
    List<SharingRow> rows = List.of(
        new SharingRow("big", "mps-capped", 1, Optional.of(100), 0, 860, 216.4, 4.6, 4.76, 4.5),
        new SharingRow("big", "mps-capped", 8, Optional.of(12), 0, 960, 241.7, 33.04, 33.64, 4.1),
        new SharingRow("big", "mps-capped-solo", 1, Optional.of(100), 0, 860, 215.0, 4.63, 4.8, 4.5),
        new SharingRow("big", "mps-capped-solo", 8, Optional.of(12), 0, 400, 100.0, 10.0, 10.4, 9.9));
    String json = new SharingMeasurement(CARD, plan, rows).toJson();
    assertThat(json).contains("\"modes\" : [ \"mps-capped\", \"mps-capped-solo\" ]");
    List<ClosedLoopRow> back = SharingMeasurement.closedLoopRows("s.json", json);
    assertThat(back).containsExactlyElementsOf(rows.stream().map(SharingRow::toClosedLoopRow).toList());
    assertThat(SharingMeasurement.calibration("s.json", json).rows()).isEqualTo(back);
    // Read back, the capped curve carries the lone client: 100 req/s at 12%, relative to its own 215 alone.
    assertThat(io.gpufleet.engine.perf.CapacityCurve.of(back, "big", "mps-capped").cappedAloneMs(8).orElseThrow())
        .isCloseTo(1000 / (100.0 * 216.4 / 215.0), org.assertj.core.api.Assertions.within(1e-9));
    // run-1 of the H100 predates the mode: it loads as before, its capped curve without a lone client.
    java.nio.file.Path old = java.nio.file.Path.of("../data/h100-bench-sharing/run-1/closed-loop.json");
    List<ClosedLoopRow> run1 = SharingMeasurement.calibration(old.toString(), java.nio.file.Files.readString(old)).rows();
    assertThat(run1).hasSize(24).noneMatch(r -> r.mode().equals("mps-capped-solo"));
    assertThat(io.gpufleet.engine.perf.CapacityCurve.of(run1, "big", "mps-capped").cappedAlone()).isEmpty();
  }

  /** {@code bench-sharing --tenants 1 --rate R}'s file: lone open-loop rows and no closed-loop ones. */
  private static String loneFile() {
    SharingBench.Plan lone = new SharingBench.Plan(TenantKernel.ALL, List.of(BenchMode.MPS), List.of(1),
        new Arrivals.Settings(16, 20, 1));
    return new SharingMeasurement(CARD, lone, List.of(
        new SharingRow("small", "mps", 1, Optional.empty(), 20, 320, 20.0, 3.6, 7.0, 1.0))).toJson();
  }

  @Test
  void aLoneOpenLoopFileCalibratesIdleArrivalsBesideAClosedLoopFile() {
    java.util.LinkedHashMap<String, String> files = new java.util.LinkedHashMap<>();
    files.put("closed.json", new SharingMeasurement(CARD, plan(), h200Rows()).toJson());
    files.put("lone.json", loneFile());
    var m = SharingMeasurement.calibration(files);
    assertThat(m.rows()).isEqualTo(H200Measurement.closedLoopRows());
    assertThat(m.lone()).singleElement().extracting(r -> r.p50Ms()).isEqualTo(3.6);
    assertThat(m.source()).contains("1 lone open-loop rows");
    // Open-loop rows of more tenants are points to check, not inputs.
    List<SharingRow> shared = new ArrayList<>(h200Rows());
    shared.add(new SharingRow("big", "time-slicing", 4, Optional.empty(), 60, 970, 240.9, 15.37, 95.16, 3.0));
    assertThat(SharingMeasurement.calibration("s.json", new SharingMeasurement(CARD, plan(), shared).toJson()).lone())
        .isEmpty();
  }

  @Test
  void loneOpenLoopRowsAloneAreNoCalibration() {
    assertThatThrownBy(() -> SharingMeasurement.calibration("lone.json", loneFile()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("lone.json: closedLoop: expected closed-loop rows in one file at least; found only lone open-loop rows");
  }
}
