package io.gpufleet.report.sim;

import io.gpufleet.report.table.Table;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.invariant.InvariantViolation;
import io.gpufleet.sim.metrics.Metrics;
import io.gpufleet.sim.metrics.ServiceMetrics;
import io.gpufleet.sim.scenario.ExpectationOutcome;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/** The end of a run in a few lines: cost, GPU-hours, pending times, disruptions, services, expectations. */
public final class RunSummary {
  private RunSummary() {}

  public static String render(SimulationResult r) {
    Metrics m = r.metrics();
    StringBuilder b = new StringBuilder();
    b.append("SUMMARY  ").append(r.scenario()).append(": ").append(Durations.age(r.simulated()))
        .append(" of virtual time, ").append(r.events()).append(" events\n");
    b.append(String.format(Locale.ROOT, "  cost            $%.2f", m.totalCost()));
    if (!m.costByNodePool().isEmpty()) {
      b.append("  (");
      boolean first = true;
      for (Map.Entry<String, Double> e : m.costByNodePool().entrySet()) {
        b.append(first ? "" : ", ").append(e.getKey()).append(String.format(Locale.ROOT, " $%.2f", e.getValue()));
        first = false;
      }
      b.append(')');
    }
    b.append('\n');
    double total = m.gpuHoursAllocated() + m.gpuHoursIdle();
    b.append(String.format(Locale.ROOT, "  GPU-hours       %.2f allocated, %.2f idle (%.0f%% of %.2f in the fleet idle)%n",
        m.gpuHoursAllocated(), m.gpuHoursIdle(), total == 0 ? 0 : 100 * m.gpuHoursIdle() / total, total));
    b.append("  pending time    ").append(pending(m)).append('\n');
    b.append("  disruptions     ").append(m.disruptionsByReason().isEmpty() ? "none" : m.disruptionsByReason().toString())
        .append(m.evictionsByReason().isEmpty() ? "" : "; evictions " + m.evictionsByReason()).append('\n');
    for (ServiceMetrics s : m.services().values()) {
      if (s.workload().startsWith("DaemonSet/")) {
        continue; // one pod per node, not a service whose users could see an outage
      }
      b.append(String.format(Locale.ROOT,
          "  service         %s: at least %d ready, %.0f s with none ready, %.0f requests lost, %d pods killed%n",
          s.workload(), s.minReady(), s.outageSeconds(), s.lostRequests(), s.podsKilled()));
    }
    long passed = r.expectations().stream().filter(ExpectationOutcome::passed).count();
    b.append("  expectations    ").append(passed).append(" of ").append(r.expectations().size()).append(" passed\n");
    for (ExpectationOutcome o : r.expectations()) {
      if (!o.passed()) {
        b.append("    FAILED at ").append(Durations.offset(r.start(), o.time())).append(" (step ").append(o.step() + 1)
            .append(" of the timeline): ").append(o.description()).append("; seen: ").append(o.detail()).append('\n');
      }
    }
    if (!r.violations().isEmpty()) {
      b.append("  invariants      ").append(r.violations().size()).append(" violated\n");
      for (InvariantViolation v : r.violations()) {
        b.append("    ").append(v).append('\n');
      }
    }
    return b.toString();
  }

  static String pending(Metrics m) {
    if (m.pendingQuantile(0.5).isEmpty()) {
      return "no pod was scheduled" + (m.neverScheduled() > 0 ? " (" + m.neverScheduled() + " still pending)" : "");
    }
    return "p50 " + age(m.pendingQuantile(0.5).get()) + ", p90 " + age(m.pendingQuantile(0.9).get()) + ", p99 "
        + age(m.pendingQuantile(0.99).get()) + ", max " + age(m.pendingQuantile(1.0).get())
        + (m.neverScheduled() > 0 ? "; " + m.neverScheduled() + " pods still pending at the end" : "");
  }

  private static String age(Duration d) {
    return d.isZero() ? "0s" : Durations.age(d);
  }

  /** Expectations as a table, for reports. */
  public static Table expectations(SimulationResult r) {
    Table t = Table.of("TIME", "RESULT", "EXPECTATION", "SEEN");
    for (ExpectationOutcome o : r.expectations()) {
      t = t.row(Durations.offset(r.start(), o.time()), o.passed() ? "passed" : "FAILED", o.description(), o.detail());
    }
    return t;
  }
}
