package io.gpufleet.web.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.gpufleet.report.timeline.FleetCounts;
import io.gpufleet.report.timeline.Frame;
import io.gpufleet.sim.state.NodeState;
import io.gpufleet.sim.state.PodState;
import io.gpufleet.web.Lab;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The GPU-allocation heatmap of the lab (a node per row): each cell against the run's frames read
 * whole, node by node, and the rows of each column against the GPU chart's counts ({@link FleetCounts}).
 */
class HeatmapTest {

  private static PlayedRun lab;
  private static Map<String, Object> heatmap;

  @BeforeAll
  static void play() {
    var file = Lab.lab();
    lab = PlayedRun.play("lab", file, file.scenario(), 20_000);
    heatmap = Heatmap.of(lab);
  }

  private static long seconds(Frame f) {
    return Duration.between(lab.result().start(), f.time()).getSeconds();
  }

  /** Over [from, to): GPU-seconds advertised and allocated on the nodes {@code row} selects (null: all). */
  private static double[] integral(String node, long from, long to) {
    double advertised = 0;
    double allocated = 0;
    List<Frame> frames = lab.frames();
    long end = lab.result().simulated().getSeconds();
    for (int i = 0; i < frames.size(); i++) {
      long a = Math.max(from, seconds(frames.get(i)));
      long b = Math.min(to, i + 1 < frames.size() ? seconds(frames.get(i + 1)) : end);
      if (b <= a) {
        continue;
      }
      var s = frames.get(i).state();
      for (NodeState n : s.nodes().values()) {
        if (node == null || n.name().equals(node)) {
          advertised += FleetCounts.gpus(n.node().allocatable()) * (double) (b - a);
        }
      }
      for (PodState p : s.pods().values()) {
        if (p.node().isPresent() && (node == null || p.node().get().equals(node))) {
          allocated += FleetCounts.gpuRequest(p) * (double) (b - a);
        }
      }
    }
    return new double[] {advertised, allocated};
  }

  @Test
  @SuppressWarnings("unchecked")
  void eachCellIsTheShareOfItsNodesGpuTimeAllocated() {
    assertThat(heatmap.get("by")).isEqualTo("node");
    List<Map<String, Object>> rows = (List<Map<String, Object>>) heatmap.get("rows");
    assertThat(rows).extracting(r -> r.get("label")).contains(PlayedRunTest.LAB_NODE);
    long width = (long) heatmap.get("columnSeconds");
    long end = lab.result().simulated().getSeconds();
    assertThat(width * Heatmap.MAX_COLUMNS).isGreaterThanOrEqualTo(end);
    List<double[]> cells = (List<double[]>) heatmap.get("cells");
    assertThat(cells).isNotEmpty();
    boolean someAllocated = false;
    for (double[] c : cells) {
      String node = (String) rows.get((int) c[1]).get("label");
      long from = (long) c[0] * width;
      long to = Math.min(end, from + width);
      double[] want = integral(node, from, to);
      assertThat(want[0]).as("a cell only where GPUs were advertised").isPositive();
      assertThat(c[2]).as("%s at %d", node, from).isCloseTo(100 * want[1] / want[0], within(0.05));
      assertThat(c[3]).isCloseTo(want[1] / (to - from), within(0.05));
      assertThat(c[4]).isCloseTo(want[0] / (to - from), within(0.05));
      someAllocated |= c[2] > 0;
    }
    assertThat(someAllocated).isTrue();
  }

  @Test
  @SuppressWarnings("unchecked")
  void eachColumnsRowsAddUpToTheGpuChartsCounts() {
    List<double[]> cells = (List<double[]>) heatmap.get("cells");
    long width = (long) heatmap.get("columnSeconds");
    long end = lab.result().simulated().getSeconds();
    int columns = (int) ((end + width - 1) / width);
    for (int col = 0; col < columns; col++) {
      int c = col;
      double advertised = cells.stream().filter(x -> x[0] == c).mapToDouble(x -> x[4]).sum();
      double allocated = cells.stream().filter(x -> x[0] == c).mapToDouble(x -> x[3]).sum();
      // The chart's counts, frame by frame, averaged over the column.
      long from = (long) col * width;
      long to = Math.min(end, from + width);
      double adv = 0;
      double alloc = 0;
      for (int i = 0; i < lab.frames().size(); i++) {
        long a = Math.max(from, seconds(lab.frames().get(i)));
        long b = Math.min(to, i + 1 < lab.frames().size() ? seconds(lab.frames().get(i + 1)) : end);
        if (b > a) {
          FleetCounts fc = FleetCounts.of(lab.frames().get(i).state());
          adv += fc.gpusAdvertised() * (double) (b - a);
          alloc += fc.gpusAllocated() * (double) (b - a);
        }
      }
      // each row's average is rounded to a tenth
      int rowsHere = (int) cells.stream().filter(x -> x[0] == c).count();
      assertThat(advertised).as("column %d", col).isCloseTo(adv / (to - from), within(0.05 * rowsHere + 1e-9));
      assertThat(allocated).as("column %d", col).isCloseTo(alloc / (to - from), within(0.05 * rowsHere + 1e-9));
    }
  }
}
