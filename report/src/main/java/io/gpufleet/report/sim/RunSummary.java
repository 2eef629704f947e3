package io.gpufleet.report.sim;

import io.gpufleet.model.cloud.Money;
import io.gpufleet.model.time.KubeDuration;
import io.gpufleet.report.table.Table;
import io.gpufleet.report.table.Wrap;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.invariant.InvariantViolation;
import io.gpufleet.sim.metrics.Metrics;
import io.gpufleet.sim.metrics.ServiceMetrics;
import io.gpufleet.sim.metrics.TeamCost;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.scenario.ExpectationOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The end of a run in a few lines: cost, GPU-hours, pending times, disruptions, services, expectations. */
public final class RunSummary {
  private RunSummary() {}

  public static String render(SimulationResult r) {
    return render(r, Wrap.UNLIMITED);
  }

  /** As {@link #render(SimulationResult)}, a line longer than {@code width} folded under its value ({@link Wrap#fold}). */
  public static String render(SimulationResult r, int width) {
    return Wrap.foldAll(text(r), width);
  }

  private static String text(SimulationResult r) {
    Metrics m = r.metrics();
    StringBuilder b = new StringBuilder();
    b.append("SUMMARY  ").append(r.scenario()).append(": ").append(KubeDuration.format(r.simulated()))
        .append(" of virtual time, ").append(r.events()).append(" events\n");
    b.append("  cost            ").append(Money.dollars(m.totalCost()));
    if (!m.costByNodePool().isEmpty()) {
      b.append("  (");
      boolean first = true;
      for (Map.Entry<String, Double> e : m.costByNodePool().entrySet()) {
        b.append(first ? "" : ", ").append(e.getKey()).append(" ").append(Money.dollars(e.getValue()));
        first = false;
      }
      b.append(')');
    }
    b.append('\n');
    double total = m.gpuHoursAllocated() + m.gpuHoursIdle();
    b.append(String.format(Locale.ROOT, "  GPU-hours       %.2f allocated, %.2f idle (%.0f%% of %.2f in the fleet idle)%n",
        m.gpuHoursAllocated(), m.gpuHoursIdle(), total == 0 ? 0 : 100 * m.gpuHoursIdle() / total, total));
    TeamCost teamCost = m.teamCost();
    if (!teamCost.isEmpty()) {
      b.append("  GPUs by team    ").append(teams(teamCost)).append('\n');
    }
    b.append("  pending time    ").append(pending(m)).append('\n');
    b.append("  disruptions     ").append(m.disruptionsByReason().isEmpty() ? "none" : counts(m.disruptionsByReason()))
        .append(m.evictionsByReason().isEmpty() ? "" : "; evictions " + counts(m.evictionsByReason())).append('\n');
    String shaped = shaped(r);
    if (!shaped.isEmpty()) {
      b.append("  sizing          ").append(shaped).append('\n');
    }
    for (ServiceMetrics s : m.services().values()) {
      if (!s.service()) {
        continue;
      }
      b.append("  service         ").append(s.workload()).append(": ").append(service(s, r.start())).append('\n');
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

  /**
   * Launches sized other than by the catalogue Karpenter reads, as the run recorded them: by a
   * NodeOverlay, or by the twin's advertised sizing; empty when none was.
   */
  static String shaped(SimulationResult r) {
    long overlay = 0;
    long extension = 0;
    long dra = 0;
    for (var e : r.record().of(RunRecord.Kind.KARPENTER_EVENT)) {
      overlay += e.message().startsWith("NodeOverlayApplied: ") ? 1 : 0;
      // The same event reason says either extension: advertised sizing per launch, DRA sizing per pod.
      boolean sized = e.message().startsWith("SizedByExtension: ");
      boolean byDra = sized && e.message().startsWith("SizedByExtension: draRequests: ");
      extension += sized && !byDra ? 1 : 0;
      dra += byDra ? 1 : 0;
    }
    StringBuilder b = new StringBuilder();
    if (overlay > 0) {
      b.append(overlay).append(" launch(es) shaped by NodeOverlays");
    }
    if (extension > 0) {
      b.append(b.isEmpty() ? "" : "; ").append(extension)
          .append(" launch(es) sized by advertised GPUs (gpufleet extension, not Karpenter)");
    }
    if (dra > 0) {
      b.append(b.isEmpty() ? "" : "; ").append(dra)
          .append(" pod(s) with ResourceClaims provisioned for by draRequests: allocate (gpufleet extension, not Karpenter)");
    }
    return b.toString();
  }

  /**
   * {@code team-a 3.50 GPU-h, $12.10, team-b 1.00 GPU-h, $3.20; idle 0.50 GPU-h, $1.60 with start-up}: what each
   * namespace's pods held of the cards, as held (a replica or a MIG slice as its part of the card).
   */
  static String teams(TeamCost t) {
    StringBuilder b = new StringBuilder();
    for (var e : t.byNamespace().entrySet()) {
      b.append(b.isEmpty() ? "" : ", ").append(e.getKey()).append(' ').append(share(e.getValue()));
    }
    return b.append("; idle ").append(share(t.idle())).append(" with start-up").toString();
  }

  private static String share(TeamCost.Share s) {
    return String.format(Locale.ROOT, "%.2f GPU-h, %s", s.gpuHours(), Money.dollars(s.dollars()));
  }

  /** {@code Expired 2, Underutilized 1}. */
  static String counts(Map<String, Integer> byReason) {
    return String.join(", ", byReason.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toList());
  }

  /**
   * What a service's users saw, only as far as it was measured: a service that never had a Ready
   * pod says so; requests lost only where the workload declared its traffic.
   */
  static String service(ServiceMetrics s, Instant start) {
    if (!s.everReady()) {
      return "never Ready";
    }
    StringBuilder b = new StringBuilder();
    if (!s.allReady().equals(s.firstReady())) {
      b.append("first Ready ").append(Durations.offset(start, s.firstReady().get())).append("; ");
    }
    if (s.allReady().isPresent()) {
      b.append("all wanted Ready ").append(Durations.offset(start, s.allReady().get()));
      s.minReady().ifPresent(min -> b.append(", then at least ").append(min));
    } else {
      b.append("never all wanted Ready at once (at most ").append(s.mostReady()).append(')');
    }
    b.append("; ").append(KubeDuration.format(Duration.ofMillis(Math.round(s.outageSeconds() * 1000))))
        .append(" with none Ready after the first");
    if (s.lostRequests().isPresent()) {
      b.append(String.format(Locale.ROOT, "; %.0f requests lost", s.lostRequests().getAsDouble()));
    } else {
      b.append("; no traffic modelled");
    }
    return b.append("; ").append(s.podsKilled()).append(s.podsKilled() == 1 ? " pod" : " pods")
        .append(" killed while serving").toString();
  }

  /**
   * Percentiles over every pod; pods still pending at the end count with their wait so far, and a
   * percentile they could raise is written as a lower bound ({@code >=}).
   */
  static String pending(Metrics m) {
    long pods = m.pendingTimes().size();
    if (pods == 0) {
      return "no pods";
    }
    StringBuilder b = new StringBuilder();
    List<Optional<Metrics.PendingQuantile>> quantiles = m.pendingQuantiles(QUANTILES);
    for (int i = 0; i < QUANTILES.length; i++) {
      double q = QUANTILES[i];
      Metrics.PendingQuantile p = quantiles.get(i).orElseThrow();
      b.append(b.isEmpty() ? "" : ", ").append(quantileName(q)).append(' ').append(p.atLeast() ? ">=" : "")
          .append(KubeDuration.format(p.waited()));
    }
    b.append(" over ").append(pods).append(pods == 1 ? " pod" : " pods");
    long censored = m.neverScheduled();
    if (censored > 0) {
      b.append("; ").append(censored).append(" still pending at the end, counted with their wait so far (censored)");
    }
    return b.toString();
  }

  /** The pending-time percentiles the summary and result.json report. */
  static final double[] QUANTILES = {0.5, 0.9, 0.99, 1.0};

  /** The same percentiles, for other views of a run (the dashboard's comparison). */
  public static List<Double> quantiles() {
    return Arrays.stream(QUANTILES).boxed().toList();
  }

  /** {@code p50}, {@code p90}, {@code p99}, {@code max}. */
  public static String quantileName(double q) {
    return q == 1.0 ? "max" : "p" + Math.round(q * 100);
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
