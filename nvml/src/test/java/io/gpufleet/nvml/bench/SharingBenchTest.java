package io.gpufleet.nvml.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SharingBenchTest {

  /** Records every run's environment; each tenant reports N ms latencies so rows can be told apart. */
  static final class RecordingTenants implements Tenants {
    final List<String> calls = new ArrayList<>();
    String failOn = "never";

    @Override
    public List<TenantRun> run(TenantKernel kernel, int count, Arrivals.Settings settings, Map<String, String> env) {
      String call = kernel.name() + " N=" + count + " pipe=" + env.get(MpsDaemon.PIPE_DIRECTORY) + " cap="
          + env.get(MpsDaemon.ACTIVE_THREAD_PERCENTAGE);
      calls.add(call);
      if (call.startsWith(failOn)) {
        throw new BenchFailure("tenant 1 of " + kernel.name() + " failed");
      }
      List<TenantRun> runs = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        runs.add(new TenantRun(List.of(count * 1_000_000L), 1_000_000_000L, count));
      }
      return runs;
    }
  }

  static final class RecordingMps implements MpsControl {
    final List<String> calls = new ArrayList<>();

    @Override
    public Map<String, String> start() {
      calls.add("start");
      return Map.of(MpsDaemon.PIPE_DIRECTORY, "/private/pipe", MpsDaemon.LOG_DIRECTORY, "/private/log");
    }

    @Override
    public void stop() {
      calls.add("stop");
    }
  }

  private static SharingBench.Plan plan(List<BenchMode> modes) {
    return new SharingBench.Plan(List.of(TenantKernel.BIG), modes, List.of(1, 2, 4), new Arrivals.Settings(1, 0, 1));
  }

  @Test
  void timeSlicingNeedsNoDaemonAndCappedMpsCapsEachClientAtItsShare() {
    RecordingTenants tenants = new RecordingTenants();
    RecordingMps mps = new RecordingMps();
    List<String> progress = new ArrayList<>();
    List<SharingRow> rows = new SharingBench(tenants, mps, progress::add)
        .run(plan(List.of(BenchMode.TIME_SLICING, BenchMode.MPS_CAPPED)));
    assertThat(tenants.calls).containsExactly(
        "big N=1 pipe=null cap=null", "big N=2 pipe=null cap=null", "big N=4 pipe=null cap=null",
        "big N=1 pipe=/private/pipe cap=100", "big N=2 pipe=/private/pipe cap=50", "big N=4 pipe=/private/pipe cap=25");
    assertThat(mps.calls).containsExactly("start", "stop");
    assertThat(rows).extracting(SharingRow::mode, SharingRow::tenants, SharingRow::p50Ms).containsExactly(
        org.assertj.core.groups.Tuple.tuple("time-slicing", 1, 1.0), org.assertj.core.groups.Tuple.tuple("time-slicing", 2, 2.0),
        org.assertj.core.groups.Tuple.tuple("time-slicing", 4, 4.0), org.assertj.core.groups.Tuple.tuple("mps-capped", 1, 1.0),
        org.assertj.core.groups.Tuple.tuple("mps-capped", 2, 2.0), org.assertj.core.groups.Tuple.tuple("mps-capped", 4, 4.0));
    assertThat(progress).hasSize(6).first().asString().startsWith("big time-slicing N=1: 1.0 req/s");
  }

  @Test
  void theDaemonIsStoppedEvenWhenATenantFails() {
    RecordingTenants tenants = new RecordingTenants();
    tenants.failOn = "big N=2 pipe=/private";
    RecordingMps mps = new RecordingMps();
    assertThatThrownBy(() -> new SharingBench(tenants, mps, s -> { }).run(plan(List.of(BenchMode.MPS))))
        .isInstanceOf(BenchFailure.class);
    assertThat(mps.calls).containsExactly("start", "stop");
  }

  @Test
  void theOpenLoopCheckRunsALightABusyAndAnOverloadedPointPerWorkloadAndModeAfterTheClosedLoop() {
    RecordingTenants tenants = new RecordingTenants();
    List<SharingRow> rows = new SharingBench(tenants, new RecordingMps(), line -> { })
        .runWithOpenLoopCheck(plan(List.of(BenchMode.TIME_SLICING, BenchMode.MPS_CAPPED)));
    // 3 closed-loop rows per mode (mps-capped brings mps-capped-solo: one client under each cap),
    // then per checked mode a lone tenant at 5% of X(1) (the idle arrival, an input), then N=4 (the
    // largest from 2 to 4) at 0.3, 0.6, 1.2 of X(4)/4 in whole req/s, at least 1; the lone capped
    // client is an input to the capped curve, not a mode to check.
    assertThat(rows).hasSize(17);
    assertThat(rows.subList(0, 9)).allMatch(SharingRow::closedLoop);
    assertThat(rows.subList(6, 9)).extracting(SharingRow::mode, SharingRow::tenants, SharingRow::threadPercentage)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("mps-capped-solo", 1, Optional.of(100)),
            org.assertj.core.groups.Tuple.tuple("mps-capped-solo", 2, Optional.of(50)),
            org.assertj.core.groups.Tuple.tuple("mps-capped-solo", 4, Optional.of(25)));
    assertThat(tenants.calls.subList(6, 9)).containsExactly("big N=1 pipe=/private/pipe cap=100",
        "big N=1 pipe=/private/pipe cap=50", "big N=1 pipe=/private/pipe cap=25");
    assertThat(rows.subList(9, 11)).extracting(SharingRow::mode, SharingRow::tenants, SharingRow::ratePerSecond)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("time-slicing", 1, (double) Math.max(1, Math.round(0.05 * rows.get(0).throughput()))),
            org.assertj.core.groups.Tuple.tuple("mps-capped", 1, (double) Math.max(1, Math.round(0.05 * rows.get(3).throughput()))));
    assertThat(rows.subList(11, 17)).extracting(SharingRow::tenants).containsOnly(4);
    assertThat(rows.subList(11, 17)).extracting(SharingRow::mode).doesNotContain("mps-capped-solo");
    double perTenant = rows.get(2).throughput() / 4;
    List<Double> rates = new ArrayList<>();
    for (int mode = 0; mode < 2; mode++) {
      for (double f : List.of(0.3, 0.6, 1.2)) {
        rates.add((double) Math.max(1, Math.round(f * perTenant)));
      }
    }
    assertThat(rows.subList(11, 17)).extracting(SharingRow::ratePerSecond).containsExactlyElementsOf(rates);
    assertThat(tenants.calls).hasSize(17);
    // The lone rows are inputs: six points are checked.
    assertThat(SharingBench.check(rows, 1)).hasSize(6);
    assertThat(SharingBench.lone(rows, 1)).hasSize(2);
    // The fake tenants' lone capped client is as fast as N=1, so the capped curve carries the rows; they
    // serve 1 request a second, so a lone probe at the least rate (1/s) is no light load to fit an idle arrival to.
    assertThat(io.gpufleet.engine.perf.OpenLoopCheck.notes(SharingBench.closed(rows), SharingBench.lone(rows, 1),
        SharingBench.check(rows, 1))).hasSize(2).allMatch(n -> n.contains("no lone open-loop row under half its capacity"));
    assertThatThrownBy(() -> new SharingBench(tenants, new RecordingMps(), line -> { }).runWithOpenLoopCheck(
        new SharingBench.Plan(List.of(TenantKernel.BIG), List.of(BenchMode.MPS), List.of(2), new Arrivals.Settings(1, 5, 1))))
        .hasMessageContaining("closed-loop plan");
  }

  @Test
  void aLoneCappedClientRunsAloneUnderTheCapOfEachTenantCount() {
    RecordingTenants tenants = new RecordingTenants();
    RecordingMps mps = new RecordingMps();
    List<SharingRow> rows = new SharingBench(tenants, mps, s -> { }).run(plan(List.of(BenchMode.MPS_CAPPED_SOLO)));
    // One process each time, at 100/N % of the SMs, inside the mode's own daemon.
    assertThat(tenants.calls).containsExactly("big N=1 pipe=/private/pipe cap=100", "big N=1 pipe=/private/pipe cap=50",
        "big N=1 pipe=/private/pipe cap=25");
    assertThat(mps.calls).containsExactly("start", "stop");
    assertThat(rows).extracting(SharingRow::mode, SharingRow::tenants, SharingRow::threadPercentage).containsExactly(
        org.assertj.core.groups.Tuple.tuple("mps-capped-solo", 1, Optional.of(100)),
        org.assertj.core.groups.Tuple.tuple("mps-capped-solo", 2, Optional.of(50)),
        org.assertj.core.groups.Tuple.tuple("mps-capped-solo", 4, Optional.of(25)));
    // A plan that names the mode itself is not given it twice.
    SharingBench.Plan both = plan(List.of(BenchMode.MPS_CAPPED_SOLO, BenchMode.MPS_CAPPED));
    assertThat(both.withCappedSolo()).isSameAs(both);
    assertThat(plan(List.of(BenchMode.TIME_SLICING)).withCappedSolo().modes()).containsExactly(BenchMode.TIME_SLICING);
  }
}
