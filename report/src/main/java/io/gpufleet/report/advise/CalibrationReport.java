package io.gpufleet.report.advise;

import io.gpufleet.engine.perf.Calibration;
import io.gpufleet.engine.perf.MeasurementReplay.ClosedLoopComparison;
import io.gpufleet.engine.perf.MeasurementReplay.OpenLoopPrediction;
import io.gpufleet.report.table.Table;
import java.util.List;
import java.util.Locale;

/**
 * The performance model beside the measurement it was fitted to: its constants with the rows they
 * come from, every closed-loop row predicted against measured, and (for the H200) the open-loop
 * runs it predicts.
 */
public final class CalibrationReport {
  private CalibrationReport() {}

  /**
   * @param source what the constants were fitted to
   * @param open   the open-loop predictions to show, none for a calibration other than the H200's
   */
  public static String text(String source, Calibration c, List<ClosedLoopComparison> closed,
      List<OpenLoopPrediction> open) {
    StringBuilder b = new StringBuilder();
    b.append("CALIBRATION (fitted to ").append(source).append(")\n");
    Table p = Table.of("PARAMETER", "VALUE", "FITTED TO");
    p = p.row("singleStreamBandwidth", f(c.singleStreamBandwidth(), 4), "big N=1 (time-slicing, MPS): 12.885 GB per request alone");
    p = p.row("overlappedBandwidth", f(c.overlappedBandwidth(), 4), "big MPS N=2,4,8: saturated throughput");
    p = p.row("contextSwitchOverhead", f(c.contextSwitchOverhead(), 4), "big time-slicing N=2,4,8 against N=1");
    p = p.row("hostMsPerKernel", f(c.hostMsPerKernel(), 5), "small time-slicing N=1: 768 launches per request");
    p = p.row("launchBoundGpuShare", f(c.launchBoundGpuShare(), 4), "small time-slicing N=8: the card saturated");
    p = p.row("mpsLaunchFactor", f(c.mpsLaunchFactor(), 4), "small MPS N=1 against time-slicing N=1");
    p = p.row("mpsKernelConcurrency", f(c.mpsKernelConcurrency(), 4), "small MPS and capped MPS at most N: saturation (mean)");
    p = p.row("cappedBandwidthExponent", f(c.cappedBandwidthExponent(), 4), "big capped MPS, fewest N>1 the cap slows, against N=1");
    b.append(p.render()).append('\n');
    b.append("CLOSED LOOP: predicted vs measured (aggregate throughput, p50; tolerance +-15%)\n");
    Table t = Table.of("WORKLOAD", "MODE", "N", "REQ/S PRED", "REQ/S MEAS", "ERR", "P50 PRED", "P50 MEAS", "ERR");
    for (ClosedLoopComparison x : closed) {
      t = t.row(x.measured().workload(), x.measured().mode(), x.measured().tenants(), f(x.throughput(), 1),
          f(x.measured().throughput(), 1), pct(x.throughputError()), f(x.p50Ms(), 2), f(x.measured().p50Ms(), 2),
          pct(x.p50Error()));
    }
    b.append(t.render());
    if (open.isEmpty()) {
      return b.toString();
    }
    b.append('\n');
    b.append("OPEN LOOP: predictions for the runs kept aside (big, Poisson arrivals at 60 req/s per tenant)\n");
    Table o = Table.of("MODE", "TENANTS", "P50 MS", "P99 MS", "CARD LOAD");
    for (OpenLoopPrediction x : open) {
      o = o.row(x.mode(), x.tenants(), f(x.p50Ms(), 2), f(x.p99Ms(), 2), f(x.load(), 2));
    }
    b.append(o.render());
    return b.toString();
  }

  private static String f(double v, int decimals) {
    return Double.isInfinite(v) ? "unbounded" : String.format(Locale.ROOT, "%." + decimals + "f", v);
  }

  private static String pct(double v) {
    return String.format(Locale.ROOT, "%+.1f%%", 100 * v);
  }
}
