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
}
