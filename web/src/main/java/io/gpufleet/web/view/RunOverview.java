package io.gpufleet.web.view;

import io.gpufleet.model.cloud.Money;
import io.gpufleet.report.sim.EventRow;
import io.gpufleet.report.sim.RunSummary;
import io.gpufleet.report.timeline.FleetCounts;
import io.gpufleet.report.timeline.Frame;
import io.gpufleet.report.timeline.LifecycleLane;
import io.gpufleet.report.timeline.RunMarker;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.metrics.Metrics;
import io.gpufleet.sim.metrics.TimeSeries;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What the page fetches of a run first, whatever the moment looked at: its steps on the frame
 * timeline, the frames' times, the time series (nodes and NodeClaims; GPUs physical, advertised,
 * allocated and idle; pending pods; cost cumulative and per NodePool), markers for steps,
 * interruptions and disruptions, how many lifecycle lanes and events it has, and the summary two
 * runs are compared by. The lanes and the event log are fetched a page at a time ({@link #lanes},
 * {@link #events}): at fleet scale they were most of the run's document.
 */
public final class RunOverview {
  private RunOverview() {}

  public static Map<String, Object> of(String id, PlayedRun run, List<LifecycleLane> lanes) {
    SimulationResult r = run.result();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("id", id);
    out.put("label", run.label());
    out.put("scenario", r.scenario());
    out.put("description", run.description());
    out.put("start", r.start().toString());
    out.put("end", r.end().toString());
    out.put("seconds", r.simulated().getSeconds());
    out.put("thinned", run.thinned());
    // What a thinned run's page says: how many of the run's cluster images its frames keep.
    out.put("images", run.images());
    List<Long> times = new ArrayList<>(run.frames().size());
    List<Integer> entries = new ArrayList<>(run.frames().size());
    for (Frame f : run.frames()) {
      times.add(seconds(r, f.time()));
      entries.add(f.recordEntries());
    }
    out.put("frameSeconds", times);
    out.put("frameEntries", entries);
    List<Map<String, Object>> steps = new ArrayList<>();
    for (StepMark s : run.steps()) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("id", s.id());
      e.put("title", s.title());
      e.put("description", s.description());
      e.put("startFrame", s.startFrame());
      e.put("endFrame", s.endFrame());
      e.put("seconds", times.get(s.endFrame()));
      steps.add(e);
    }
    out.put("steps", steps);
    out.put("series", series(run));
    out.put("laneCount", lanes.size());
    out.put("markers", markers(run));
    out.put("eventCount", r.record().entries().size());
    out.put("summary", summary(r));
    return out;
  }

  static long seconds(SimulationResult r, Instant t) {
    return Duration.between(r.start(), t).getSeconds();
  }

  /**
   * One point per time for the cluster's counts, and the cost: cumulative (the integral of the
   * metrics' cost rate, so the last point is the run's total) and per NodePool. Frames that share a
   * time are moments within one instant: the point is the last of them, what held after it (so a pod
   * created and bound in one second, a 0 s wait, draws no spike). A 2,000-node day has 18,351
   * frames at 215 times.
   */
  static Map<String, Object> series(PlayedRun run) {
    SimulationResult r = run.result();
    String[] names = {"nodes", "nodeClaims", "gpusPhysical", "gpusAdvertised", "gpusAllocated", "gpusIdle",
        "pendingPods"};
    Map<String, List<double[]>> out = new LinkedHashMap<>();
    for (String n : names) {
      out.put(n, new ArrayList<>());
    }
    Map<String, TimeSeries> rates = new TreeMap<>();
    r.metrics().series().forEach((name, ts) -> {
      String prefix = Metrics.costRateSeries("");
      String open = prefix.substring(0, prefix.length() - 1);
      if (name.startsWith(open) && name.endsWith("}")) {
        rates.put(name.substring(open.length(), name.length() - 1), ts);
      }
    });
    List<double[]> total = new ArrayList<>();
    Map<String, List<double[]>> byPool = new TreeMap<>();
    rates.keySet().forEach(p -> byPool.put(p, new ArrayList<>()));
    for (Frame f : run.frames()) {
      double t = seconds(r, f.time());
      FleetCounts c = FleetCounts.of(f.state());
      double[] counts = {c.nodes(), c.nodeClaims(), c.gpusPhysical(), c.gpusAdvertised(), c.gpusAllocated(),
          c.gpusIdle(), c.pendingPods()};
      for (int i = 0; i < names.length; i++) {
        lastAtTime(out.get(names[i]), t, counts[i]);
      }
      double sum = 0;
      for (var e : rates.entrySet()) {
        double dollars = e.getValue().hoursIntegral(r.start(), f.time());
        sum += dollars;
        lastAtTime(byPool.get(e.getKey()), t, round(dollars));
      }
      lastAtTime(total, t, round(sum));
    }
    Map<String, Object> all = new LinkedHashMap<>(out);
    all.put("costCumulative", total);
    all.put("costByNodePool", byPool);
    return all;
  }

  /** Adds the point at {@code t}, replacing one already there (an earlier frame of that instant). */
  private static void lastAtTime(List<double[]> points, double t, double value) {
    if (!points.isEmpty() && points.getLast()[0] == t) {
      points.removeLast();
    }
    points.add(new double[] {t, value});
  }

  /** Per node (by NodeClaim where it has one), the spans of its lifecycle states. */
  static List<Map<String, Object>> lanes(PlayedRun run) {
    return lanesOf(run).stream().map(RunOverview::lane).toList();
  }

  /** The run's lifecycle lanes, made once per run and served a page at a time. */
  public static List<LifecycleLane> lanesOf(PlayedRun run) {
    return LifecycleLane.of(run.frames(), run.result().start(), run.result().end());
  }

  /**
   * A page of the lanes the filter keeps: a lane whose node is one the filter matches at
   * {@code frame}, or whose node name and key hold every word; {@code total} and {@code matching}
   * count all.
   */
  public static Map<String, Object> lanes(List<LifecycleLane> all, PlayedRun run, int frame, NodeFilter filter,
      int offset, int limit) {
    List<LifecycleLane> matching = all;
    if (!filter.isEmpty()) {
      Set<String> inView = ClusterView.matchingNames(run, frame, filter);
      matching = all.stream().filter(l -> inView.contains(l.node()) || filter.allIn(l.node() + " " + l.key())).toList();
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("total", all.size());
    out.put("matching", matching.size());
    out.put("offset", offset);
    List<LifecycleLane> page = matching.subList(Math.min(offset, matching.size()),
        (int) Math.min((long) offset + limit, matching.size()));
    out.put("lanes", page.stream().map(RunOverview::lane).toList());
    // The launches and deletions of these lanes' NodeClaims, drawn with them.
    Set<String> keys = page.stream().map(LifecycleLane::key).collect(Collectors.toSet());
    out.put("markers", RunMarker.of(run.result().record(), run.result().start()).stream()
        .filter(m -> PER_LANE.contains(m.kind()) && keys.contains(m.subject())).map(RunOverview::marker).toList());
    return out;
  }

  private static Map<String, Object> lane(LifecycleLane l) {
    Map<String, Object> lane = new LinkedHashMap<>();
    lane.put("key", l.key());
    lane.put("node", l.node());
    List<Map<String, Object>> spans = new ArrayList<>();
    for (LifecycleLane.Span s : l.spans()) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("state", s.state().wire());
      e.put("from", s.from());
      e.put("to", s.to());
      spans.add(e);
    }
    lane.put("spans", spans);
    lane.put("deletedSeconds", l.deletedSeconds().orElse(null));
    return lane;
  }

  /**
   * Marker kinds of one NodeClaim, sent with its lane ({@link #lanes}), not with the run: a
   * 2,000-node day has about 5,000 of them.
   */
  private static final Set<String> PER_LANE = Set.of("NodeclaimLaunched", "NodeclaimDeleting");

  /** Steps start, spot interruptions, disruptions, evictions; launches and deletions come with their lanes. */
  static List<Map<String, Object>> markers(PlayedRun run) {
    SimulationResult r = run.result();
    List<Map<String, Object>> out = new ArrayList<>();
    for (StepMark s : run.steps()) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("kind", "Step");
      e.put("seconds", seconds(r, run.frames().get(s.startFrame()).time()));
      e.put("subject", s.id());
      e.put("message", s.title());
      out.add(e);
    }
    for (RunMarker m : RunMarker.of(r.record(), r.start())) {
      if (!PER_LANE.contains(m.kind())) {
        out.add(marker(m));
      }
    }
    return out;
  }

  private static Map<String, Object> marker(RunMarker m) {
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("kind", m.kind());
    e.put("seconds", m.seconds());
    e.put("subject", m.subject());
    e.put("message", m.message());
    return e;
  }

  /**
   * The event log as the page shows it at a frame: the newest {@code limit} rows of the entries up
   * to that frame's, newest first, made as the report's tables make theirs ({@link EventRow}).
   */
  public static Map<String, Object> events(PlayedRun run, int frame, int limit) {
    SimulationResult r = run.result();
    int upTo = run.frames().get(frame).recordEntries();
    List<Map<String, Object>> rows = new ArrayList<>();
    for (EventRow row : EventRow.of(r.record(), Math.max(0, upTo - limit), upTo).reversed()) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("index", row.index());
      e.put("seconds", row.seconds(r.start()));
      e.put("reason", row.reason());
      e.put("object", row.object());
      e.put("message", row.message());
      rows.add(e);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("frame", frame);
    out.put("upTo", upTo);
    out.put("events", rows);
    return out;
  }

  /** What two runs are compared by: cost, pending time, disruptions, evictions, expectations. */
  public static Map<String, Object> summary(SimulationResult r) {
    Metrics m = r.metrics();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("totalCost", round(m.totalCost()));
    out.put("totalCostText", Money.dollars(m.totalCost()));
    Map<String, Double> byPool = new TreeMap<>();
    m.costByNodePool().forEach((k, v) -> byPool.put(k, round(v)));
    out.put("costByNodePool", byPool);
    out.put("gpuHoursAllocated", round(m.gpuHoursAllocated()));
    out.put("gpuHoursIdle", round(m.gpuHoursIdle()));
    out.put("pods", m.pendingTimes().size());
    out.put("stillPending", m.neverScheduled());
    Map<String, Object> pending = new LinkedHashMap<>();
    for (double q : RunSummary.quantiles()) {
      pending.put(RunSummary.quantileName(q), m.pendingQuantile(q).map(p -> p.waited().getSeconds()).orElse(null));
    }
    out.put("pendingSeconds", pending);
    out.put("disruptions", m.disruptionsByReason().values().stream().mapToInt(Integer::intValue).sum());
    out.put("disruptionsByReason", m.disruptionsByReason());
    out.put("evictions", m.evictionsByReason().values().stream().mapToInt(Integer::intValue).sum());
    out.put("expectationsPassed", r.expectations().stream().filter(o -> o.passed()).count());
    out.put("expectations", r.expectations().size());
    out.put("invariantViolations", r.violations().size());
    return out;
  }

  static double round(double v) {
    return Math.round(v * 10_000) / 10_000.0;
  }
}
