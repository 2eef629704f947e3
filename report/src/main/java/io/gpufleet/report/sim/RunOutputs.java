package io.gpufleet.report.sim;

import io.gpufleet.model.time.KubeDuration;
import io.gpufleet.report.chart.Axis;
import io.gpufleet.report.chart.GanttChart;
import io.gpufleet.report.chart.LineChart;
import io.gpufleet.report.chart.Point;
import io.gpufleet.report.chart.Series;
import io.gpufleet.report.chart.SvgGanttChart;
import io.gpufleet.report.chart.SvgLineChart;
import io.gpufleet.report.json.JsonText;
import io.gpufleet.report.timeline.FleetCounts;
import io.gpufleet.report.timeline.Frame;
import io.gpufleet.report.timeline.LifecycleLane;
import io.gpufleet.report.timeline.NodeLifecycle;
import io.gpufleet.report.timeline.RunMarker;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.invariant.InvariantViolation;
import io.gpufleet.sim.metrics.CardSpan;
import io.gpufleet.sim.metrics.TeamCost;
import io.gpufleet.sim.metrics.Metrics;
import io.gpufleet.sim.metrics.PodPendingTime;
import io.gpufleet.sim.metrics.ServiceMetrics;
import io.gpufleet.sim.metrics.TimeSeries;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.scenario.ExpectationOutcome;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.DoubleFunction;

/**
 * A run's files: {@code result.json} (summary, costs, expectations), {@code timeseries.csv} and
 * {@code pods.csv}, and a self-contained {@code report.html} with SVG charts (nodes by type and
 * capacity type, GPUs allocated and idle, cumulative cost, pending pods, pods on cards). Nothing
 * depends on the wall clock or the platform: the same run gives the same bytes.
 */
public final class RunOutputs {
  private RunOutputs() {}

  // ---- JSON ----

  public static String json(SimulationResult r, long seed) {
    Metrics m = r.metrics();
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("scenario", r.scenario());
    root.put("seed", seed);
    root.put("start", r.start().toString());
    root.put("end", r.end().toString());
    root.put("simulatedSeconds", r.simulated().getSeconds());
    root.put("events", r.events());
    Map<String, Object> cost = new LinkedHashMap<>();
    cost.put("totalDollars", round(m.totalCost()));
    cost.put("byNodePool", rounded(m.costByNodePool()));
    cost.put("byNode", rounded(m.costByNode()));
    Map<String, Object> teams = new LinkedHashMap<>();
    TeamCost teamCost = m.teamCost();
    teamCost.byNamespace().forEach((ns, share) -> teams.put(ns, share(share)));
    cost.put("gpuByNamespace", teams);
    cost.put("gpuIdle", share(teamCost.idle()));
    root.put("cost", cost);
    Map<String, Object> gpuHours = new LinkedHashMap<>();
    gpuHours.put("allocated", round(m.gpuHoursAllocated()));
    gpuHours.put("idle", round(m.gpuHoursIdle()));
    root.put("gpuHours", gpuHours);
    // Over every pod; a pod still pending at the end counts with its wait so far, and a percentile
    // such a censored wait could raise is marked atLeast.
    Map<String, Object> pending = new LinkedHashMap<>();
    pending.put("pods", m.pendingTimes().size());
    pending.put("stillPending", m.neverScheduled());
    List<Optional<Metrics.PendingQuantile>> quantiles = m.pendingQuantiles(RunSummary.QUANTILES);
    for (int i = 0; i < RunSummary.QUANTILES.length; i++) {
      pending.put(RunSummary.quantileName(RunSummary.QUANTILES[i]), quantiles.get(i).map(p -> {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("seconds", p.waited().getSeconds());
        e.put("atLeast", p.atLeast());
        return e;
      }).orElse(null));
    }
    root.put("pendingSeconds", pending);
    root.put("disruptionsByReason", m.disruptionsByReason());
    root.put("evictionsByReason", m.evictionsByReason());
    List<Map<String, Object>> services = new ArrayList<>();
    for (ServiceMetrics s : m.services().values()) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("workload", s.workload().toString());
      e.put("trafficModelled", s.trafficModelled());
      e.put("firstReadySeconds", s.firstReady().map(t -> Duration.between(r.start(), t).getSeconds()).orElse(null));
      e.put("allReadySeconds", s.allReady().map(t -> Duration.between(r.start(), t).getSeconds()).orElse(null));
      e.put("mostReady", s.mostReady());
      e.put("minReadyOnceAllReady", s.minReady().isPresent() ? s.minReady().getAsInt() : null);
      e.put("service", s.service());
      e.put("outageSeconds", s.service() && s.everReady() ? round(s.outageSeconds()) : null);
      e.put("lostRequests", s.lostRequests().isPresent() ? round(s.lostRequests().getAsDouble()) : null);
      e.put("podsKilled", s.podsKilled());
      services.add(e);
    }
    root.put("services", services);
    List<Map<String, Object>> expectations = new ArrayList<>();
    for (ExpectationOutcome o : r.expectations()) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("timelineStep", o.step() + 1);
      e.put("time", o.time().toString());
      e.put("description", o.description());
      e.put("passed", o.passed());
      e.put("seen", o.detail());
      expectations.add(e);
    }
    root.put("expectations", expectations);
    root.put("invariantViolations", r.violations().stream().map(InvariantViolation::toString).toList());
    return JsonText.write(root);
  }

  private static double round(double v) {
    return Math.round(v * 10_000) / 10_000.0;
  }

  /** {@code {"gpuHours": 1.5, "dollars": 3.02}}. */
  private static Map<String, Object> share(TeamCost.Share s) {
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("gpuHours", round(s.gpuHours()));
    e.put("dollars", round(s.dollars()));
    return e;
  }

  private static Map<String, Double> rounded(Map<String, Double> m) {
    Map<String, Double> out = new TreeMap<>();
    m.forEach((k, v) -> out.put(k, round(v)));
    return out;
  }

  // ---- CSV ----

  /** {@code series,seconds,value}: every sample of every time series, seconds from the start. */
  public static String timeSeriesCsv(SimulationResult r) {
    StringBuilder b = new StringBuilder("series,seconds,value\n");
    for (TimeSeries ts : r.metrics().series().values()) {
      for (TimeSeries.Sample s : ts.samples()) {
        b.append(csv(ts.name())).append(',').append(Duration.between(r.start(), s.time()).getSeconds()).append(',')
            .append(number(s.value())).append('\n');
      }
    }
    return b.toString();
  }

  /** {@code pod,workload,created_s,scheduled_s,pending_s}: how long each pod waited for a node. */
  public static String podsCsv(SimulationResult r) {
    StringBuilder b = new StringBuilder("pod,workload,created_s,scheduled_s,pending_s\n");
    List<PodPendingTime> pods = new ArrayList<>(r.metrics().pendingTimes());
    // By creation time, then name. One plain comparator: the composed one's key extractors cost more
    // than the comparisons on 100,000 pods created at one instant.
    pods.sort((a, c) -> {
      int byTime = a.created().compareTo(c.created());
      return byTime != 0 ? byTime : a.pod().compareTo(c.pod());
    });
    for (PodPendingTime p : pods) {
      b.append(csv(p.pod())).append(',').append(csv(p.workload().orElse(""))).append(',')
          .append(Duration.between(r.start(), p.created()).getSeconds()).append(',')
          .append(p.scheduled().map(t -> Long.toString(Duration.between(r.start(), t).getSeconds())).orElse(""))
          .append(',').append(p.pending().map(d -> Long.toString(d.getSeconds())).orElse("")).append('\n');
    }
    return b.toString();
  }

  private static String csv(String s) {
    return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
  }

  private static String number(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.6f", v);
  }

  // ---- HTML ----

  /** The time unit of a run's charts: minutes up to three hours, hours up to three days, then days. */
  record TimeUnit(String name, double seconds) {
    static TimeUnit of(Duration span) {
      long s = span.getSeconds();
      if (s <= 3 * 3600) {
        return new TimeUnit("minutes", 60);
      }
      if (s <= 3 * 86_400) {
        return new TimeUnit("hours", 3600);
      }
      return new TimeUnit("days", 86_400);
    }

    double of(Instant start, Instant t) {
      return Duration.between(start, t).toMillis() / 1000.0 / seconds;
    }
  }

  /** Rows of each table a step shows in the HTML; beyond it the step says how many are left out. */
  public static final int HTML_ROW_BOUND = 200;

  /** Rows of the report's event log; the whole run record is in events.jsonl. */
  static final int EVENT_LOG_BOUND = 5000;

  /** Interruptions, disruptions and evictions marked in the node lifecycle chart, at most. */
  static final int MARK_BOUND = 1000;

  /**
   * The run record whole, one JSON object a line ({@code time}, {@code offset} from the start,
   * {@code kind} as an event reason, {@code subject}, {@code message}): what the HTML summarises.
   */
  public static void eventsJsonl(SimulationResult r, OutputStream out) throws IOException {
    // Written to the stream a block of lines at a time, not made whole as one string first (over
    // 100 MB for a large run, made, copied and encoded whole).
    // One object of five strings a record, written field by field: the record has more entries per
    // event the larger the fleet, and a map and a Jackson tree per line were most of the file's cost.
    List<RunRecord.Entry> entries = r.record().entries();
    StringBuilder b = new StringBuilder(STREAM_BLOCK + 4096);
    Utf8Blocks blocks = new Utf8Blocks();
    // Entries come in runs of one time: its two fields are written once a run.
    Instant last = null;
    String times = "";
    // A kind's field, and the message field of the entry before: a controller that says the same to
    // many pods (a FailedScheduling of one spec) hands the one message object to each entry.
    Map<RunRecord.Kind, String> kinds = new EnumMap<>(RunRecord.Kind.class);
    String message = null;
    String messageField = "";
    for (RunRecord.Entry e : entries) {
      if (!e.time().equals(last)) {
        last = e.time();
        StringBuilder t = new StringBuilder();
        JsonText.quoted(t.append("{\"time\":"), e.time().toString());
        JsonText.quoted(t.append(",\"offset\":"), Durations.offset(r.start(), e.time()));
        times = t.toString();
      }
      b.append(times).append(kinds.computeIfAbsent(e.kind(),
          k -> JsonText.quoted(new StringBuilder(",\"kind\":"), ClusterTables.title(k)).toString()));
      JsonText.quoted(b.append(",\"subject\":"), e.subject());
      if (e.message() != message) {
        message = e.message();
        messageField = JsonText.quoted(new StringBuilder(",\"message\":"), message).append("}\n").toString();
      }
      b.append(messageField);
      if (b.length() >= STREAM_BLOCK) {
        blocks.write(b, out);
        b.setLength(0);
      }
    }
    blocks.write(b, out);
  }

  /** Characters of a streamed file's block: lines are made into it and it is written when full. */
  private static final int STREAM_BLOCK = 1 << 16;

  /**
   * Writes blocks of whole lines as UTF-8 through two arrays it keeps, as {@link String#getBytes} of the
   * block would (an unpaired surrogate as {@code ?}): making each block a String and encoding it into a
   * third array made 170 MB of garbage for a record of 400,000 entries.
   */
  static final class Utf8Blocks {
    private final CharsetEncoder encoder = StandardCharsets.UTF_8.newEncoder()
        .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
    private char[] chars = new char[0];
    private byte[] bytes = new byte[0];

    void write(StringBuilder b, OutputStream out) throws IOException {
      int n = b.length();
      if (chars.length < n) {
        chars = new char[n];
        bytes = new byte[3 * n];
      }
      b.getChars(0, n, chars, 0);
      ByteBuffer to = ByteBuffer.wrap(bytes);
      encoder.reset();
      encoder.encode(CharBuffer.wrap(chars, 0, n), to, true);
      encoder.flush(to);
      out.write(bytes, 0, to.position());
    }
  }

  public static String html(String description, List<StepView> steps, SimulationResult r, boolean explain, long seed) {
    return html(description, steps, r, explain, seed, List.of());
  }

  /**
   * The report with the cluster images the run handed out ({@link io.gpufleet.report.timeline.FrameLog}):
   * it adds each node's lifecycle lane with the interruptions and disruptions marked, and the GPUs the
   * nodes advertise, from the same code the dashboard draws them with.
   */
  public static String html(String description, List<StepView> steps, SimulationResult r, boolean explain, long seed,
      List<Frame> frames) {
    TimeUnit unit = TimeUnit.of(r.simulated());
    double span = Math.max(unit.of(r.start(), r.end()), 1.0 / unit.seconds());
    StringBuilder b = new StringBuilder(64 * 1024);
    String title = "gpufleet: " + r.scenario();
    b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>").append(esc(title))
        .append("</title>\n<style>\n")
        .append("body{font-family:sans-serif;margin:24px;max-width:1200px;color:#222}\n")
        .append("pre{background:#f6f6f6;padding:10px;overflow-x:auto;font-size:12px;line-height:1.35}\n")
        .append("table.step,table.log{border-collapse:collapse;font-size:12px;margin:4px 0 8px}\n")
        .append("table.step th,table.step td,table.log th,table.log td{padding:2px 10px 2px 0;text-align:left;"
            + "vertical-align:top;border-bottom:1px solid #eee}\n")
        .append("table.step tfoot td,table.log tfoot td{color:#666;font-style:italic}\n")
        .append("h4{margin:14px 0 4px;font-size:13px}.span{color:#666;margin-top:0}\n")
        .append("table.summary td{padding:2px 12px 2px 0;vertical-align:top}\n")
        .append("h2{border-bottom:1px solid #ccc;padding-bottom:4px;margin-top:36px}\n")
        .append(".failed{color:#b00020;font-weight:bold}.passed{color:#1b7a1b}\n")
        .append("figure{margin:16px 0}\n</style>\n</head>\n<body>\n");
    b.append("<h1>").append(esc(title)).append("</h1>\n");
    if (!description.isEmpty()) {
      b.append("<p>").append(esc(description)).append("</p>\n");
    }
    b.append("<p>Seed ").append(seed).append(", virtual time ").append(esc(r.start().toString())).append(" to ")
        .append(esc(r.end().toString())).append(" (").append(esc(KubeDuration.format(r.simulated()))).append("), ")
        .append(r.events()).append(" events.</p>\n");
    b.append("<h2>Summary</h2>\n<pre>").append(esc(RunSummary.render(r))).append("</pre>\n");
    b.append("<h2>Charts</h2>\n");
    figure(b, hover(nodesChart(r, unit, span), unit, RunOutputs::count));
    figure(b, hover(gpuChart(r, unit, span, frames), unit, RunOutputs::count));
    figure(b, hover(costChart(r, unit, span), unit, v -> String.format(Locale.ROOT, "$%.2f", v)));
    figure(b, hover(pendingChart(r, unit, span), unit, RunOutputs::count));
    String gantt = gantt(r, unit, span);
    if (!gantt.isEmpty()) {
      b.append("<figure>\n").append(gantt).append("</figure>\n");
    }
    String lanes = lifecycleChart(r, unit, span, frames);
    if (!lanes.isEmpty()) {
      b.append("<figure id=\"node-lifecycle\">\n").append(lanes).append("</figure>\n");
    }
    if (!r.expectations().isEmpty()) {
      b.append("<h2>Expectations</h2>\n<ul>\n");
      for (ExpectationOutcome o : r.expectations()) {
        b.append("<li class=\"").append(o.passed() ? "passed" : "failed").append("\">")
            .append(o.passed() ? "passed" : "FAILED").append(" at ").append(esc(Durations.offset(r.start(), o.time())))
            .append(": ").append(esc(o.description())).append(" (seen: ").append(esc(o.detail())).append(")</li>\n");
      }
      b.append("</ul>\n");
    }
    if (!steps.isEmpty()) {
      b.append("<h2>Steps</h2>\n");
      for (StepView s : steps) {
        b.append("<section class=\"step\">\n").append(StepText.html(s, r, explain, HTML_ROW_BOUND)).append("</section>\n");
      }
    }
    b.append("<h2>Event log</h2>\n");
    // The dashboard's event-log rows, as a table of at most EVENT_LOG_BOUND; the rest are counted.
    int entries = r.record().entries().size();
    b.append(EventRow.table(EventRow.of(r.record(), 0, EVENT_LOG_BOUND), r.start()).html("log", EVENT_LOG_BOUND, ""));
    if (entries > EVENT_LOG_BOUND) {
      b.append(String.format(Locale.ROOT, "<p class=\"more\">... %,d more entries in the run record; all "
          + "are in events.jsonl</p>\n", entries - EVENT_LOG_BOUND));
    }
    b.append("</body>\n</html>\n");
    return b.toString();
  }

  /** A run chart's hover: the run time as {@code +HH:MM:SS}, each value as {@code y} writes it. */
  static LineChart hover(LineChart chart, TimeUnit unit, DoubleFunction<String> y) {
    if (chart == null) {
      return null;
    }
    return chart.withHover(new LineChart.Hover(runTime(unit), y));
  }

  /** A chart's x in {@code unit} as run time, {@code +HH:MM:SS}. */
  static DoubleFunction<String> runTime(TimeUnit unit) {
    return x -> Durations.offset(Duration.ofMillis(Math.round(x * unit.seconds() * 1000)));
  }

  private static String count(double v) {
    return Long.toString(Math.round(v));
  }

  private static void figure(StringBuilder b, LineChart chart) {
    if (chart != null) {
      b.append("<figure>\n").append(SvgLineChart.render(chart)).append("</figure>\n");
    }
  }

  /**
   * A step function as points: a vertical jump at each change, held to the end of the run. Samples
   * that share a time are one instant, and the value after it is what held: a pod created and bound
   * in the same second (a 0 s wait) was never pending over any time, so it draws no spike.
   */
  static List<Point> steps(TimeSeries ts, SimulationResult r, TimeUnit unit, double scale) {
    return steps(ts, r.start(), r.end(), unit, scale);
  }

  static List<Point> steps(TimeSeries ts, Instant start, Instant end, TimeUnit unit, double scale) {
    List<Point> points = new ArrayList<>();
    double prev = Double.NaN;
    List<TimeSeries.Sample> samples = ts.samples();
    for (int i = 0; i < samples.size(); i++) {
      TimeSeries.Sample s = samples.get(i);
      if (i + 1 < samples.size() && samples.get(i + 1).time().equals(s.time())) {
        continue;
      }
      double x = unit.of(start, s.time());
      if (!Double.isNaN(prev)) {
        points.add(new Point(x, prev * scale));
      }
      points.add(new Point(x, s.value() * scale));
      prev = s.value();
    }
    if (!points.isEmpty()) {
      points.add(new Point(unit.of(start, end), prev * scale));
    }
    return points;
  }

  private static Axis xAxis(TimeUnit unit, double span) {
    return Axis.of("virtual time (" + unit.name() + ")", 0, span);
  }

  /** A count axis: whole-number ticks only, so small counts do not print 0, 0, 1, 1, ... */
  private static Axis yAxis(String label, List<Series> series) {
    double max = 1;
    for (Series s : series) {
      for (Point p : s.points()) {
        max = Math.max(max, p.y());
      }
    }
    Axis auto = Axis.of(label, 0, Math.ceil(max * 1.1));
    return auto.withTicks(Math.max(1, Math.ceil(auto.step())), 0);
  }

  static LineChart nodesChart(SimulationResult r, TimeUnit unit, double span) {
    List<Series> series = new ArrayList<>();
    String prefix = "nodes{kind=";
    for (TimeSeries ts : r.metrics().series().values()) {
      if (ts.name().startsWith(prefix)) {
        String kind = ts.name().substring(prefix.length(), ts.name().length() - 1);
        series.add(new Series(kind, steps(ts, r, unit, 1)));
      }
    }
    if (series.isEmpty()) {
      return null;
    }
    return LineChart.of("Nodes by instance type and capacity type", xAxis(unit, span), yAxis("nodes", series), series);
  }

  static LineChart gpuChart(SimulationResult r, TimeUnit unit, double span, List<Frame> frames) {
    var total = r.metrics().series(Metrics.GPUS_TOTAL);
    var allocated = r.metrics().series(Metrics.GPUS_ALLOCATED);
    if (total.isEmpty()) {
      return null;
    }
    List<Series> series = new ArrayList<>();
    series.add(new Series("GPUs in the fleet", steps(total.get(), r, unit, 1)));
    allocated.ifPresent(a -> series.add(new Series("GPUs allocated", steps(a, r, unit, 1))));
    // Idle = in the fleet minus allocated, at every change of either.
    List<Instant> times = new ArrayList<>();
    total.get().samples().forEach(s -> times.add(s.time()));
    allocated.ifPresent(a -> a.samples().forEach(s -> times.add(s.time())));
    List<TimeSeries.Sample> idle = new ArrayList<>();
    times.stream().distinct().sorted().forEach(t -> idle.add(new TimeSeries.Sample(t,
        total.get().at(t) - allocated.map(a -> a.at(t)).orElse(0.0))));
    series.add(new Series("GPUs idle", steps(new TimeSeries("idle", idle), r, unit, 1)));
    if (!frames.isEmpty()) {
      // What the device plugins advertise (replicas and MIG slices count one each): 1 -> 4 -> 1 in the lab.
      List<TimeSeries.Sample> advertised = new ArrayList<>();
      long[] counts = FleetCounts.gpusAdvertised(frames);
      for (int i = 0; i < counts.length; i++) {
        advertised.add(new TimeSeries.Sample(frames.get(i).time(), counts[i]));
      }
      series.add(new Series("GPUs advertised", steps(new TimeSeries("advertised", advertised), r, unit, 1)));
    }
    return LineChart.of("GPUs: in the fleet, allocated to pods, idle", xAxis(unit, span), yAxis("GPUs", series),
        series);
  }

  /** Cumulative spend: each NodePool's $/h rate integrated over time. */
  static LineChart costChart(SimulationResult r, TimeUnit unit, double span) {
    List<Series> series = new ArrayList<>();
    String prefix = "cost_per_hour{nodepool=";
    for (TimeSeries ts : r.metrics().series().values()) {
      if (!ts.name().startsWith(prefix)) {
        continue;
      }
      String pool = ts.name().substring(prefix.length(), ts.name().length() - 1);
      List<Point> points = new ArrayList<>();
      double spent = 0;
      List<TimeSeries.Sample> samples = ts.samples();
      for (int i = 0; i < samples.size(); i++) {
        Instant a = samples.get(i).time();
        points.add(new Point(unit.of(r.start(), a), spent));
        Instant b = i + 1 < samples.size() ? samples.get(i + 1).time() : r.end();
        spent += samples.get(i).value() * Duration.between(a, b).toMillis() / 3_600_000.0;
      }
      points.add(new Point(unit.of(r.start(), r.end()), spent));
      series.add(new Series("NodePool " + pool, points));
    }
    if (series.isEmpty()) {
      return null;
    }
    double max = series.stream().flatMap(s -> s.points().stream()).mapToDouble(Point::y).max().orElse(1);
    Axis y = new Axis("dollars spent", 0, Math.max(0.01, max * 1.1), 0, max * 1.1 < 10 ? 2 : 0);
    return LineChart.of("Cumulative cost", xAxis(unit, span), y, series);
  }

  static LineChart pendingChart(SimulationResult r, TimeUnit unit, double span) {
    var pending = r.metrics().series(Metrics.PENDING_PODS);
    if (pending.isEmpty()) {
      return null;
    }
    List<Series> series = List.of(new Series("pending pods", steps(pending.get(), r, unit, 1)));
    return LineChart.of("Pods waiting for a node", xAxis(unit, span), yAxis("pods", series), series);
  }

  /**
   * Pods on cards: a lane per node and GPU, a bar per pod for as long as it held the card. Pods
   * that share a card at the same time (replicas of a time-sliced or MPS card) get a row each,
   * first fit by start time, so none hides another.
   */
  static String gantt(SimulationResult r, TimeUnit unit, double span) {
    TreeMap<String, List<GanttChart.Bar>> cards = new TreeMap<>();
    for (CardSpan c : r.metrics().cardSpans()) {
      String lane = c.node() + " " + c.card().label();
      double start = unit.of(r.start(), c.start());
      double end = unit.of(r.start(), c.end().orElse(r.end()));
      String pod = c.pod().contains("/") ? c.pod().substring(c.pod().indexOf('/') + 1) : c.pod();
      cards.computeIfAbsent(lane, k -> new ArrayList<>()).add(new GanttChart.Bar(start, end, pod, owner(pod)));
    }
    if (cards.isEmpty()) {
      return "";
    }
    List<GanttChart.Lane> out = new ArrayList<>();
    cards.forEach((card, bars) -> {
      List<List<GanttChart.Bar>> rows = new ArrayList<>();
      List<GanttChart.Bar> sorted = new ArrayList<>(bars);
      sorted.sort(Comparator.comparingDouble(GanttChart.Bar::start).thenComparing(GanttChart.Bar::label));
      for (GanttChart.Bar bar : sorted) {
        List<GanttChart.Bar> row = rows.stream().filter(x -> x.getLast().end() <= bar.start()).findFirst().orElse(null);
        if (row == null) {
          row = new ArrayList<>();
          rows.add(row);
        }
        row.add(bar);
      }
      for (int i = 0; i < rows.size(); i++) {
        out.add(new GanttChart.Lane(rows.size() == 1 ? card : card + " #" + (i + 1), rows.get(i)));
      }
    });
    // One lane per card: a fleet of thousands of cards would make a chart of megabytes, so beyond the
    // bound the chart shows the first cards by node name and says how many it leaves out.
    String note = "";
    List<GanttChart.Lane> shown = out;
    if (out.size() > HTML_ROW_BOUND) {
      note = String.format(Locale.ROOT, "<figcaption>... %,d more card lanes not shown; every pod's node and times "
          + "are in pods.csv, the whole run record in events.jsonl</figcaption>%n", out.size() - HTML_ROW_BOUND);
      shown = out.subList(0, HTML_ROW_BOUND);
    }
    return SvgGanttChart.render(new GanttChart("Pods on cards (nvidia-smi over time)", xAxis(unit, span), shown, 1000)
        .withTimeText(runTime(unit)))
        + note;
  }

  /**
   * A lane per node with its lifecycle states (launched, registered, initialized, cordoned,
   * draining) and one lane marking each spot interruption, disruption and eviction.
   */
  static String lifecycleChart(SimulationResult r, TimeUnit unit, double span, List<Frame> frames) {
    List<LifecycleLane> lanes = LifecycleLane.of(frames, r.start(), r.end());
    if (lanes.isEmpty()) {
      return "";
    }
    List<GanttChart.Lane> out = new ArrayList<>();
    // As the card chart: a lane per node ever launched would be megabytes on a large fleet's week.
    List<String> notes = new ArrayList<>();
    if (lanes.size() > HTML_ROW_BOUND) {
      notes.add(String.format(Locale.ROOT, "%,d more node lanes", lanes.size() - HTML_ROW_BOUND));
      lanes = lanes.subList(0, HTML_ROW_BOUND);
    }
    for (LifecycleLane l : lanes) {
      List<GanttChart.Bar> bars = new ArrayList<>();
      for (LifecycleLane.Span s : l.spans()) {
        bars.add(new GanttChart.Bar(s.from() / unit.seconds(), s.to() / unit.seconds(), s.state().wire(),
            s.state().wire()));
      }
      out.add(new GanttChart.Lane(l.node(), bars));
    }
    List<GanttChart.Bar> marks = new ArrayList<>();
    double width = span / 150;
    for (RunMarker m : RunMarker.of(r.record(), r.start())) {
      if (m.disruptive()) {
        double x = m.seconds() / unit.seconds();
        marks.add(new GanttChart.Bar(x, Math.max(x, Math.min(x + width, span)), m.kind() + " " + m.subject(),
            m.kind()));
      }
    }
    if (marks.size() > MARK_BOUND) {
      notes.add(String.format(Locale.ROOT, "%,d more marks", marks.size() - MARK_BOUND));
      marks = marks.subList(0, MARK_BOUND);
    }
    if (!marks.isEmpty()) {
      out.add(new GanttChart.Lane("interruptions, disruptions", marks));
    }
    String note = notes.isEmpty() ? "" : "<figcaption>... " + String.join(" and ", notes)
        + " not shown; the whole run record is in events.jsonl</figcaption>\n";
    Map<String, String> colours = new LinkedHashMap<>();
    for (NodeLifecycle state : NodeLifecycle.values()) {
      colours.put(state.wire(), state.colour());
    }
    return SvgGanttChart.render(new GanttChart("Node lifecycle, with interruptions and disruptions marked",
        xAxis(unit, span), out, 1000, colours).withTimeText(runTime(unit))) + lifecycleLegend() + note;
  }

  /** The lifecycle colours, each state once: the same in every report and on the dashboard. */
  static String lifecycleLegend() {
    StringBuilder b = new StringBuilder("<p class=\"legend\">");
    for (NodeLifecycle state : NodeLifecycle.values()) {
      b.append("<span class=\"key\"><span class=\"swatch\" style=\"display:inline-block;width:.8em;height:.8em;"
          + "margin:0 .3em 0 .8em;background:").append(state.colour()).append("\"></span>").append(state.wire())
          .append("</span>");
    }
    return b.append("</p>\n").toString();
  }

  /** Bars share a colour per owner: pod names without the controller's random suffixes. */
  static String owner(String pod) {
    String[] parts = pod.split("-");
    if (parts.length >= 3 && parts[parts.length - 1].length() == 5 && parts[parts.length - 2].length() == 10) {
      return String.join("-", Arrays.copyOf(parts, parts.length - 2));
    }
    if (parts.length >= 2 && parts[parts.length - 1].length() == 5) {
      return String.join("-", Arrays.copyOf(parts, parts.length - 1));
    }
    return pod;
  }

  static String esc(String s) {
    return SvgLineChart.escape(s);
  }
}
