package io.gpufleet.report.sim;

import io.gpufleet.model.cloud.Money;
import io.gpufleet.report.table.Table;
import io.gpufleet.report.table.Wrap;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.metrics.CardSpan;
import io.gpufleet.sim.metrics.Metrics;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.scenario.ExpectationOutcome;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Two runs side by side, figure by figure: made to put the same workloads through two ways of
 * giving out GPUs (the device plugin's resources and DRA's claims), so what each way changes shows:
 * the cards held and how many pods shared one, how the cards were shared, GPU-hours, cost, pending
 * time, the scheduler's words for pods that waited, disruptions and evictions, each service's time
 * with none Ready (and requests lost, where modelled), the expectations each run met and, by name,
 * each one whose result changed ({@link WhatChanged}).
 */
public final class RunComparison {
  private RunComparison() {}

  /** A value longer than this goes below the table, one line per run, so the columns stay readable. */
  static final int WIDEST_CELL = 56;

  public static String render(SimulationResult a, SimulationResult b) {
    return render(a, b, Wrap.UNLIMITED);
  }

  /** As {@link #render(SimulationResult, SimulationResult)} in at most {@code width} columns. */
  public static String render(SimulationResult a, SimulationResult b, int width) {
    return render(a.scenario(), b.scenario(), rows(a, b), width);
  }

  static String render(String nameA, String nameB, List<List<String>> rows) {
    return render(nameA, nameB, rows, Wrap.UNLIMITED);
  }

  static String render(String nameA, String nameB, List<List<String>> rows, int width) {
    Table t = Table.of("", nameA, nameB);
    StringBuilder below = new StringBuilder();
    for (List<String> row : rows) {
      if (row.get(1).length() <= WIDEST_CELL && row.get(2).length() <= WIDEST_CELL) {
        t = t.row(row.get(0), row.get(1), row.get(2));
      } else {
        below.append(row.get(0)).append('\n')
            .append("  ").append(nameA).append(": ").append(row.get(1)).append('\n')
            .append("  ").append(nameB).append(": ").append(row.get(2)).append('\n');
      }
    }
    return below.isEmpty() ? t.render(width) : t.render(width) + "\n" + Wrap.foldAll(below.toString(), width);
  }

  static List<List<String>> rows(SimulationResult a, SimulationResult b) {
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("virtual time", Durations.offset(a.start(), a.end()), Durations.offset(b.start(), b.end())));
    rows.add(List.of("pods created", count(a, RunRecord.Kind.POD_CREATED), count(b, RunRecord.Kind.POD_CREATED)));
    rows.add(List.of("cards held (node/GPU)", String.valueOf(cards(a.metrics())), String.valueOf(cards(b.metrics()))));
    rows.add(List.of("most pods on one card at once", String.valueOf(peakPerCard(a.metrics())),
        String.valueOf(peakPerCard(b.metrics()))));
    rows.add(List.of("cards shared as", sharedAs(a.metrics()), sharedAs(b.metrics())));
    rows.add(List.of("GPU-hours allocated", hours(a.metrics().gpuHoursAllocated()),
        hours(b.metrics().gpuHoursAllocated())));
    rows.add(List.of("GPU-hours idle", hours(a.metrics().gpuHoursIdle()), hours(b.metrics().gpuHoursIdle())));
    rows.add(List.of("cost", Money.dollars(a.metrics().totalCost()), Money.dollars(b.metrics().totalCost())));
    rows.add(List.of("pending time", RunSummary.pending(a.metrics()), RunSummary.pending(b.metrics())));
    rows.add(List.of("why pods waited", waited(a), waited(b)));
    rows.add(List.of("disruptions", disruptions(a.metrics().disruptionsByReason()),
        disruptions(b.metrics().disruptionsByReason())));
    rows.add(List.of("evictions", disruptions(a.metrics().evictionsByReason()),
        disruptions(b.metrics().evictionsByReason())));
    WhatChanged changed = WhatChanged.of(a, b);
    for (WhatChanged.Service s : changed.services()) {
      rows.add(List.of(s.workload(), WhatChanged.Service.outage(s.a()), WhatChanged.Service.outage(s.b())));
      if (s.trafficModelled()) {
        rows.add(List.of(s.workload() + " requests lost", WhatChanged.Service.lost(s.a()),
            WhatChanged.Service.lost(s.b())));
      }
      rows.add(List.of(s.workload() + " pods killed while serving",
          s.a().map(m -> String.valueOf(m.podsKilled())).orElse("-"),
          s.b().map(m -> String.valueOf(m.podsKilled())).orElse("-")));
    }
    rows.add(List.of("expectations passed", passed(a), passed(b)));
    for (WhatChanged.Expectation e : changed.expectations()) {
      rows.add(List.of("expectation \"" + e.description() + "\"", e.a(), e.b()));
    }
    rows.add(List.of("invariants violated", String.valueOf(a.violations().size()),
        String.valueOf(b.violations().size())));
    return rows;
  }

  private static String disruptions(Map<String, Integer> byReason) {
    return byReason.isEmpty() ? "none" : RunSummary.counts(byReason);
  }

  private static String count(SimulationResult r, RunRecord.Kind kind) {
    return String.valueOf(r.record().of(kind).size());
  }

  private static String hours(double h) {
    return String.format(Locale.ROOT, "%.2f", h);
  }

  private static String passed(SimulationResult r) {
    return r.expectations().stream().filter(ExpectationOutcome::passed).count() + " of "
        + r.expectations().size();
  }

  /** One physical card of the fleet. */
  private record CardRef(String node, int gpu) {}

  /** Distinct physical cards any pod held. */
  static int cards(Metrics m) {
    Set<CardRef> cards = new LinkedHashSet<>();
    for (CardSpan s : m.cardSpans()) {
      cards.add(new CardRef(s.node(), s.card().gpuIndex()));
    }
    return cards.size();
  }

  /** The most pods holding one physical card at the same instant. */
  static int peakPerCard(Metrics m) {
    Map<CardRef, TreeMap<Instant, Integer>> deltas = new HashMap<>();
    for (CardSpan s : m.cardSpans()) {
      TreeMap<Instant, Integer> d = deltas.computeIfAbsent(new CardRef(s.node(), s.card().gpuIndex()),
          k -> new TreeMap<>());
      d.merge(s.start(), 1, Integer::sum);
      d.merge(s.end().orElse(m.end()), -1, Integer::sum);
    }
    int peak = 0;
    for (TreeMap<Instant, Integer> d : deltas.values()) {
      int now = 0;
      for (int delta : d.values()) {
        now += delta;
        peak = Math.max(peak, now);
      }
    }
    return peak;
  }

  /** How the cards were handed out: the replica, MIG profile or claim sharing each span names. */
  static String sharedAs(Metrics m) {
    Set<String> how = new TreeSet<>();
    for (CardSpan s : m.cardSpans()) {
      how.add(s.card().detail().isEmpty() ? "exclusive" : s.card().detail());
    }
    return how.isEmpty() ? "-" : String.join(", ", how);
  }

  /** The distinct reasons in the scheduler's FailedScheduling messages, with how many pods met each. */
  static String waited(SimulationResult r) {
    Map<String, Set<String>> byMessage = new TreeMap<>();
    for (RunRecord.Entry e : r.record().of(RunRecord.Kind.POD_FAILED_SCHEDULING)) {
      byMessage.computeIfAbsent(e.message(), k -> new TreeSet<>()).add(e.subject());
    }
    if (byMessage.isEmpty()) {
      return "none";
    }
    List<String> out = new ArrayList<>();
    byMessage.forEach((msg, pods) -> out.add(pods.size() + " pod(s): " + msg));
    return String.join("; ", out);
  }
}
