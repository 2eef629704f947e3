package io.gpufleet.report.replay;

import io.gpufleet.report.chart.Axis;
import io.gpufleet.report.chart.LineChart;
import io.gpufleet.report.chart.Point;
import io.gpufleet.report.chart.Series;
import io.gpufleet.report.chart.SvgLineChart;
import io.gpufleet.sim.replay.ArrivalGrid;
import io.gpufleet.sim.replay.SweepOutcome;
import io.gpufleet.sim.replay.ReplaySummary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The results of a sweep, condensed per (variant, policy) over seeds: the paper's headline figure
 * (allocation at 130% arrived) as mean and sample standard deviation, and the mean curve on the x
 * grid. Rows and columns keep the order in which the sweep listed them, so the output is a pure
 * function of the outcomes.
 */
public final class SweepReport {

  /**
   * One (variant, policy) over its seeds.
   *
   * @param meanAlloc the mean allocation at each x of the grid (NaN where no seed has a value)
   */
  public record Cell(String variant, String policy, int seeds, double mean, double sd, double meanFailed,
      List<Double> meanAlloc) {

    public Cell {
      meanAlloc = List.copyOf(meanAlloc);
    }
  }

  private final List<String> variants = new ArrayList<>();
  private final List<String> policies = new ArrayList<>();
  private final Map<String, Map<String, Cell>> cells = new LinkedHashMap<>();
  private final List<SweepOutcome> outcomes;

  public SweepReport(List<SweepOutcome> outcomes) {
    this.outcomes = List.copyOf(outcomes);
    Map<String, Map<String, List<SweepOutcome>>> grouped = new LinkedHashMap<>();
    for (SweepOutcome o : outcomes) {
      String v = o.cell().variant();
      String p = o.summary().policy();
      if (!variants.contains(v)) {
        variants.add(v);
      }
      if (!policies.contains(p)) {
        policies.add(p);
      }
      grouped.computeIfAbsent(v, k -> new LinkedHashMap<>()).computeIfAbsent(p, k -> new ArrayList<>()).add(o);
    }
    grouped.forEach((v, byPolicy) -> {
      Map<String, Cell> row = new LinkedHashMap<>();
      byPolicy.forEach((p, runs) -> row.put(p, condense(v, p, runs)));
      cells.put(v, row);
    });
  }

  private static Cell condense(String variant, String policy, List<SweepOutcome> runs) {
    int n = runs.size();
    double sum = 0;
    double failed = 0;
    double[] alloc = new double[ArrivalGrid.X_MAX + 1];
    int[] count = new int[alloc.length];
    for (SweepOutcome o : runs) {
      sum += o.summary().allocAtTarget();
      failed += o.summary().failed();
      for (int x = 0; x < alloc.length; x++) {
        double a = o.grid().alloc(x);
        if (!Double.isNaN(a)) {
          alloc[x] += a;
          count[x]++;
        }
      }
    }
    double mean = sum / n;
    double ss = 0;
    for (SweepOutcome o : runs) {
      double d = o.summary().allocAtTarget() - mean;
      ss += d * d;
    }
    List<Double> meanAlloc = new ArrayList<>(alloc.length);
    for (int x = 0; x < alloc.length; x++) {
      meanAlloc.add(count[x] == 0 ? Double.NaN : alloc[x] / count[x]);
    }
    return new Cell(variant, policy, n, mean, n > 1 ? Math.sqrt(ss / (n - 1)) : 0, failed / n, meanAlloc);
  }

  public List<String> variants() {
    return List.copyOf(variants);
  }

  public List<String> policies() {
    return List.copyOf(policies);
  }

  public Optional<Cell> cell(String variant, String policy) {
    return Optional.ofNullable(cells.getOrDefault(variant, Map.of()).get(policy));
  }

  /** A Markdown table (readable as is on a terminal): mean ± sd allocation at 130% arrived. */
  public String table() {
    StringBuilder b = new StringBuilder();
    b.append("| variant |");
    for (String p : policies) {
      b.append(' ').append(p).append(" |");
    }
    b.append("\n|---|");
    b.append("---:|".repeat(policies.size()));
    b.append('\n');
    for (String v : variants) {
      b.append("| ").append(v).append(" |");
      for (String p : policies) {
        b.append(' ').append(cell(v, p).map(c -> Numbers.pct(c.mean()) + " ± " + Numbers.pct(c.sd())).orElse("")).append(" |");
      }
      b.append('\n');
    }
    return b.toString();
  }

  /** Our default-trace means beside the paper's, where the sweep ran the default trace. */
  public String paperComparison() {
    if (!variants.contains("default")) {
      return "";
    }
    StringBuilder b = new StringBuilder("| policy | published | measured | difference |\n|---|---:|---:|---:|\n");
    for (PaperFigures.Published p : PaperFigures.DEFAULT_TRACE) {
      cell("default", p.policy()).ifPresent(c -> b.append("| ").append(p.policy()).append(" | ")
          .append(Numbers.pct(p.allocPercent())).append(" | ").append(Numbers.pct(c.mean())).append(" ± ")
          .append(Numbers.pct(c.sd())).append(" | ").append(signed(c.mean() - p.allocPercent())).append(" |\n"));
    }
    return b.toString();
  }

  private static String signed(double d) {
    String s = Numbers.pct(d);
    return s.startsWith("-") ? s : "+" + s;
  }

  /** One row per replay. */
  public String runsCsv() {
    StringBuilder b = new StringBuilder("variant,policy,seed,arrivals,failed,arrived_pct,allocated_pct_end,"
        + "allocated_pct_at_130,frag_pct_end,cards_in_use,idle_usable_gpu,idle_starved_gpu,idle_sliver_gpu\n");
    for (SweepOutcome o : outcomes) {
      ReplaySummary s = o.summary();
      b.append(s.variant()).append(',').append(s.policy()).append(',').append(s.seed()).append(',')
          .append(s.arrivals()).append(',').append(s.failed()).append(',').append(Numbers.fixed(s.arrivedPercent(), 4))
          .append(',').append(Numbers.fixed(s.allocPercent(), 4)).append(',').append(Numbers.pct(s.allocAtTarget()))
          .append(',').append(Numbers.fixed(s.fragPercent(), 4)).append(',').append(s.cardsInUse()).append(',')
          .append(Numbers.fixed(s.idle().usable() / 1000.0, 3)).append(',')
          .append(Numbers.fixed(s.idle().starved() / 1000.0, 3)).append(',')
          .append(Numbers.fixed(s.idle().slivers() / 1000.0, 3)).append('\n');
    }
    return b.toString();
  }

  /** One row per (variant, policy). */
  public String tableCsv() {
    StringBuilder b = new StringBuilder("variant,policy,seeds,allocated_pct_at_130_mean,allocated_pct_at_130_sd,failed_mean\n");
    for (String v : variants) {
      for (String p : policies) {
        cell(v, p).ifPresent(c -> b.append(v).append(',').append(p).append(',').append(c.seeds()).append(',')
            .append(Numbers.fixed(c.mean(), 3)).append(',').append(Numbers.fixed(c.sd(), 3)).append(',')
            .append(Numbers.fixed(c.meanFailed(), 1)).append('\n'));
      }
    }
    return b.toString();
  }

  /** The mean allocation curves of one variant, one line per policy, over {@code xFrom..130}. */
  public LineChart chart(String variant, int xFrom) {
    List<Series> series = new ArrayList<>();
    double lo = 100;
    for (String p : policies) {
      Optional<Cell> c = cell(variant, p);
      if (c.isEmpty()) {
        continue;
      }
      List<Double> alloc = c.get().meanAlloc();
      List<Point> points = new ArrayList<>();
      for (int x = xFrom; x <= ArrivalGrid.X_MAX; x++) {
        double a = alloc.get(x);
        points.add(new Point(x, a));
        if (!Double.isNaN(a)) {
          lo = Math.min(lo, a);
        }
      }
      series.add(new Series(p, points));
    }
    double yMin = xFrom == 0 ? 0 : Math.max(0, Math.floor(lo / 5) * 5);
    Axis x = Axis.of("arrived GPU demand (% of capacity)", xFrom, ArrivalGrid.X_MAX).withTicks(xFrom == 0 ? 10 : 5, 0);
    Axis y = Axis.of("allocated GPU (% of capacity)", yMin, 100).withTicks(xFrom == 0 ? 10 : (100 - yMin > 20 ? 5 : 2), 0);
    String title = "openb " + variant + ": allocation vs arrived demand" + (xFrom == 0 ? "" : " (from " + xFrom + "%)");
    return LineChart.of(title, x, y, series);
  }

  /** A self-contained page (no scripts, no network): tables and one chart per variant. */
  public String html() {
    StringBuilder b = new StringBuilder();
    b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<title>gpufleet: openb replay sweep</title>\n<style>\n")
        .append("body{font-family:sans-serif;margin:2em;max-width:1100px;color:#222}\n")
        .append("table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}\n")
        .append("th:first-child,td:first-child{text-align:left}td.best{font-weight:bold;background:#eef6ee}\n")
        .append("figure{margin:1.5em 0}\n</style>\n</head>\n<body>\n")
        .append("<h1>openb replay: allocation at 130% arrived GPU demand</h1>\n")
        .append("<p>Mean ± sample standard deviation over seeds of the allocated GPU (milli-GPU, % of cluster capacity) ")
        .append("at 130% arrived demand on the paper's x grid. Protocol of the FGD paper (ATC'23): the GPU nodes of ")
        .append("the openb trace start empty, pods are sorted by name, shuffled by the seed, tuned up to 130% of GPU ")
        .append("capacity, scheduled one at a time, never depart; a pod that fits nowhere fails.</p>\n");
    b.append("<table>\n<tr><th>variant</th>");
    for (String p : policies) {
      b.append("<th>").append(SvgLineChart.escape(p)).append("</th>");
    }
    b.append("</tr>\n");
    for (String v : variants) {
      double best = Double.NEGATIVE_INFINITY;
      for (String p : policies) {
        best = Math.max(best, cell(v, p).map(Cell::mean).orElse(Double.NEGATIVE_INFINITY));
      }
      b.append("<tr><td>").append(SvgLineChart.escape(v)).append("</td>");
      for (String p : policies) {
        Optional<Cell> c = cell(v, p);
        double bestMean = best;
        b.append(c.map(x -> (x.mean() == bestMean ? "<td class=\"best\">" : "<td>") + Numbers.pct(x.mean())
            + " ± " + Numbers.pct(x.sd()) + "</td>").orElse("<td></td>"));
      }
      b.append("</tr>\n");
    }
    b.append("</table>\n");
    if (variants.contains("default")) {
      b.append("<h2>Default trace against the paper</h2>\n<table>\n<tr><th>policy</th><th>published</th><th>measured</th></tr>\n");
      for (PaperFigures.Published p : PaperFigures.DEFAULT_TRACE) {
        cell("default", p.policy()).ifPresent(c -> b.append("<tr><td>").append(p.policy()).append("</td><td>")
            .append(Numbers.pct(p.allocPercent())).append("</td><td>").append(Numbers.pct(c.mean())).append(" ± ")
            .append(Numbers.pct(c.sd())).append("</td></tr>\n"));
      }
      b.append("</table>\n");
    }
    for (String v : variants) {
      b.append("<h2>").append(SvgLineChart.escape(v)).append("</h2>\n");
      b.append("<figure>\n").append(SvgLineChart.render(chart(v, 0))).append("</figure>\n");
      b.append("<figure>\n").append(SvgLineChart.render(chart(v, 80))).append("</figure>\n");
    }
    b.append("</body>\n</html>\n");
    return b.toString();
  }
}
