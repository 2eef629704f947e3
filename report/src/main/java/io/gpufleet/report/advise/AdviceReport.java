package io.gpufleet.report.advise;

import io.gpufleet.engine.advise.Advice;
import io.gpufleet.engine.advise.Option;
import io.gpufleet.engine.advise.Risk;
import io.gpufleet.engine.advise.RuleCheck;
import io.gpufleet.engine.advise.Say;
import io.gpufleet.engine.advise.TenantSweep;
import io.gpufleet.engine.advise.WorkloadOutcome;
import io.gpufleet.model.advise.WorkloadProfile;
import io.gpufleet.report.chart.Axis;
import io.gpufleet.report.chart.LineChart;
import io.gpufleet.report.chart.Point;
import io.gpufleet.report.chart.Series;
import io.gpufleet.report.chart.SvgLineChart;
import io.gpufleet.report.json.JsonText;
import io.gpufleet.report.table.Table;
import io.gpufleet.report.table.Wrap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders an {@link Advice} as a kubectl-style table with the recommendation and its defence, as
 * JSON for scripts, or as a self-contained HTML page with an SVG chart of p99 against tenants per
 * mode. Computes nothing: every number comes from the advice.
 */
public final class AdviceReport {
  private AdviceReport() {}

  // ---- text ----

  public static String text(Advice a) {
    return text(a, Wrap.UNLIMITED);
  }

  /** As {@link #text(Advice)} in at most {@code width} columns: the table wraps its cells, other lines fold. */
  public static String text(Advice a, int width) {
    StringBuilder b = new StringBuilder();
    b.append("gpufleet advise: ").append(a.situation().gpu().id()).append(" (").append(a.situation().gpu().productName())
        .append(")\n");
    for (WorkloadProfile w : a.situation().workloads()) {
      b.append("  ").append(describe(w)).append('\n');
    }
    b.append('\n');
    Table t = Table.of("RANK", "OPTION", "GPUS", "PER GPU", "NODES", "$/MONTH", "P50", "P99", "SLO", "UTIL", "HEADROOM",
        "STATUS");
    int rank = 1;
    List<String> notes = new ArrayList<>();
    for (Option o : a.ranked()) {
      String status = status(o);
      t = t.row(rank, o.label(), o.gpus() == 0 ? "-" : o.gpus(), o.gpus() == 0 ? "-" : o.maxReplicasPerGpu(),
          o.nodes().map(n -> n.nodes() + " x " + n.instanceType()).orElse("-"),
          o.nodes().isPresent() ? Say.money(o.monthlyCost()) : "-", o.gpus() == 0 ? "-" : Say.ms(worstP50(o)),
          o.gpus() == 0 ? "-" : Say.ms(o.worstP99Ms()), slo(o), o.gpus() == 0 ? "-" : Say.percent(o.utilisation()),
          o.gpus() == 0 || o.headroom() == 0 ? "-" : Say.times(o.headroom()), status);
      for (String blocker : o.blockers()) {
        notes.add(String.format(Locale.ROOT, "  [%d] blocked: %s", rank, blocker));
      }
      rank++;
    }
    b.append(t.render(width));
    if (!notes.isEmpty()) {
      b.append('\n');
      notes.forEach(n -> b.append(n).append('\n'));
    }
    b.append("\nRECOMMENDATION\n");
    for (String s : a.defence()) {
      b.append("  ").append(s).append('\n');
    }
    a.recommended().ifPresent(o -> {
      b.append("\nRISKS OF ").append(o.label().toUpperCase(Locale.ROOT)).append('\n');
      for (Risk r : o.risks()) {
        b.append("  - ").append(r.text()).append(" [").append(r.source()).append("]\n");
      }
    });
    if (!a.rules().isEmpty()) {
      b.append("\nRULES OF THUMB\n");
      for (RuleCheck c : a.rules()) {
        b.append("  ").append(stance(c)).append("  ").append(c.sentence()).append('\n');
      }
    }
    b.append("\nASSUMPTIONS\n");
    for (String s : a.assumptions()) {
      b.append("  - ").append(s).append('\n');
    }
    return Wrap.foldAll(b.toString(), width);
  }

  /** One line per GPU type with the pick for it, best first; then the best GPU's full advice. */
  public static String comparisonText(List<Advice> byGpu) {
    return comparisonText(byGpu, Wrap.UNLIMITED);
  }

  /** As {@link #comparisonText(List)} in at most {@code width} columns. */
  public static String comparisonText(List<Advice> byGpu, int width) {
    StringBuilder b = new StringBuilder("gpufleet advise: every priced GPU type, best pick first\n\n");
    b.append(comparisonTable(byGpu).render(width)).append('\n');
    if (!byGpu.isEmpty()) {
      b.append(text(byGpu.getFirst(), width));
    }
    return b.toString();
  }

  static Table comparisonTable(List<Advice> byGpu) {
    Table t = Table.of("GPU", "PICK", "GPUS", "NODES", "$/MONTH", "P99", "SLO");
    for (Advice a : byGpu) {
      String gpu = a.situation().gpu().id();
      if (a.recommended().isEmpty()) {
        t = t.row(gpu, "(none usable)", "-", "-", "-", "-", "-");
        continue;
      }
      Option o = a.recommended().get();
      t = t.row(gpu, o.label(), o.gpus(), o.nodes().map(n -> n.nodes() + " x " + n.instanceType()).orElse("-"),
          Say.money(o.monthlyCost()), Say.ms(o.worstP99Ms()), slo(o));
    }
    return t;
  }

  /** The comparison and every GPU's advice. */
  public static String comparisonJson(List<Advice> byGpu) {
    return JsonText.write(Map.of("byGpu", byGpu.stream().map(AdviceReport::tree).toList()));
  }

  static String describe(WorkloadProfile w) {
    return String.format(Locale.ROOT, "%d x %s: %s, %s, %s req/s each (%s), GPU memory %d MiB, %s, %s", w.replicas(),
        w.name(), w.kind().wireName(), w.demand().describe(), trim(w.load().ratePerSecond()), w.load().burstiness().label(),
        w.memoryMiB(), w.slo().map(s -> "p99 SLO " + Say.ms(s.p99Ms())).orElse("no SLO"), w.trust().wireName());
  }

  private static String status(Option o) {
    if (!o.admissible()) {
      return "blocked";
    }
    return o.sloMet() ? "ok" : "misses SLO";
  }

  private static String slo(Option o) {
    if (o.gpus() == 0 || o.outcomes().stream().allMatch(x -> x.sloP99Ms().isEmpty())) {
      return "-";
    }
    return o.sloMet() ? "met" : "missed";
  }

  private static String stance(RuleCheck c) {
    return switch (c.stance()) {
      case AGREES -> "agrees    ";
      case OVERRULED -> "overruled ";
      case CONSTRAINS -> "constrains";
    };
  }

  private static double worstP50(Option o) {
    return o.outcomes().stream().mapToDouble(WorkloadOutcome::p50Ms).max().orElse(0);
  }

  static String trim(double v) {
    String t = String.format(Locale.ROOT, "%.4f", v).replaceAll("0+$", "");
    return t.endsWith(".") ? t.substring(0, t.length() - 1) : t;
  }

  // ---- JSON ----

  /** Every option with its numbers, the recommendation, rules, defence, chart data and assumptions. */
  public static String json(Advice a) {
    return JsonText.write(tree(a));
  }

  private static Map<String, Object> tree(Advice a) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("gpu", a.situation().gpu().id());
    List<Map<String, Object>> workloads = new ArrayList<>();
    for (WorkloadProfile w : a.situation().workloads()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", w.name());
      m.put("kind", w.kind().wireName());
      m.put("replicas", w.replicas());
      m.put("request", w.demand().describe());
      m.put("bound", w.bound().wireName());
      m.put("memoryMiB", w.memoryMiB());
      m.put("ratePerSecond", w.load().ratePerSecond());
      m.put("arrivalScv", w.load().burstiness().scv());
      m.put("sloP99Ms", w.slo().map(s -> (Object) s.p99Ms()).orElse(null));
      m.put("trust", w.trust().wireName());
      workloads.add(m);
    }
    root.put("workloads", workloads);
    List<Map<String, Object>> options = new ArrayList<>();
    int rank = 1;
    for (Option o : a.ranked()) {
      options.add(option(o, rank++));
    }
    root.put("options", options);
    root.put("recommended", a.recommended().map(Option::label).orElse(null));
    root.put("spread", a.spread().map(o -> (Object) option(o, 0)).orElse(null));
    root.put("defence", a.defence());
    List<Map<String, Object>> rules = new ArrayList<>();
    for (RuleCheck c : a.rules()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("rule", c.rule().id());
      m.put("says", c.rule().says());
      m.put("stance", c.stance().name().toLowerCase(Locale.ROOT));
      m.put("sentence", c.sentence());
      rules.add(m);
    }
    root.put("rulesOfThumb", rules);
    root.put("p99VsTenants", sweep(a.sweep()));
    root.put("assumptions", a.assumptions());
    return root;
  }

  private static Map<String, Object> option(Option o, int rank) {
    Map<String, Object> m = new LinkedHashMap<>();
    if (rank > 0) {
      m.put("rank", rank);
    }
    m.put("option", o.label());
    m.put("families", o.mode().families().stream().map(f -> f.label()).toList());
    m.put("gpus", o.gpus());
    m.put("replicasPerGpu", o.maxReplicasPerGpu());
    m.put("instanceType", o.nodes().map(n -> (Object) n.instanceType()).orElse(null));
    m.put("nodes", o.nodes().map(n -> (Object) n.nodes()).orElse(null));
    m.put("monthlyCostUsd", o.nodes().map(n -> (Object) round(n.monthlyCost(), 2)).orElse(null));
    m.put("utilisation", round(o.utilisation(), 4));
    m.put("headroom", round(o.headroom(), 3));
    m.put("admissible", o.admissible());
    m.put("sloMet", o.sloMet());
    List<Map<String, Object>> outcomes = new ArrayList<>();
    for (WorkloadOutcome w : o.outcomes()) {
      Map<String, Object> x = new LinkedHashMap<>();
      x.put("workload", w.workload());
      x.put("replicas", w.replicas());
      x.put("p50Ms", number(w.p50Ms()));
      x.put("p99Ms", number(w.p99Ms()));
      x.put("stable", w.stable());
      x.put("sloMet", w.sloMet());
      outcomes.add(x);
    }
    m.put("perWorkload", outcomes);
    m.put("risks", o.risks().stream().map(Risk::id).toList());
    m.put("blockers", o.blockers());
    m.put("fewerGpus", o.fewerGpus());
    return m;
  }

  private static Map<String, Object> sweep(TenantSweep s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("workload", s.workload());
    m.put("sloP99Ms", s.sloP99Ms().isPresent() ? s.sloP99Ms().getAsDouble() : null);
    Map<String, Object> series = new LinkedHashMap<>();
    for (TenantSweep.Series x : s.series()) {
      List<Object> points = new ArrayList<>();
      for (TenantSweep.Point p : x.points()) {
        points.add(number(p.p99Ms()));
      }
      series.put(x.mode(), points);
    }
    m.put("p99MsByTenants", series);
    return m;
  }

  /** JSON has no infinity: an unbounded latency is the string "unbounded", an unknown one null. */
  private static Object number(double v) {
    if (Double.isNaN(v)) {
      return null;
    }
    if (Double.isInfinite(v)) {
      return "unbounded";
    }
    return round(v, 3);
  }

  private static double round(double v, int decimals) {
    double f = Math.pow(10, decimals);
    return Math.round(v * f) / f;
  }

  // ---- HTML ----

  /** One page, no scripts, no network: the table, the defence, the chart, the rules and assumptions. */
  public static String html(Advice a) {
    StringBuilder b = new StringBuilder();
    String title = "gpufleet advise: " + a.situation().gpu().id();
    b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>").append(esc(title))
        .append("</title>\n<style>\n")
        .append("body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}\n")
        .append("table{border-collapse:collapse;font-size:13px}th,td{border:1px solid #ccc;padding:4px 8px;text-align:left}\n")
        .append("th{background:#f2f2f2}tr.pick td{background:#eef7ee}tr.blocked td{color:#888}\n")
        .append("li{margin:.3em 0}.small{font-size:12px;color:#555}\n")
        .append("</style>\n</head>\n<body>\n");
    b.append("<h1>").append(esc(title)).append("</h1>\n<ul>\n");
    for (WorkloadProfile w : a.situation().workloads()) {
      b.append("<li>").append(esc(describe(w))).append("</li>\n");
    }
    b.append("</ul>\n<h2>Recommendation</h2>\n");
    for (String s : a.defence()) {
      b.append("<p>").append(esc(s)).append("</p>\n");
    }
    b.append("<h2>Options, ranked</h2>\n<table>\n<tr><th>#</th><th>option</th><th>GPUs</th><th>per GPU</th><th>nodes</th>")
        .append("<th>$/month</th><th>p50</th><th>p99</th><th>SLO</th><th>util</th><th>headroom</th><th>risks / blocked by</th></tr>\n");
    int rank = 1;
    for (Option o : a.ranked()) {
      boolean pick = a.recommended().map(r -> r == o).orElse(false);
      b.append("<tr").append(pick ? " class=\"pick\"" : o.admissible() ? "" : " class=\"blocked\"").append("><td>")
          .append(rank++).append("</td><td>").append(esc(o.label())).append("</td><td>")
          .append(o.gpus() == 0 ? "-" : Integer.toString(o.gpus())).append("</td><td>")
          .append(o.gpus() == 0 ? "-" : Integer.toString(o.maxReplicasPerGpu())).append("</td><td>")
          .append(esc(o.nodes().map(n -> n.nodes() + " x " + n.instanceType()).orElse("-"))).append("</td><td>")
          .append(o.nodes().isPresent() ? esc(Say.money(o.monthlyCost())) : "-").append("</td><td>")
          .append(o.gpus() == 0 ? "-" : esc(Say.ms(worstP50(o)))).append("</td><td>")
          .append(o.gpus() == 0 ? "-" : esc(Say.ms(o.worstP99Ms()))).append("</td><td>").append(slo(o)).append("</td><td>")
          .append(o.gpus() == 0 ? "-" : Say.percent(o.utilisation())).append("</td><td>")
          .append(o.gpus() == 0 || o.headroom() == 0 ? "-" : Say.times(o.headroom())).append("</td><td>");
      List<String> cells = new ArrayList<>();
      o.blockers().forEach(x -> cells.add("<b>blocked:</b> " + esc(x)));
      o.risks().forEach(r -> cells.add(esc(r.text())));
      b.append(String.join("<br>", cells)).append("</td></tr>\n");
    }
    b.append("</table>\n<h2>p99 against tenants on one GPU</h2>\n");
    b.append(SvgLineChart.render(chart(a.sweep())));
    b.append("<p class=\"small\">Each line packs that many replicas of ").append(esc(a.sweep().workload()))
        .append(" onto one ").append(esc(a.situation().gpu().id()))
        .append(" (exclusive: one per GPU; MIG: the largest profile of which the card holds that many). ")
        .append("Lines leave the top where p99 exceeds the axis or the card cannot keep up; they stop where the mode ")
        .append("cannot hold that many replicas.</p>\n");
    if (!a.rules().isEmpty()) {
      b.append("<h2>Rules of thumb</h2>\n<ul>\n");
      for (RuleCheck c : a.rules()) {
        b.append("<li><b>").append(stance(c).strip()).append(":</b> ").append(esc(c.sentence())).append("</li>\n");
      }
      b.append("</ul>\n");
    }
    b.append("<h2>Assumptions</h2>\n<ul>\n");
    for (String s : a.assumptions()) {
      b.append("<li>").append(esc(s)).append("</li>\n");
    }
    b.append("</ul>\n</body>\n</html>\n");
    return b.toString();
  }

  /**
   * p99 (ms) against replicas on one GPU, a line per mode and the SLO as a flat line. The y axis
   * runs to three times the SLO (or a fifth above the highest finite p99); an unbounded p99 is
   * drawn off the top.
   */
  static LineChart chart(TenantSweep s) {
    double top;
    if (s.sloP99Ms().isPresent()) {
      top = 3 * s.sloP99Ms().getAsDouble();
    } else {
      double max = 0;
      for (TenantSweep.Series x : s.series()) {
        for (TenantSweep.Point p : x.points()) {
          if (Double.isFinite(p.p99Ms())) {
            max = Math.max(max, p.p99Ms());
          }
        }
      }
      top = Math.max(1, 1.2 * max);
    }
    int maxTenants = 1;
    List<Series> series = new ArrayList<>();
    for (TenantSweep.Series x : s.series()) {
      List<Point> points = new ArrayList<>();
      for (TenantSweep.Point p : x.points()) {
        double y = Double.isInfinite(p.p99Ms()) ? 10 * top : p.p99Ms();
        points.add(new Point(p.tenants(), y));
        maxTenants = Math.max(maxTenants, p.tenants());
      }
      series.add(new Series(x.mode(), points));
    }
    if (s.sloP99Ms().isPresent()) {
      double slo = s.sloP99Ms().getAsDouble();
      series.add(new Series("p99 SLO", List.of(new Point(1, slo), new Point(maxTenants, slo))));
    }
    return LineChart.of("p99 of " + s.workload() + " replicas sharing one GPU",
        Axis.of("replicas on the GPU", 1, Math.max(2, maxTenants)).withTicks(maxTenants > 12 ? 2 : 1, 0),
        Axis.of("p99 latency (ms)", 0, top), series);
  }

  private static String esc(String s) {
    return SvgLineChart.escape(s);
  }
}
