package io.gpufleet.engine.perf;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.advise.ClosedLoopRow;
import io.gpufleet.model.advise.OpenLoopRow;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link OpenLoopCheck}: the probes it chooses and what its capped predictions rest on. */
class OpenLoopCheckTest {

  private static List<ClosedLoopRow> capped(boolean solo) {
    List<ClosedLoopRow> rows = new ArrayList<>();
    double[] x = {216.4, 236.1, 240.9, 241.7};
    int[] n = {1, 2, 4, 8};
    for (int i = 0; i < 4; i++) {
      rows.add(new ClosedLoopRow("big", "mps-capped", n[i], x[i], n[i] * 1000 / x[i], n[i] * 1000 / x[i]));
      if (solo) {
        double s = 216.4 * Math.pow((100 / n[i]) / 100.0, 0.5);
        rows.add(new ClosedLoopRow("big", "mps-capped-solo", n[i], s, 1000 / s, 1000 / s));
      }
    }
    return rows;
  }

  @Test
  void aLoneCappedClientIsNoModeToProbe() {
    List<OpenLoopCheck.Probe> probes = OpenLoopCheck.probes(capped(true));
    // First the lone tenant at 5% of its 216.4 req/s (the idle arrival), then N=4 at 0.3, 0.6, 1.2 of 240.9/4.
    assertThat(probes).containsExactly(new OpenLoopCheck.Probe("big", "mps-capped", 1, 11),
        new OpenLoopCheck.Probe("big", "mps-capped", 4, 18), new OpenLoopCheck.Probe("big", "mps-capped", 4, 36),
        new OpenLoopCheck.Probe("big", "mps-capped", 4, 72));
    assertThat(probes).isEqualTo(OpenLoopCheck.probes(capped(false)));
  }

  @Test
  void loneOpenLoopRowsAreInputsNotPoints() {
    OpenLoopRow lone = new OpenLoopRow("big", "mps-capped", 1, 11, 11, 5.4, 9.8);
    OpenLoopRow point = new OpenLoopRow("big", "mps-capped", 4, 15, 59.9, 7.42, 15.77);
    List<OpenLoopCheck.Point> with = OpenLoopCheck.check(capped(true), List.of(lone, point));
    List<OpenLoopCheck.Point> without = OpenLoopCheck.check(capped(true), List.of(point));
    assertThat(with).singleElement().extracting(OpenLoopCheck.Point::measured).isEqualTo(point);
    // A lone row slower than its closed-loop time (4.6 ms) makes idle arrivals slower at N=4 too.
    assertThat(with.getFirst().predicted().p50Ms()).isGreaterThan(without.getFirst().predicted().p50Ms());
    assertThat(OpenLoopCheck.notes(capped(true), List.of(lone), with)).isEmpty();
    assertThat(OpenLoopCheck.notes(capped(true), List.of(), without)).containsExactly(
        "big mps-capped: predicted with no extra time for a request that finds its tenant idle (no lone open-loop row under half its capacity); "
            + "measure: gpufleet bench-sharing --workloads big --modes mps-capped --tenants 1 --rate 11 --seconds 16 "
            + "--json-file big-mps-capped-idle.json");
  }

  @Test
  void cappedPointsWithoutLoneCappedRowsSayWhatTheyRestOn() {
    List<OpenLoopRow> open = List.of(new OpenLoopRow("big", "mps-capped", 8, 15, 119.5, 15.85, 39.12),
        new OpenLoopRow("big", "mps-capped", 4, 15, 59.9, 7.42, 15.77));
    List<OpenLoopCheck.Point> without = OpenLoopCheck.check(capped(false), open);
    assertThat(OpenLoopCheck.notes(capped(false), List.of(), without)).filteredOn(n -> !n.contains("idle (no lone"))
        .containsExactly(
        "big mps-capped: predicted with a lone client as fast as an uncapped one while its co-tenants are idle (no big "
            + "mps-capped-solo rows); measure: gpufleet bench-sharing --workloads big --modes mps-capped-solo "
            + "--tenants 1,2,4,8 --seconds 4 --json-file big-mps-capped-solo.json");
    List<OpenLoopCheck.Point> with = OpenLoopCheck.check(capped(true), open);
    assertThat(OpenLoopCheck.notes(capped(true), List.of(), with)).noneMatch(n -> n.contains("mps-capped-solo"));
    // The lone capped client (1/sqrt(0.12) of 4.6 ms at 12%) raises the light-load p50 at N=8.
    assertThat(with.getFirst().predicted().p50Ms()).isGreaterThan(without.getFirst().predicted().p50Ms());
  }

  @Test
  void aLoneRowWithATailFromTheMachineIsCalledNoisy() {
    // H100 run-5's small capped MPS back to back: p50 2.83 ms, p99 9.51 ms; run-4's: 2.63 and 2.70.
    List<ClosedLoopRow> noisy = List.of(new ClosedLoopRow("small", "mps-capped", 1, 320.5, 2.83, 9.51),
        new ClosedLoopRow("small", "mps-capped", 4, 769.7, 5.00, 13.01));
    List<ClosedLoopRow> quiet = List.of(new ClosedLoopRow("small", "mps-capped", 1, 380.0, 2.63, 2.70),
        new ClosedLoopRow("small", "mps-capped", 4, 800.0, 4.99, 5.17));
    assertThat(OpenLoopCheck.noisyTail(quiet, "small", "mps-capped")).isEmpty();
    assertThat(OpenLoopCheck.noisyTail(noisy, "small", "mps-capped")).hasValue(
        "one tenant back to back had a p99 3.36 times its p50 (9.51 against 2.83 ms; over 2 is a noisy machine), so p99 "
            + "predictions rest on a tail the sharing did not cause; measure again on an idle machine: gpufleet "
            + "bench-sharing --workloads small --modes mps-capped --tenants 1,2,4,8 --seconds 4 --json-file "
            + "small-mps-capped.json");
    OpenLoopRow point = new OpenLoopRow("small", "mps-capped", 4, 30, 123.6, 3.63, 15.48);
    OpenLoopRow lone = new OpenLoopRow("small", "mps-capped", 1, 20, 20.4, 3.33, 11.55);
    assertThat(OpenLoopCheck.notes(noisy, List.of(lone), OpenLoopCheck.check(noisy, List.of(lone, point))))
        .filteredOn(n -> n.contains("noisy")).singleElement().asString()
        .startsWith("small mps-capped: one tenant back to back had a p99 3.36 times");
    assertThat(OpenLoopCheck.notes(quiet, List.of(lone), OpenLoopCheck.check(quiet, List.of(lone, point))))
        .noneMatch(n -> n.contains("noisy"));
    // advise --calibration-file says it too, under the kind of work the bench workload stands for.
    assertThat(new SharingCurves("H100-80GB", noisy, List.of(lone)).uncovered(4))
        .anyMatch(n -> n.startsWith("launch-bound tenants under mps-capped: one tenant back to back had a p99 3.36"));
  }
}
