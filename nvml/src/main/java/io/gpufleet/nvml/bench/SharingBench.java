package io.gpufleet.nvml.bench;

import io.gpufleet.engine.perf.OpenLoopCheck;
import io.gpufleet.model.advise.ClosedLoopRow;
import io.gpufleet.model.advise.OpenLoopRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs every (mode, kernel, N) of a plan: per mode, the MPS modes inside one daemon's lifetime, which
 * is stopped even when a run fails; per kernel and N, one run of N tenants started together.
 */
public record SharingBench(Tenants tenants, MpsControl mps, Consumer<String> progress) {

  public record Plan(List<TenantKernel> kernels, List<BenchMode> modes, List<Integer> tenantCounts,
      Arrivals.Settings settings) {
    public Plan {
      kernels = List.copyOf(kernels);
      modes = List.copyOf(modes);
      tenantCounts = List.copyOf(tenantCounts);
      if (kernels.isEmpty() || modes.isEmpty() || tenantCounts.isEmpty()
          || tenantCounts.stream().anyMatch(n -> n < 1 || n > 48)) {
        throw new IllegalArgumentException("a plan needs kernels, modes and tenant counts from 1 to 48");
      }
    }

    /** This plan, with {@code mps-capped-solo} right after {@code mps-capped} where it has that but not this. */
    public Plan withCappedSolo() {
      if (!modes.contains(BenchMode.MPS_CAPPED) || modes.contains(BenchMode.MPS_CAPPED_SOLO)) {
        return this;
      }
      List<BenchMode> more = new ArrayList<>(modes);
      more.add(modes.indexOf(BenchMode.MPS_CAPPED) + 1, BenchMode.MPS_CAPPED_SOLO);
      return new Plan(kernels, more, tenantCounts, settings);
    }
  }

  public List<SharingRow> run(Plan plan) {
    List<SharingRow> rows = new ArrayList<>();
    for (BenchMode mode : plan.modes()) {
      Map<String, String> base = mode.usesMps() ? mps.start() : Map.of();
      try {
        for (TenantKernel kernel : plan.kernels()) {
          for (int n : plan.tenantCounts()) {
            Map<String, String> env = new LinkedHashMap<>(base);
            mode.threadPercentage(n).ifPresent(p -> env.put(MpsDaemon.ACTIVE_THREAD_PERCENTAGE, Integer.toString(p)));
            SharingRow row = SharingRow.of(kernel, mode, n, plan.settings().ratePerSecond(),
                tenants.run(kernel, mode.clients(n), plan.settings(), env));
            progress.accept(String.format(Locale.ROOT, "%s %s N=%d: %.1f req/s, p50 %.2f ms, p99 %.2f ms",
                row.workload(), row.mode(), n, row.throughput(), row.p50Ms(), row.p99Ms()));
            rows.add(row);
          }
        }
      } finally {
        if (mode.usesMps()) {
          mps.stop();
        }
      }
    }
    return rows;
  }

  /**
   * The closed-loop plan, then the open-loop runs that check the model against it
   * ({@link OpenLoopCheck#probes}: per workload and mode a lone tenant at light load, then a light, a
   * busy and an overloaded point, chosen from the closed-loop rows just measured), each for the plan's seconds and seed. A plan
   * with {@code mps-capped} also measures {@code mps-capped-solo} ({@link Plan#withCappedSolo}): the
   * capped prediction rests on a lone capped client's time.
   */
  public List<SharingRow> runWithOpenLoopCheck(Plan plan) {
    if (plan.settings().ratePerSecond() != 0) {
      throw new IllegalArgumentException("the open-loop check follows a closed-loop plan (rate 0)");
    }
    List<SharingRow> rows = new ArrayList<>(run(plan.withCappedSolo()));
    for (OpenLoopCheck.Probe p : OpenLoopCheck.probes(closed(rows))) {
      TenantKernel kernel = TenantKernel.byName(p.workload()).orElseThrow();
      BenchMode mode = BenchMode.byLabel(p.mode()).orElseThrow();
      rows.addAll(run(new Plan(List.of(kernel), List.of(mode), List.of(p.tenants()),
          new Arrivals.Settings(plan.settings().seconds(), p.ratePerSecond(), plan.settings().seed()))));
    }
    return rows;
  }

  /** The open-loop rows among {@code rows} (runs of {@code seconds}), each beside what the model predicts. */
  public static List<OpenLoopCheck.Point> check(List<SharingRow> rows, double seconds) {
    return OpenLoopCheck.check(closed(rows), open(rows, seconds));
  }

  private static List<OpenLoopRow> open(List<SharingRow> rows, double seconds) {
    return rows.stream().filter(r -> !r.closedLoop()).map(r -> r.toOpenLoopRow(seconds)).toList();
  }

  /** The lone tenants' open-loop rows among {@code rows}: the idle arrival's extra time. */
  public static List<OpenLoopRow> lone(List<SharingRow> rows, double seconds) {
    return OpenLoopCheck.lone(open(rows, seconds));
  }

  /** The closed-loop rows among {@code rows}, as the model reads them. */
  public static List<ClosedLoopRow> closed(List<SharingRow> rows) {
    return rows.stream().filter(SharingRow::closedLoop).map(SharingRow::toClosedLoopRow).toList();
  }
}
