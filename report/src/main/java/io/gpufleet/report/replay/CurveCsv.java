package io.gpufleet.report.replay;

import io.gpufleet.sim.replay.ArrivalGrid;
import io.gpufleet.sim.replay.ReplayCurve;
import java.io.IOException;
import java.io.UncheckedIOException;

/** A replay's curves as CSV: one row per arrival, and the x-grid view the paper plots. */
public final class CurveCsv {

  public static final String HEADER =
      "index,pod,node,arrived_milli_gpu,allocated_milli_gpu,frag_milli_gpu,arrived_pct,allocated_pct,frag_pct";

  private CurveCsv() {}

  /** One row per arrival; {@code node} is empty for a pod that failed. */
  public static void perPod(ReplayCurve curve, Appendable out) {
    double capacity = curve.cluster().capacityMilli();
    try {
      out.append(HEADER).append('\n');
      for (int i = 0; i < curve.size(); i++) {
        ReplayCurve.Point p = curve.point(i);
        out.append(Integer.toString(i)).append(',').append(p.pod()).append(',').append(curve.nodeName(i)).append(',')
            .append(Long.toString(p.arrivedMilli())).append(',').append(Long.toString(p.usedMilli())).append(',')
            .append(Numbers.fixed(p.fragMilli(), 1)).append(',')
            .append(Numbers.fixed(100 * p.arrivedMilli() / capacity, 4)).append(',')
            .append(Numbers.fixed(100 * p.usedMilli() / capacity, 4)).append(',')
            .append(Numbers.fixed(100 * p.fragMilli() / capacity, 4)).append('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The paper's discrete curve: x = arrived %, mean allocation % and fragmentation % there. */
  public static void grid(ArrivalGrid grid, Appendable out) {
    try {
      out.append("arrived_pct,allocated_pct,frag_pct\n");
      for (int x = 0; x <= ArrivalGrid.X_MAX; x++) {
        out.append(Integer.toString(x)).append(',').append(Numbers.pct(grid.alloc(x))).append(',')
            .append(Numbers.pct(grid.frag(x))).append('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
