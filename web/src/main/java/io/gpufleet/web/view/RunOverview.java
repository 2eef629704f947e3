package io.gpufleet.web.view;

import io.gpufleet.engine.deviceplugin.ContainerDevices;
import io.gpufleet.engine.deviceplugin.Device;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.report.sim.ClusterTables;
import io.gpufleet.report.sim.RunSummary;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.metrics.Metrics;
import io.gpufleet.sim.metrics.TimeSeries;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.state.ClusterState;
import io.gpufleet.sim.state.NodeState;
import io.gpufleet.sim.state.PodState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Everything about a run that does not depend on the moment looked at: its steps on the frame
 * timeline, the frames' times, the time series (nodes and NodeClaims; GPUs physical, advertised,
 * allocated and idle; pending pods; cost cumulative and per NodePool), a lifecycle lane per node,
 * markers for steps, interruptions and disruptions, the event log, and the summary two runs are
 * compared by.
 */
public final class RunOverview {
  private RunOverview() {}

  /** Event-log entries sent with the overview at most; the rest are counted, not sent. */
  public static final int MAX_EVENTS = 20_000;

  /** The run-record kinds drawn as markers on the timeline and the charts. */
  static final Set<RunRecord.Kind> MARKED = Set.of(RunRecord.Kind.SPOT_INTERRUPTION_WARNING,
      RunRecord.Kind.SPOT_RECLAIMED, RunRecord.Kind.DISRUPTION_EXECUTED, RunRecord.Kind.NODECLAIM_LAUNCHED,
      RunRecord.Kind.NODECLAIM_DELETING, RunRecord.Kind.POD_EVICTED, RunRecord.Kind.INVARIANT_VIOLATED);

  public static Map<String, Object> of(String id, PlayedRun run) {
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
    out.put("lanes", lanes(run));
    out.put("markers", markers(run));
    out.put("events", events(r));
    out.put("eventCount", r.record().entries().size());
    out.put("summary", summary(r));
    return out;
  }

  static long seconds(SimulationResult r, Instant t) {
    return Duration.between(r.start(), t).getSeconds();
  }

  /**
   * One point per frame for the cluster's counts, and the cost: cumulative (the integral of the
   * metrics' cost rate, so the last point is the run's total) and per NodePool.
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
      double[] counts = counts(f.state());
      for (int i = 0; i < names.length; i++) {
        out.get(names[i]).add(new double[] {t, counts[i]});
      }
      double sum = 0;
      for (var e : rates.entrySet()) {
        double dollars = e.getValue().hoursIntegral(r.start(), f.time());
        sum += dollars;
        byPool.get(e.getKey()).add(new double[] {t, round(dollars)});
      }
      total.add(new double[] {t, round(sum)});
    }
    Map<String, Object> all = new LinkedHashMap<>(out);
    all.put("costCumulative", total);
    all.put("costByNodePool", byPool);
    return all;
  }

  /**
   * Nodes, NodeClaims, physical GPUs, advertised GPU devices (replicas and MIG slices count one
   * each), GPU devices requested by pods bound to nodes, physical GPUs no container holds a
   * device of, and pending pods.
   */
  static double[] counts(ClusterState s) {
    long physical = 0;
    long advertised = 0;
    long idle = 0;
    for (NodeState n : s.nodes().values()) {
      int cards = n.gpus().map(g -> g.count()).orElse(0);
      physical += cards;
      advertised += ClusterView.gpus(n.node().allocatable());
      Set<Integer> held = new HashSet<>();
      n.devices().ifPresent(d -> {
        for (ContainerDevices c : d.allAssignments()) {
          for (Device dev : c.devices()) {
            held.add(dev.gpuIndex());
          }
        }
      });
      idle += cards - held.size();
    }
    long allocated = 0;
    for (PodState p : s.pods().values()) {
      if (p.node().isPresent()) {
        allocated += ClusterView.gpuRequest(p);
      }
    }
    return new double[] {s.nodes().size(), s.claims().size(), physical, advertised, allocated, idle,
        s.pending().size()};
  }

  /** Per node (by NodeClaim where it has one), the spans of its lifecycle states. */
  static List<Map<String, Object>> lanes(PlayedRun run) {
    SimulationResult r = run.result();
    Map<String, Map<String, Object>> lanes = new LinkedHashMap<>();
    Map<String, String> current = new TreeMap<>();
    for (Frame f : run.frames()) {
      ClusterState s = f.state();
      Map<String, String> now = new TreeMap<>();
      Map<String, String> names = new TreeMap<>();
      for (NodeState n : s.nodes().values()) {
        String key = n.claim().orElse(n.name());
        now.put(key, ClusterView.lifecycle(s, n).wire());
        names.put(key, n.name());
      }
      for (NodeClaim c : s.claims().values()) {
        if (!now.containsKey(c.name())) {
          now.put(c.name(), ClusterView.lifecycle(c).wire());
          names.put(c.name(), c.nodeName().orElse(c.name()));
        }
      }
      long t = seconds(r, f.time());
      for (var e : now.entrySet()) {
        Map<String, Object> lane = lanes.computeIfAbsent(e.getKey(), k -> newLane(k));
        lane.put("node", names.get(e.getKey()));
        if (!e.getValue().equals(current.get(e.getKey()))) {
          close(lane, t);
          spans(lane).add(span(e.getValue(), t));
        }
      }
      for (String gone : current.keySet()) {
        if (!now.containsKey(gone)) {
          close(lanes.get(gone), t);
          lanes.get(gone).put("deletedSeconds", t);
        }
      }
      current = now;
    }
    for (String open : current.keySet()) {
      close(lanes.get(open), seconds(r, r.end()));
    }
    return List.copyOf(lanes.values());
  }

  private static Map<String, Object> newLane(String key) {
    Map<String, Object> lane = new LinkedHashMap<>();
    lane.put("key", key);
    lane.put("node", key);
    lane.put("spans", new ArrayList<Map<String, Object>>());
    lane.put("deletedSeconds", null);
    return lane;
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> spans(Map<String, Object> lane) {
    return (List<Map<String, Object>>) lane.get("spans");
  }

  private static Map<String, Object> span(String state, long from) {
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("state", state);
    e.put("from", from);
    e.put("to", null);
    return e;
  }

  private static void close(Map<String, Object> lane, long t) {
    List<Map<String, Object>> spans = spans(lane);
    if (!spans.isEmpty() && spans.getLast().get("to") == null) {
      spans.getLast().put("to", t);
    }
  }

  /** Steps start, spot interruptions, disruptions, launches, deletions and evictions. */
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
    for (RunRecord.Entry entry : r.record().entries()) {
      if (MARKED.contains(entry.kind())) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("kind", reason(entry.kind()));
        e.put("seconds", seconds(r, entry.time()));
        e.put("subject", entry.subject());
        e.put("message", entry.message());
        out.add(e);
      }
    }
    return out;
  }

  static List<Map<String, Object>> events(SimulationResult r) {
    List<Map<String, Object>> out = new ArrayList<>();
    List<RunRecord.Entry> entries = r.record().entries();
    for (int i = 0; i < Math.min(entries.size(), MAX_EVENTS); i++) {
      RunRecord.Entry entry = entries.get(i);
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("index", i);
      e.put("seconds", seconds(r, entry.time()));
      e.put("reason", reason(entry.kind()));
      e.put("object", entry.subject());
      e.put("message", entry.message());
      out.add(e);
    }
    return out;
  }

  static String reason(RunRecord.Kind k) {
    return ClusterTables.title(k);
  }

  /** What two runs are compared by: cost, pending time, disruptions, evictions, expectations. */
  public static Map<String, Object> summary(SimulationResult r) {
    Metrics m = r.metrics();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("totalCost", round(m.totalCost()));
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
