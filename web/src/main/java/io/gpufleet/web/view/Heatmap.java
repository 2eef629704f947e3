package io.gpufleet.web.view;

import io.gpufleet.model.cloud.InstanceLabels;
import io.gpufleet.model.collect.PMap;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.report.timeline.FleetCounts;
import io.gpufleet.report.timeline.Frame;
import io.gpufleet.sim.state.NodeState;
import io.gpufleet.sim.state.PodState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * GPU allocation over the run, rows by time columns: a row per node while the run has at most
 * {@link #MAX_ROWS} nodes, else per NodePool and instance type, else per NodePool, so a 2,000-node
 * run stays readable. A cell is the share of the row's GPU time allocated in that column: the
 * integral of the GPU devices bound pods request ({@link FleetCounts#gpuRequest}) over that of the
 * GPU devices the row's nodes advertise, as the GPU chart counts them; a column with no GPU
 * advertised in the row has no cell. Each frame is read as its change from the one before, so the
 * cost follows what changed, not frames × nodes.
 */
public final class Heatmap {
  private Heatmap() {}

  /** Rows drawn at most: one per node up to this, else groups. */
  public static final int MAX_ROWS = 60;
  /** Columns drawn at most: a day in quarter hours. */
  public static final int MAX_COLUMNS = 96;
  /** Column widths in seconds, the first that keeps the run within {@link #MAX_COLUMNS} is taken. */
  private static final long[] WIDTHS = {1, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600,
      43200, 86400};

  public static Map<String, Object> of(PlayedRun run) {
    List<Frame> frames = run.frames();
    long end = Math.max(1, run.result().simulated().getSeconds());
    // Every node the run had, with its NodePool and instance type (the last seen).
    Map<String, String[]> seen = new TreeMap<>();
    PMap<String, NodeState> before = PMap.empty();
    for (Frame f : frames) {
      before.diff(f.state().nodes(), (name, was, now) -> {
        if (now != null) {
          var labels = now.node().labels();
          seen.put(name, new String[] {labels.get(KarpenterLabels.NODEPOOL).orElse("-"),
              labels.get(InstanceLabels.INSTANCE_TYPE).orElse("-")});
        }
      });
      before = f.state().nodes();
    }
    String by;
    Function<String, String> rowOf;
    Map<String, String> filterOf = new TreeMap<>();
    long pairs = seen.values().stream().map(v -> v[0] + "\u0000" + v[1]).distinct().count();
    if (seen.size() <= MAX_ROWS) {
      by = "node";
      rowOf = name -> name;
      seen.keySet().forEach(n -> filterOf.put(n, n));
    } else if (pairs <= MAX_ROWS) {
      by = "NodePool / instance type";
      rowOf = name -> seen.get(name)[0] + " / " + seen.get(name)[1];
      seen.values().forEach(v -> filterOf.put(v[0] + " / " + v[1], "pool:" + v[0] + " type:" + v[1]));
    } else {
      by = "NodePool";
      rowOf = name -> seen.get(name)[0];
      seen.values().forEach(v -> filterOf.put(v[0], "pool:" + v[0]));
    }
    List<String> rows = new ArrayList<>(filterOf.keySet());
    Map<String, Integer> rowIndex = new HashMap<>();
    for (String name : seen.keySet()) {
      rowIndex.put(name, rows.indexOf(rowOf.apply(name)));
    }
    long width = WIDTHS[WIDTHS.length - 1];
    for (long w : WIDTHS) {
      if ((end + w - 1) / w <= MAX_COLUMNS) {
        width = w;
        break;
      }
    }
    while ((end + width - 1) / width > MAX_COLUMNS) {
      width += WIDTHS[WIDTHS.length - 1];
    }
    int columns = (int) ((end + width - 1) / width);
    double[][] advertisedTime = new double[rows.size()][columns];
    double[][] allocatedTime = new double[rows.size()][columns];
    long[] advertised = new long[rows.size()];
    long[] allocated = new long[rows.size()];
    PMap<String, NodeState> nodesBefore = PMap.empty();
    PMap<String, PodState> podsBefore = PMap.empty();
    for (int i = 0; i < frames.size(); i++) {
      Frame f = frames.get(i);
      nodesBefore.diff(f.state().nodes(), (name, was, now) -> {
        int row = rowIndex.get(name);
        advertised[row] += (now == null ? 0 : FleetCounts.gpus(now.node().allocatable()))
            - (was == null ? 0 : FleetCounts.gpus(was.node().allocatable()));
      });
      podsBefore.diff(f.state().pods(), (key, was, now) -> {
        if (was != null && was.node().isPresent() && rowIndex.containsKey(was.node().get())) {
          allocated[rowIndex.get(was.node().get())] -= FleetCounts.gpuRequest(was);
        }
        if (now != null && now.node().isPresent() && rowIndex.containsKey(now.node().get())) {
          allocated[rowIndex.get(now.node().get())] += FleetCounts.gpuRequest(now);
        }
      });
      nodesBefore = f.state().nodes();
      podsBefore = f.state().pods();
      // What holds after this frame holds until the next one (frames sharing a time hold for none).
      long from = seconds(run, f);
      long to = i + 1 < frames.size() ? seconds(run, frames.get(i + 1)) : end;
      for (long a = from; a < to; ) {
        int col = (int) Math.min(columns - 1, a / width);
        long b = Math.min(to, (col + 1) * width);
        if (b <= a) {
          break;
        }
        for (int r = 0; r < rows.size(); r++) {
          advertisedTime[r][col] += advertised[r] * (double) (b - a);
          allocatedTime[r][col] += allocated[r] * (double) (b - a);
        }
        a = b;
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("by", by);
    out.put("nodes", seen.size());
    out.put("columnSeconds", width);
    out.put("seconds", end);
    List<Map<String, Object>> rowList = new ArrayList<>();
    for (String r : rows) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("label", r);
      e.put("filter", filterOf.get(r));
      rowList.add(e);
    }
    out.put("rows", rowList);
    // [column, row, per cent allocated, GPUs allocated on average, GPUs advertised on average]
    List<double[]> cells = new ArrayList<>();
    for (int r = 0; r < rows.size(); r++) {
      for (int c = 0; c < columns; c++) {
        if (advertisedTime[r][c] > 0) {
          double span = Math.min(end, (c + 1) * width) - (double) c * width;
          cells.add(new double[] {c, r, round(100 * allocatedTime[r][c] / advertisedTime[r][c], 10),
              round(allocatedTime[r][c] / span, 10), round(advertisedTime[r][c] / span, 10)});
        }
      }
    }
    out.put("cells", cells);
    return out;
  }

  private static long seconds(PlayedRun run, Frame f) {
    return Duration.between(run.result().start(), f.time()).getSeconds();
  }

  private static double round(double v, int scale) {
    return Math.round(v * scale) / (double) scale;
  }
}
