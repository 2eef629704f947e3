package io.gpufleet.engine.perf;

import io.gpufleet.model.deviceplugin.SharingMode;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.advise.H200Measurement;
import io.gpufleet.model.gpu.GpuCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * How far the open-loop approximation is from an exact simulation of the same mechanics, for the
 * {@code big} workload on the H200 across loads and tenant counts.
 */
class OpenLoopApproximationTest {

  private static final Calibration C = Calibration.H200_2026_11_30;
  private final SharingModel model = new SharingModel(C);
  private final Device h200 = Device.whole(GpuCatalog.builtIn().byId(H200Measurement.GPU).orElseThrow());
  private final ServiceDemand big = ServiceDemand.of(H200Measurement.BIG, h200, C, GpuCatalog.builtIn());

  record Gap(String mode, int tenants, double rate, double load, double p50, double p50Exact, double p99,
      double p99Exact) {}

  private Gap gap(SharingMode mode, int n, double rate) {
    List<Tenant> tenants = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      tenants.add(new Tenant("t" + i, big, 1024, rate, 1.0));
    }
    CardForecast f = model.openLoop(new Colocation(h200, mode, tenants));
    var exact = ExactSharingSimulation.run(Contention.of(mode, C), big.gpuMs(), n, rate / 1000, 40_000, 7);
    TenantForecast t = f.tenants().getFirst();
    return new Gap(mode.label(), n, rate, f.load(), t.p50Ms(), exact.p50Ms(), t.p99Ms(), exact.p99Ms());
  }

  @Test
  void approximationStaysCloseToTheExactQueueWhereLoadIsModerate() {
    List<Gap> gaps = new ArrayList<>();
    for (int n : List.of(2, 4)) {
      for (double rate : List.of(20.0, 40.0, 60.0)) {
        gaps.add(gap(new SharingMode.TimeSlicing(n), n, rate));
        gaps.add(gap(SharingMode.Mps.unlimited(n), n, rate));
      }
    }
    for (Gap g : gaps) {
      System.out.printf(Locale.ROOT, "%-18s N=%d %4.0f/s load %.2f  p50 %7.2f vs exact %7.2f (%+4.0f%%)  p99 %7.2f vs exact %7.2f (%+4.0f%%)%n",
          g.mode(), g.tenants(), g.rate(), g.load(), g.p50(), g.p50Exact(), 100 * (g.p50() / g.p50Exact() - 1), g.p99(),
          g.p99Exact(), 100 * (g.p99() / g.p99Exact() - 1));
      if (g.load() <= 0.7) {
        assertThat(g.p99() / g.p99Exact()).as("p99 of %s", g).isBetween(0.75, 1.25);
        assertThat(g.p50() / g.p50Exact()).as("p50 of %s", g).isBetween(0.75, 1.35);
      } else {
        assertThat(g.p99() / g.p99Exact()).as("p99 of %s", g).isBetween(0.6, 1.5);
      }
    }
  }
}
