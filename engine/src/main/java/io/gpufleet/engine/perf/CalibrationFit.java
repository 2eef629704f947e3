package io.gpufleet.engine.perf;

import io.gpufleet.model.advise.ClosedLoopRow;
import io.gpufleet.model.advise.MeasuredSharing;
import io.gpufleet.model.advise.RequestDemand;
import io.gpufleet.model.deviceplugin.SharingMode;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuModel;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * Fits {@link Calibration} to closed-loop rows of a memory-bound workload ({@code big}) and a
 * launch-bound one ({@code small}) measured on one card, each constant in closed form from the rows
 * named in its documentation. The remaining rows (and every p50) are left to check the model.
 */
public final class CalibrationFit {
  private CalibrationFit() {}

  static final String TIME_SLICING = "time-slicing";
  static final String MPS = "mps";
  /** MPS with each of N clients capped at 100/N % of the SMs, as the device plugin runs it. */
  static final String MPS_CAPPED = "mps-capped";
  private static final int EXPONENT_STEPS = 10_000;

  /** Fits the rows of a measurement, on the datasheet bandwidth of the card it names. */
  public static Calibration fit(MeasuredSharing m, GpuCatalog catalog) {
    GpuModel card = catalog.byId(m.gpu()).orElseThrow(
        () -> new IllegalArgumentException("card " + m.gpu() + " is not in the GPU catalogue"));
    double bandwidth = card.bandwidthGBps().orElseThrow(
        () -> new IllegalArgumentException("the memory bandwidth of " + m.gpu() + " is not known"));
    return fit(m.rows(), bandwidth, m.big(), m.small());
  }

  /**
   * @param rows          closed-loop rows of workloads {@code big} and {@code small} under
   *                      {@code time-slicing} and {@code mps}, N=1 and more
   * @param bandwidthGBps the card's datasheet bandwidth
   * @param big           what one {@code big} request reads
   * @param small         what one {@code small} request launches
   */
  public static Calibration fit(List<ClosedLoopRow> rows, double bandwidthGBps, RequestDemand.ModelWeights big,
      RequestDemand.KernelStream small) {
    double bytesPerSecond = bandwidthGBps * 1e9;
    // Alone, a big request streams its weights at the single-stream bandwidth.
    double bigAloneMs = mean(rows, r -> r.workload().equals("big") && r.tenants() == 1 && !r.mode().equals(MPS_CAPPED),
        r -> 1000 / r.throughput());
    double single = big.bytesPerRequest() / (bigAloneMs / 1000) / bytesPerSecond;
    // With MPS from two tenants on, big saturates the overlapped bandwidth.
    double mpsSaturated = mean(rows, r -> is(r, "big", MPS) && r.tenants() > 1, ClosedLoopRow::throughput);
    double overlapped = mpsSaturated * big.bytesPerRequest() / bytesPerSecond;
    // Time-slicing two or more busy tenants loses the switching overhead.
    double slicedSaturated = mean(rows, r -> is(r, "big", TIME_SLICING) && r.tenants() > 1, ClosedLoopRow::throughput);
    double overhead = (1000 / slicedSaturated) / bigAloneMs - 1;
    // A lone small request is its launches.
    ClosedLoopRow smallAlone = row(rows, "small", TIME_SLICING, 1);
    double smallAloneMs = 1000 / smallAlone.throughput();
    double perKernel = smallAloneMs / small.kernels();
    // The most tenants saturate the card: its GPU time per request is 1 / throughput.
    ClosedLoopRow smallFull = most(rows, "small", TIME_SLICING);
    if (smallFull.tenants() * 1000 / smallAloneMs <= smallFull.throughput()) {
      throw new IllegalArgumentException("the small time-slicing row with the most tenants is not saturated");
    }
    double gpuShare = 1000 / (smallFull.throughput() * smallAloneMs * (1 + overhead));
    // MPS's launch path, and its capacity for tiny kernels.
    double mpsAloneMs = 1000 / row(rows, "small", MPS, 1).throughput();
    double launchFactor = mpsAloneMs / smallAloneMs;
    // The cap does not bind on tiny kernels: both MPS rows with the most tenants measure one capacity.
    double mpsFull = (most(rows, "small", MPS).throughput() + most(rows, "small", MPS_CAPPED).throughput()) / 2;
    double concurrency = mpsFull / 1000 * gpuShare * mpsAloneMs;
    // A capped big client alone streams at single × f^exponent, f = (100/N)/100 of the SMs; N busy
    // clients each take the slower of that and their share of the overlapped bandwidth. The N=2
    // row binds on the cap; from N=4 the card's bandwidth binds, so those rows only bound the
    // exponent from above. Take the exponent whose worst row is best (the first on a 1e-4 grid).
    List<ClosedLoopRow> capped = rows.stream().filter(r -> is(r, "big", MPS_CAPPED) && r.tenants() > 1).toList();
    if (capped.isEmpty()) {
      throw new IllegalArgumentException("no big " + MPS_CAPPED + " rows with 2 or more tenants");
    }
    double exponent = 0;
    double best = Double.POSITIVE_INFINITY;
    for (int step = 0; step <= EXPONENT_STEPS; step++) {
      double e = (double) step / EXPONENT_STEPS;
      Calibration candidate = new Calibration(single, overlapped, overhead, perKernel, gpuShare, launchFactor,
          concurrency, e);
      double worst = 0;
      for (ClosedLoopRow r : capped) {
        // Back to back, every big client is always in a burst: each meets the N-1 others.
        double stretch = Contention.of(SharingMode.Mps.devicePlugin(r.tenants()), candidate).burstStretch(r.tenants() - 1);
        double predicted = r.tenants() * 1000 / (bigAloneMs * stretch);
        worst = Math.max(worst, Math.abs(predicted / r.throughput() - 1));
      }
      if (worst < best) {
        best = worst;
        exponent = e;
      }
    }
    return new Calibration(single, overlapped, overhead, perKernel, gpuShare, launchFactor, concurrency, exponent);
  }

  private static boolean is(ClosedLoopRow r, String workload, String mode) {
    return r.workload().equals(workload) && r.mode().equals(mode);
  }

  private static ClosedLoopRow row(List<ClosedLoopRow> rows, String workload, String mode, int tenants) {
    return rows.stream().filter(r -> is(r, workload, mode) && r.tenants() == tenants).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no " + workload + " " + mode + " row with " + tenants + " tenants"));
  }

  private static ClosedLoopRow most(List<ClosedLoopRow> rows, String workload, String mode) {
    return rows.stream().filter(r -> is(r, workload, mode))
        .max(Comparator.comparingInt(ClosedLoopRow::tenants))
        .orElseThrow(() -> new IllegalArgumentException("no " + workload + " " + mode + " rows"));
  }

  private static double mean(List<ClosedLoopRow> rows, Predicate<ClosedLoopRow> which,
      ToDoubleFunction<ClosedLoopRow> value) {
    return rows.stream().filter(which).mapToDouble(value).average()
        .orElseThrow(() -> new IllegalArgumentException("no rows to fit to"));
  }
}
