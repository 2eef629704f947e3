package io.gpufleet.nvml.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.perf.OpenLoopCheck;
import io.gpufleet.engine.perf.OpenLoopForecast;
import io.gpufleet.model.advise.ClosedLoopRow;
import io.gpufleet.model.advise.OpenLoopRow;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The committed open-loop rows of each card against {@link io.gpufleet.engine.perf.MeasuredQueueing}
 * fitted to the same card's closed-loop rows only, and the tables of {@code docs/advise.md} that
 * show it: the test fails when a table there differs from what the model predicts from the data
 * ({@code -Dgpufleet.regenerate=true} rewrites them).
 */
class OpenLoopCheckDataTest {

  private static final Path ROOT = Path.of("..");
  private static final Path DOC = ROOT.resolve("docs/advise.md");

  static List<OpenLoopCheck.Point> h100(String run) {
    Path dir = ROOT.resolve("data/h100-bench-sharing").resolve(run);
    List<OpenLoopRow> open = new ArrayList<>();
    // The six open-loop files in the README's order: small 30, 60, 120 then big 15, 30, 60 req/s.
    for (String f : List.of("open-small-30", "open-small-60", "open-small-120", "open-big-15", "open-big-30", "open-big-60")) {
      open.addAll(openRows(dir.resolve(f + ".json")));
    }
    return OpenLoopCheck.check(runClosedRows(dir), open);
  }

  /**
   * A run's closed-loop rows, with the lone capped clients ({@code mps-capped-solo}) of
   * {@code capped-solo.json} where that file was measured after the run (the curve takes them
   * relative to their own N=1 row, so another session's rows carry the cap's slowdown).
   */
  private static List<ClosedLoopRow> runClosedRows(Path dir) {
    List<ClosedLoopRow> rows = new ArrayList<>(closedRows(dir.resolve("closed-loop.json")));
    Path solo = dir.resolve("capped-solo.json");
    if (Files.exists(solo)) {
      rows.addAll(closedRows(solo));
    }
    return rows;
  }

  /**
   * run-4: its closed-loop rows (with the lone capped clients), the lone tenants' open-loop rows at
   * light load (the idle arrival, inputs), then its 16 points: small at 30 and 60, big at 15 and 30
   * req/s, N = 4 and 8, time-slicing and capped MPS.
   */
  static List<OpenLoopCheck.Point> h100Run4() {
    return OpenLoopCheck.check(runClosedRows(RUN_4), runOpen(RUN_4, true));
  }

  /** run-4's points predicted without its lone rows: what the idle arrival changes. */
  static List<OpenLoopCheck.Point> h100Run4WithoutIdle() {
    return OpenLoopCheck.check(runClosedRows(RUN_4), runOpen(RUN_4, false));
  }

  /**
   * run-5: run-4's commands again on another H100, measured after the model (the idle arrival's cold
   * share included) was settled, so none of its figures shaped it.
   */
  static List<OpenLoopCheck.Point> h100Run5() {
    return OpenLoopCheck.check(runClosedRows(RUN_5), runOpen(RUN_5, true));
  }

  static List<OpenLoopCheck.Point> h100Run5WithoutIdle() {
    return OpenLoopCheck.check(runClosedRows(RUN_5), runOpen(RUN_5, false));
  }

  private static final Path RUN_4 = ROOT.resolve("data/h100-bench-sharing/run-4");
  private static final Path RUN_5 = ROOT.resolve("data/h100-bench-sharing/run-5");

  /** A run of run-4's shape: its lone rows (where {@code lone}), then its four open-loop files. */
  private static List<OpenLoopRow> runOpen(Path dir, boolean lone) {
    List<OpenLoopRow> open = new ArrayList<>();
    for (String f : List.of("lone-small-20", "lone-big-10", "open-small-30", "open-small-60", "open-big-15",
        "open-big-30")) {
      if (lone || !f.startsWith("lone-")) {
        open.addAll(openRows(dir.resolve(f + ".json")));
      }
    }
    return open;
  }

  static List<OpenLoopCheck.Point> h200() {
    Path dir = ROOT.resolve("data/h200-bench-sharing");
    return OpenLoopCheck.check(closedRows(dir.resolve("closed-loop.json")), openRows(dir.resolve("open-loop.json")));
  }

  /** {@code bench-sharing --open-loop-check}'s own file: its closed-loop rows fit, its open-loop rows check. */
  static List<OpenLoopCheck.Point> h100Check() {
    Path file = ROOT.resolve("data/h100-bench-sharing/open-loop-check/open-loop-check.json");
    return OpenLoopCheck.check(closedRows(file), openRows(file));
  }

  @Test
  void theOpenLoopCheckRunOnAnH100IsRightOnRegimeAtEveryPoint() {
    List<OpenLoopCheck.Point> points = h100Check();
    assertThat(points).hasSize(12).allMatch(OpenLoopCheck.Point::regimeRight);
    assertThat(points.stream().filter(p -> p.measured().overloaded())).hasSize(4);
  }

  @Test
  void theH100sFiftyFourOpenLoopPointsArePredictedFromItsClosedLoopRowsAlone() {
    List<OpenLoopCheck.Point> points = h100("run-1");
    assertThat(points).hasSize(54);
    // Every point the card fell behind on is predicted overloaded or at capacity, and no other.
    assertThat(points).allMatch(OpenLoopCheck.Point::regimeRight);
    assertThat(points).anyMatch(p -> p.measured().overloaded());
    // The launch-bound cases: small x4 at 60/s time-sliced (measured p99 18.2 ms) within 25%,
    // and 8 x 60/s time-sliced (p99 927 ms) overloaded, not stable.
    assertThat(point(points, "small", "time-slicing", 4, 60).p99Error()).isBetween(-0.25, 0.25);
    assertThat(point(points, "small", "time-slicing", 8, 60).predicted().regime())
        .isEqualTo(OpenLoopForecast.Regime.OVERLOADED);
  }

  /**
   * run-1's worst miss without lone capped clients (big capped x8 at 15/s, p99 -46%) comes within the
   * bar once run-3's mps-capped-solo rows say how slow a client at 12% of the SMs is alone.
   */
  @Test
  void theLoneCappedRowsBringBigCappedByEightWithinTheBar() {
    assertThat(ROOT.resolve("data/h100-bench-sharing/run-1/capped-solo.json")).exists();
    OpenLoopCheck.Point p = point(h100("run-1"), "big", "mps-capped", 8, 15);
    assertThat(p.p99Error()).isBetween(-0.25, 0.25);
    assertThat(h100("run-3")).hasSize(54).anyMatch(q -> q.measured().overloaded());
  }

  /** Of its six open-loop rows, the two of one tenant are inputs (the idle arrival); four are points. */
  @Test
  void theH200sFourOpenLoopPointsAreRightOnRegime() {
    assertThat(h200()).hasSize(4).allMatch(OpenLoopCheck.Point::regimeRight);
  }

  /**
   * The bar on run-4 (lone open-loop rows, so idle arrivals): 16 points, both workloads,
   * time-slicing and capped MPS, overloaded points among them, every stable p99 within 25% and every
   * overload called.
   */
  @Test
  void run4MeetsTheBarWithIdleArrivals() {
    List<OpenLoopCheck.Point> points = h100Run4();
    assertThat(points).hasSize(16).allMatch(OpenLoopCheck.Point::withinBar);
    assertThat(points).filteredOn(p -> p.measured().overloaded()).hasSizeGreaterThanOrEqualTo(1);
    assertThat(points).extracting(p -> p.measured().workload() + " " + p.measured().mode()).containsOnly(
        "small time-slicing", "small mps-capped", "big time-slicing", "big mps-capped");
  }

  /**
   * run-5, run-4's commands on another H100 after the model was settled, misses the bar on small:
   * that machine's small rows had tails no other run had (one tenant back to back: p99 2.6 and 3.4
   * times p50), and the check says so for exactly those; big and every regime hold.
   */
  @Test
  void run5MissesOnSmallWhereTheMachineWasNoisyAndSaysSo() {
    List<OpenLoopCheck.Point> points = h100Run5();
    assertThat(points).hasSize(16).allMatch(OpenLoopCheck.Point::regimeRight);
    assertThat(points).filteredOn(p -> p.measured().workload().equals("big")).allMatch(OpenLoopCheck.Point::withinBar);
    assertThat(points).filteredOn(p -> p.measured().workload().equals("small")).anyMatch(p -> !p.withinBar());
    List<ClosedLoopRow> closed = runClosedRows(RUN_5);
    List<String> notes = OpenLoopCheck.notes(closed, OpenLoopCheck.lone(runOpen(RUN_5, true)), points);
    assertThat(notes).hasSize(2).allMatch(n -> n.startsWith("small ") && n.contains("noisy machine"));
    assertThat(OpenLoopCheck.notes(runClosedRows(RUN_4), OpenLoopCheck.lone(runOpen(RUN_4, true)), h100Run4())).isEmpty();
  }

  /**
   * Overload is judged against what arrived, not N x rate: run-4's big x4 at 15/s got 168 requests in
   * 3 s (56 a second, 93% of 4 x 15) and kept up with every one (p50 4.99 ms).
   */
  @Test
  void aRunWhosePoissonArrivalsFellShortIsNotOverloaded() {
    OpenLoopRow r = point(h100Run4(), "big", "time-slicing", 4, 15).measured();
    assertThat(r.offered()).isCloseTo(168 / 3.0, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(r.throughput()).isLessThan(OpenLoopRow.KEPT_UP * 4 * 15);
    assertThat(r.overloaded()).isFalse();
    assertThat(point(h100Run4(), "big", "time-slicing", 8, 30).measured().overloaded()).isTrue();
  }

  @Test
  void theDocsTablesAreWhatTheModelPredictsFromTheData() throws IOException {
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    String updated = doc;
    updated = replace(updated, "h100-run-1", OpenLoopCheck.table(h100("run-1")) + "\n" + OpenLoopCheck.summary(h100("run-1")));
    updated = replace(updated, "h100-run-2", OpenLoopCheck.summary(h100("run-2")));
    updated = replace(updated, "h100-run-3", OpenLoopCheck.table(h100("run-3")) + "\n" + OpenLoopCheck.summary(h100("run-3")));
    updated = replace(updated, "h100-check", OpenLoopCheck.table(h100Check()) + "\n" + OpenLoopCheck.summary(h100Check()));
    updated = replace(updated, "h100-run-4", OpenLoopCheck.table(h100Run4()) + "\n" + OpenLoopCheck.summary(h100Run4()));
    updated = replace(updated, "h100-run-4-without-idle", OpenLoopCheck.summary(h100Run4WithoutIdle()));
    updated = replace(updated, "h100-run-5", OpenLoopCheck.table(h100Run5()) + "\n" + OpenLoopCheck.summary(h100Run5()));
    updated = replace(updated, "h100-run-5-without-idle", OpenLoopCheck.summary(h100Run5WithoutIdle()));
    updated = replace(updated, "h200", OpenLoopCheck.table(h200()) + "\n" + OpenLoopCheck.summary(h200()));
    if (Boolean.getBoolean("gpufleet.regenerate")) {
      Files.writeString(DOC, updated, StandardCharsets.UTF_8);
      return;
    }
    assertThat(doc).as("docs/advise.md's open-loop tables are behind the model: rerun with -Dgpufleet.regenerate=true")
        .isEqualTo(updated);
  }

  private static String replace(String doc, String name, String table) {
    String begin = "<!-- open-loop-check " + name + " begin: generated by OpenLoopCheckDataTest -->\n";
    String end = "<!-- open-loop-check " + name + " end -->";
    int from = doc.indexOf(begin);
    int to = doc.indexOf(end);
    assertThat(from).as("docs/advise.md has the marker %s", begin.strip()).isNotNegative();
    assertThat(to).as("docs/advise.md has the marker %s", end).isGreaterThan(from);
    return doc.substring(0, from + begin.length()) + table + doc.substring(to);
  }

  static OpenLoopCheck.Point point(List<OpenLoopCheck.Point> points, String workload, String mode, int n, double rate) {
    return points.stream().filter(p -> p.measured().workload().equals(workload) && p.measured().mode().equals(mode)
        && p.measured().tenants() == n && p.measured().ratePerSecond() == rate).findFirst().orElseThrow();
  }

  private static List<ClosedLoopRow> closedRows(Path file) {
    return SharingMeasurement.closedLoopRows(file.toString(), read(file));
  }

  private static List<OpenLoopRow> openRows(Path file) {
    return SharingMeasurement.openLoopRows(file.toString(), read(file));
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

}
