package io.gpufleet.engine.perf;

import io.gpufleet.model.advise.ClosedLoopRow;
import io.gpufleet.model.advise.MeasuredSharing;
import io.gpufleet.model.advise.RequestDemand;
import io.gpufleet.model.deviceplugin.SharingMode;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuModel;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * Fits {@link Calibration} to closed-loop rows of a memory-bound workload ({@code big}) and a
 * launch-bound one ({@code small}) measured on one card, each constant in closed form from the rows
 * named in its documentation. The remaining rows (and every p50) are left to check the model.
 *
 * <p>Whatever modes and tenant counts were measured, {@link #fitWhatIsMeasured} fits the constants
 * those rows determine and keeps the built-in H200 value ({@link Calibration#H200_2026_11_30}) for
 * each other one, naming it with the rows it lacks and the {@code bench-sharing} run that measures them.
 */
public final class CalibrationFit {
  private CalibrationFit() {}

  static final String TIME_SLICING = "time-slicing";
  static final String MPS = "mps";
  /** MPS with each of N clients capped at 100/N % of the SMs, as the device plugin runs it. */
  static final String MPS_CAPPED = "mps-capped";
  /**
   * One client alone under the cap of N ({@code tenants} of the row), 100/N % of the SMs: how fast a
   * device-plugin replica runs while its co-tenants are idle, which back-to-back rows need not show.
   */
  static final String MPS_CAPPED_SOLO = "mps-capped-solo";
  private static final int EXPONENT_STEPS = 10_000;

  /**
   * A constant the rows do not determine, kept at its built-in value.
   *
   * @param constant the {@link Calibration} component
   * @param kept     the value taken instead, in words
   * @param missing  the rows it is fitted to, none of which (or not all) were measured
   * @param rests    which predictions rest on the value taken instead
   * @param command  the {@code gpufleet bench-sharing} run that measures the missing rows
   */
  public record Gap(String constant, String kept, String missing, String rests, String command) {
    /** A constant kept at its built-in H200 value. */
    Gap(String constant, String missing, String rests, String command) {
      this(constant, "the built-in H200 value", missing, rests, command);
    }
  }

  /** The constants, and which of them are the built-in ones because their rows were not measured. */
  public record Fitted(Calibration calibration, List<Gap> gaps) {
    public Fitted {
      gaps = List.copyOf(gaps);
    }
  }

  /** Fits the rows of a measurement, on the datasheet bandwidth of the card it names; every constant must be fitted. */
  public static Calibration fit(MeasuredSharing m, GpuCatalog catalog) {
    return fitWhatIsMeasured(m, catalog).calibration();
  }

  /** Fits what the rows of a measurement determine, on the datasheet bandwidth of the card it names. */
  public static Fitted fitWhatIsMeasured(MeasuredSharing m, GpuCatalog catalog) {
    GpuModel card = catalog.byId(m.gpu()).orElseThrow(
        () -> new IllegalArgumentException("card " + m.gpu() + " is not in the GPU catalogue"));
    double bandwidth = card.bandwidthGBps().orElseThrow(
        () -> new IllegalArgumentException("the memory bandwidth of " + m.gpu() + " is not known"));
    return fitWhatIsMeasured(m.rows(), bandwidth, m.big(), m.small());
  }

  /**
   * Every constant fitted, or an error naming the rows that are missing.
   *
   * @param rows          closed-loop rows of workloads {@code big} and {@code small} under
   *                      {@code time-slicing}, {@code mps} and {@code mps-capped}, N=1 and more
   * @param bandwidthGBps the card's datasheet bandwidth
   * @param big           what one {@code big} request reads
   * @param small         what one {@code small} request launches
   */
  public static Calibration fit(List<ClosedLoopRow> rows, double bandwidthGBps, RequestDemand.ModelWeights big,
      RequestDemand.KernelStream small) {
    Fitted f = fitWhatIsMeasured(rows, bandwidthGBps, big, small);
    if (!f.gaps().isEmpty()) {
      throw new IllegalArgumentException("no " + f.gaps().getFirst().missing());
    }
    return f.calibration();
  }

  /** Fits the constants the rows determine; the others keep their built-in values, each named. */
  public static Fitted fitWhatIsMeasured(List<ClosedLoopRow> rows, double bandwidthGBps,
      RequestDemand.ModelWeights big, RequestDemand.KernelStream small) {
    Calibration d = Calibration.H200_2026_11_30;
    List<Gap> gaps = new ArrayList<>();
    double bytesPerSecond = bandwidthGBps * 1e9;
    // Alone, a big request streams its weights at the single-stream bandwidth.
    OptionalDouble bigAlone = mean(rows, r -> r.workload().equals("big") && r.tenants() == 1
        && !r.mode().equals(MPS_CAPPED) && !r.mode().equals(MPS_CAPPED_SOLO),
        r -> 1000 / r.throughput());
    if (bigAlone.isEmpty()) {
      // One capped client gets 100/1 % of the SMs: the capped N=1 row is an uncapped one.
      bigAlone = mean(rows, r -> is(r, "big", MPS_CAPPED) && r.tenants() == 1, r -> 1000 / r.throughput());
    }
    double single = d.singleStreamBandwidth();
    if (bigAlone.isPresent()) {
      single = big.bytesPerRequest() / (bigAlone.getAsDouble() / 1000) / bytesPerSecond;
    } else {
      gaps.add(gap("singleStreamBandwidth", "big", TIME_SLICING, "1", "a lone memory-bound request's time"));
    }
    // With MPS from two tenants on, big saturates the overlapped bandwidth.
    OptionalDouble mpsSaturated = mean(rows, r -> is(r, "big", MPS) && r.tenants() > 1, ClosedLoopRow::throughput);
    double overlapped = d.overlappedBandwidth();
    if (mpsSaturated.isPresent()) {
      overlapped = mpsSaturated.getAsDouble() * big.bytesPerRequest() / bytesPerSecond;
    } else {
      gaps.add(gap("overlappedBandwidth", "big", MPS, "1,2,4,8", "memory-bound MPS and capped-MPS tenants that overlap"));
    }
    if (overlapped < single) {
      // A lone stream cannot beat overlapped ones; a built-in value below a fitted one is raised to it.
      overlapped = Math.min(1, single);
      single = Math.min(single, overlapped);
    }
    // Time-slicing two or more busy tenants loses the switching overhead.
    OptionalDouble slicedSaturated = mean(rows, r -> is(r, "big", TIME_SLICING) && r.tenants() > 1, ClosedLoopRow::throughput);
    double overhead = d.contextSwitchOverhead();
    if (slicedSaturated.isPresent() && bigAlone.isPresent()) {
      overhead = Math.max(0, (1000 / slicedSaturated.getAsDouble()) / bigAlone.getAsDouble() - 1);
    } else {
      gaps.add(gap("contextSwitchOverhead", "big", TIME_SLICING, "1,2,4,8", "every time-sliced tenant"));
    }
    // A lone small request is its launches.
    Optional<ClosedLoopRow> smallAlone = row(rows, "small", TIME_SLICING, 1);
    double perKernel = d.hostMsPerKernel();
    double gpuShare = d.launchBoundGpuShare();
    double launchFactor = d.mpsLaunchFactor();
    double concurrency = d.mpsKernelConcurrency();
    Optional<ClosedLoopRow> smallFull = most(rows, "small", TIME_SLICING);
    if (smallAlone.isPresent()) {
      double smallAloneMs = 1000 / smallAlone.get().throughput();
      perKernel = smallAloneMs / small.kernels();
      // The most tenants saturate the card: its GPU time per request is 1 / throughput. Where that is
      // more than a lone request's whole time (the H100: 406 req/s from 8 tenants, 478 from one),
      // time-slicing keeps the GPU for the whole request: the share is 1.
      if (smallFull.isPresent() && smallFull.get().tenants() > 1
          && smallFull.get().tenants() * 1000 / smallAloneMs > smallFull.get().throughput()) {
        gpuShare = Math.min(1, 1000 / (smallFull.get().throughput() * smallAloneMs * (1 + overhead)));
      } else {
        gaps.add(new Gap("launchBoundGpuShare", "small " + TIME_SLICING + " rows with enough tenants to saturate the card",
            "how many launch-bound tenants time-slicing serves", command("small", TIME_SLICING, "1,2,4,8")));
      }
      // One capped client gets 100/1 % of the SMs: the capped N=1 row is an uncapped one.
      Optional<ClosedLoopRow> mpsAlone = row(rows, "small", MPS, 1).or(() -> row(rows, "small", MPS_CAPPED, 1));
      if (mpsAlone.isPresent()) {
        launchFactor = (1000 / mpsAlone.get().throughput()) / smallAloneMs;
      } else {
        gaps.add(gap("mpsLaunchFactor", "small", MPS_CAPPED, "1", "a launch-bound MPS client's own latency"));
      }
    } else {
      gaps.add(gap("hostMsPerKernel", "small", TIME_SLICING, "1", "a lone launch-bound request's time"));
      gaps.add(gap("launchBoundGpuShare", "small", TIME_SLICING, "1,2,4,8", "how many launch-bound tenants time-slicing serves"));
      gaps.add(gap("mpsLaunchFactor", "small", TIME_SLICING, "1", "a launch-bound MPS client's own latency"));
    }
    // MPS's capacity for tiny kernels: the cap does not bind on them, so the uncapped and capped rows
    // with the most tenants measure one capacity (their mean where both were run).
    Optional<ClosedLoopRow> mpsAlone = row(rows, "small", MPS, 1).or(() -> row(rows, "small", MPS_CAPPED, 1));
    List<ClosedLoopRow> mpsFull = new ArrayList<>();
    most(rows, "small", MPS).filter(r -> r.tenants() > 1).ifPresent(mpsFull::add);
    most(rows, "small", MPS_CAPPED).filter(r -> r.tenants() > 1).ifPresent(mpsFull::add);
    if (!mpsFull.isEmpty() && mpsAlone.isPresent()) {
      double full = mpsFull.stream().mapToDouble(ClosedLoopRow::throughput).average().orElseThrow();
      concurrency = Math.max(1, full / 1000 * gpuShare * (1000 / mpsAlone.get().throughput()));
    } else {
      gaps.add(gap("mpsKernelConcurrency", "small", MPS_CAPPED, "1,2,4,8", "how many launch-bound MPS tenants the card serves"));
    }
    // A capped big client alone streams at single × f^exponent, f = (100/N)/100 of the SMs; N busy
    // clients each take the slower of that and their share of the overlapped bandwidth. A lone capped
    // client (mps-capped-solo, N > 1) measures f^-exponent itself: where such rows were run, the
    // exponent is their least-squares fit in logs, ln(alone/solo) = exponent × ln(1/f), and the
    // back-to-back capped rows are left to check it.
    List<ClosedLoopRow> capped = rows.stream().filter(r -> is(r, "big", MPS_CAPPED) && r.tenants() > 1).toList();
    List<ClosedLoopRow> solo = cappedAlone(rows, bigAlone);
    double exponent = d.cappedBandwidthExponent();
    if (!solo.isEmpty() && bigAlone.isPresent()) {
      double xy = 0;
      double xx = 0;
      for (ClosedLoopRow r : solo) {
        double x = -Math.log((100 / r.tenants()) / 100.0);
        xy += x * Math.log(r.throughput() * bigAlone.getAsDouble() / 1000);
        xx += x * x;
      }
      exponent = Math.clamp(-xy / xx, 0.0, 1.0);
    } else if (capped.isEmpty() || bigAlone.isEmpty()) {
      gaps.add(gap("cappedBandwidthExponent", "big", MPS_CAPPED, "1,2,4,8", "memory-bound capped-MPS tenants (the device plugin's MPS)"));
    } else {
      // Without them the N=2 row binds on the cap; from N=4 the card's bandwidth binds, so those rows
      // only bound the exponent from above. Take the exponent whose worst row is best (the first on
      // a 1e-4 grid).
      double best = Double.POSITIVE_INFINITY;
      for (int step = 0; step <= EXPONENT_STEPS; step++) {
        double e = (double) step / EXPONENT_STEPS;
        double worst = worstCappedRow(capped, bigAlone.getAsDouble(), single, overlapped, overhead, perKernel, gpuShare,
            launchFactor, concurrency, e);
        if (worst < best) {
          best = worst;
          exponent = e;
        }
      }
      // Where no row binds on the cap (the H100: big capped N=2 236.1 req/s, uncapped 236.5), every
      // exponent up to the bound fits alike: the rows do not determine it, and the least is taken.
      if (exponent == 0 && best == worstCappedRow(capped, bigAlone.getAsDouble(), single, overlapped, overhead,
          perKernel, gpuShare, launchFactor, concurrency, 0.5)) {
        gaps.add(new Gap("cappedBandwidthExponent", "0, taking a lone capped client as fast as an uncapped one",
            "big " + MPS_CAPPED + " row where the cap binds: every one runs at the uncapped card's throughput",
            "memory-bound capped-MPS tenants whose co-tenants are idle",
            command("big", MPS_CAPPED_SOLO, "1,2,4,8") + " (a lone client under the cap of each N)"));
      }
    }
    return new Fitted(new Calibration(single, overlapped, overhead, perKernel, gpuShare, launchFactor, concurrency,
        exponent), gaps);
  }

  /**
   * The big {@code mps-capped-solo} rows with N > 1, each taken relative to the solo N=1 row (a lone
   * client at 100 %) where one was measured and scaled to the lone big time {@code bigAlone}, as
   * {@link CapacityCurve#of} takes them.
   */
  private static List<ClosedLoopRow> cappedAlone(List<ClosedLoopRow> rows, OptionalDouble bigAloneMs) {
    OptionalDouble reference = mean(rows, r -> is(r, "big", MPS_CAPPED_SOLO) && r.tenants() == 1, ClosedLoopRow::throughput);
    double scale = reference.isPresent() && bigAloneMs.isPresent()
        ? 1000 / bigAloneMs.getAsDouble() / reference.getAsDouble() : 1;
    return rows.stream().filter(r -> is(r, "big", MPS_CAPPED_SOLO) && r.tenants() > 1)
        .map(r -> new ClosedLoopRow(r.workload(), r.mode(), r.tenants(), r.throughput() * scale, r.p50Ms(), r.p99Ms()))
        .toList();
  }

  /** The worst relative throughput error over the capped big rows with exponent {@code e}. */
  private static double worstCappedRow(List<ClosedLoopRow> capped, double bigAloneMs, double single,
      double overlapped, double overhead, double perKernel, double gpuShare, double launchFactor, double concurrency,
      double e) {
    Calibration candidate = new Calibration(single, overlapped, overhead, perKernel, gpuShare, launchFactor,
        concurrency, e);
    double worst = 0;
    for (ClosedLoopRow r : capped) {
      // Back to back, every big client is always in a burst: each meets the N-1 others.
      double stretch = Contention.of(SharingMode.Mps.devicePlugin(r.tenants()), candidate).burstStretch(r.tenants() - 1);
      double predicted = r.tenants() * 1000 / (bigAloneMs * stretch);
      worst = Math.max(worst, Math.abs(predicted / r.throughput() - 1));
    }
    return worst;
  }

  /** The bench-sharing run that measures a workload's rows under one mode. */
  public static String command(String workload, String mode, String tenants) {
    return "gpufleet bench-sharing --workloads " + workload + " --modes " + mode + " --tenants " + tenants
        + " --seconds 4 --json-file " + workload + "-" + mode + ".json";
  }

  private static Gap gap(String constant, String workload, String mode, String tenants, String rests) {
    String which = tenants.equals("1") ? "the " + workload + " " + mode + " row with 1 tenant"
        : workload + " " + mode + " rows with " + tenants.replace(",", ", ") + " tenants";
    return new Gap(constant, which, rests, command(workload, mode, tenants));
  }

  private static boolean is(ClosedLoopRow r, String workload, String mode) {
    return r.workload().equals(workload) && r.mode().equals(mode);
  }

  private static Optional<ClosedLoopRow> row(List<ClosedLoopRow> rows, String workload, String mode, int tenants) {
    return rows.stream().filter(r -> is(r, workload, mode) && r.tenants() == tenants).findFirst();
  }

  private static Optional<ClosedLoopRow> most(List<ClosedLoopRow> rows, String workload, String mode) {
    return rows.stream().filter(r -> is(r, workload, mode)).max(Comparator.comparingInt(ClosedLoopRow::tenants));
  }

  private static OptionalDouble mean(List<ClosedLoopRow> rows, Predicate<ClosedLoopRow> which,
      ToDoubleFunction<ClosedLoopRow> value) {
    return rows.stream().filter(which).mapToDouble(value).average();
  }
}
