package io.gpufleet.nvml.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
    // 3 closed-loop rows per mode, then per mode N=4 (the largest from 2 to 4) at 0.3, 0.6, 1.2 of
    // X(4)/4 in whole req/s, at least 1.
    assertThat(rows).hasSize(12);
    assertThat(rows.subList(0, 6)).allMatch(SharingRow::closedLoop);
    assertThat(rows.subList(6, 12)).extracting(SharingRow::tenants).containsOnly(4);
    double perTenant = rows.get(2).throughput() / 4;
    List<Double> rates = new ArrayList<>();
    for (int mode = 0; mode < 2; mode++) {
      for (double f : List.of(0.3, 0.6, 1.2)) {
        rates.add((double) Math.max(1, Math.round(f * perTenant)));
      }
    }
    assertThat(rows.subList(6, 12)).extracting(SharingRow::ratePerSecond).containsExactlyElementsOf(rates);
    assertThat(tenants.calls).hasSize(12);
    assertThat(SharingBench.check(rows)).hasSize(6);
    assertThatThrownBy(() -> new SharingBench(tenants, new RecordingMps(), line -> { }).runWithOpenLoopCheck(
        new SharingBench.Plan(List.of(TenantKernel.BIG), List.of(BenchMode.MPS), List.of(2), new Arrivals.Settings(1, 5, 1))))
        .hasMessageContaining("closed-loop plan");
  }
}
