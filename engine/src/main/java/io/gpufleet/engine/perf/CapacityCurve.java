package io.gpufleet.engine.perf;

import io.gpufleet.model.advise.ClosedLoopRow;
import io.gpufleet.model.advise.OpenLoopRow;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * What one card does for one workload under one mode with {@code n} busy tenants, read from its
 * closed-loop rows: the aggregate throughput {@code X(n)} of n tenants sending back to back is the
 * card's capacity with n busy, and {@code n / X(n)} the time one request takes while n are busy.
 * Between measured tenant counts the throughput is interpolated linearly; past the largest it is
 * taken as flat (the card saturated), which the coverage report says.
 *
 * <p>Under {@code mps-capped} the curve also carries the {@code mps-capped-solo} rows: one client
 * alone, capped at 100/N % of the SMs as one of N device-plugin replicas is. Back to back the cap
 * need not bind (the H100: big capped N=2 236.1 req/s, uncapped 236.5), so only these rows say how
 * fast a capped client runs while its co-tenants are idle ({@link #cappedAloneMs}).
 *
 * @param workload    the bench workload ({@code big} or {@code small})
 * @param mode        {@code time-slicing}, {@code mps} or {@code mps-capped}
 * @param throughput  aggregate requests per second by number of busy tenants (N=1 required)
 * <p>A lone tenant's open-loop row at light load gives {@link #idle}: what a request that finds its
 * tenant idle takes beyond the closed-loop service time ({@link IdleArrival}).
 *
 * @param cappedAlone a lone capped client's requests per second by the N whose cap of 100/N % it
 *                    runs under (N > 1); empty where no {@code mps-capped-solo} row was measured
 * @param idle        an idle arrival's extra time; {@link IdleArrival#NONE} where no lone open-loop
 *                    row was measured
 */
public record CapacityCurve(String workload, String mode, Map<Integer, Double> throughput,
    Map<Integer, Double> cappedAlone, IdleArrival idle) {

  public CapacityCurve {
    Objects.requireNonNull(workload, "workload");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(idle, "idle");
    throughput = Map.copyOf(throughput);
    cappedAlone = Map.copyOf(cappedAlone);
    if (!throughput.containsKey(1)) {
      throw new IllegalArgumentException(workload + " " + mode + ": a capacity curve needs the N=1 row");
    }
    if (cappedAlone.keySet().stream().anyMatch(n -> n < 2 || n > 100)) {
      throw new IllegalArgumentException(workload + " " + mode + ": a lone capped client runs under the cap of 2 to 100 "
          + "tenants, found " + cappedAlone.keySet());
    }
  }

  /** A curve without lone open-loop rows. */
  public CapacityCurve(String workload, String mode, Map<Integer, Double> throughput,
      Map<Integer, Double> cappedAlone) {
    this(workload, mode, throughput, cappedAlone, IdleArrival.NONE);
  }

  /** A curve without lone capped rows. */
  public CapacityCurve(String workload, String mode, Map<Integer, Double> throughput) {
    this(workload, mode, throughput, Map.of());
  }

  /**
   * The curve of the closed-loop rows of one workload and mode ({@link #of(List, String, String)}),
   * with its idle arrival fitted to the lone open-loop row of the same workload and mode among
   * {@code lone} ({@link #loneRow}; none, none).
   */
  public static CapacityCurve of(List<ClosedLoopRow> rows, List<OpenLoopRow> lone, String workload, String mode) {
    CapacityCurve c = of(rows, workload, mode);
    return loneRow(lone, workload, mode, c.capacity(1))
        .map(r -> c.withIdle(IdleArrival.fit(c.serviceMs(1), r.ratePerSecond(), r.p50Ms(), r.p99Ms())))
        .orElse(c);
  }

  /**
   * The lone open-loop row of a workload and mode that fits its idle arrival: one tenant, offered
   * less than {@link #LIGHT} of the lone capacity {@code aloneThroughput} (most of its requests find
   * it idle), the lightest where several were measured.
   */
  public static Optional<OpenLoopRow> loneRow(List<OpenLoopRow> lone, String workload, String mode,
      double aloneThroughput) {
    return lone.stream()
        .filter(r -> r.tenants() == 1 && r.workload().equals(workload) && r.mode().equals(mode)
            && r.ratePerSecond() < LIGHT * aloneThroughput)
        .min(java.util.Comparator.comparingDouble(OpenLoopRow::ratePerSecond));
  }

  /** The most of its lone capacity a lone open-loop row may offer to fit an idle arrival. */
  public static final double LIGHT = 0.5;

  /** The same curve whose idle arrivals take {@code extra}. */
  public CapacityCurve withIdle(IdleArrival extra) {
    return new CapacityCurve(workload, mode, throughput, cappedAlone, extra);
  }

  /**
   * The curve of the rows of one workload and mode (several rows of one N are averaged). For
   * {@code mps-capped}, the workload's {@code mps-capped-solo} rows give {@link #cappedAlone}; where
   * a solo row with N=1 (a lone client at 100 %) was measured with them, each is taken relative to
   * it and scaled to this curve's own lone throughput, so rows measured in another session (or on
   * another card of the type) carry the cap's slowdown, not their session's speed.
   */
  public static CapacityCurve of(List<ClosedLoopRow> rows, String workload, String mode) {
    Map<Integer, Double> x = averaged(rows, workload, mode);
    Map<Integer, Double> solo = new TreeMap<>();
    if (mode.equals(CalibrationFit.MPS_CAPPED) && x.containsKey(1)) {
      Map<Integer, Double> s = averaged(rows, workload, CalibrationFit.MPS_CAPPED_SOLO);
      double scale = s.containsKey(1) ? x.get(1) / s.get(1) : 1;
      s.forEach((n, v) -> {
        if (n > 1) {
          solo.put(n, v * scale);
        }
      });
    }
    return new CapacityCurve(workload, mode, x, solo);
  }

  private static Map<Integer, Double> averaged(List<ClosedLoopRow> rows, String workload, String mode) {
    Map<Integer, double[]> sums = new TreeMap<>();
    for (ClosedLoopRow r : rows) {
      if (r.workload().equals(workload) && r.mode().equals(mode)) {
        double[] s = sums.computeIfAbsent(r.tenants(), k -> new double[2]);
        s[0] += r.throughput();
        s[1]++;
      }
    }
    Map<Integer, Double> x = new TreeMap<>();
    sums.forEach((n, s) -> x.put(n, s[0] / s[1]));
    return x;
  }

  /** The same card's curve for a request {@code factor} times as long alone (the idle extra time kept). */
  public CapacityCurve scaled(double factor) {
    if (!(factor > 0)) {
      throw new IllegalArgumentException("a scale must be positive, found " + factor);
    }
    Map<Integer, Double> x = new TreeMap<>();
    throughput.forEach((n, v) -> x.put(n, v / factor));
    Map<Integer, Double> solo = new TreeMap<>();
    cappedAlone.forEach((n, v) -> solo.put(n, v / factor));
    // An idle arrival's extra time is the tenant's wake-up, not its work: it does not scale.
    return new CapacityCurve(workload, mode, x, solo, idle);
  }

  /** The largest tenant count measured. */
  public int measuredUpTo() {
    return new TreeMap<>(throughput).lastKey();
  }

  /** Aggregate requests per second with {@code n} tenants busy. */
  public double capacity(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("at least one busy tenant, found " + n);
    }
    TreeMap<Integer, Double> x = new TreeMap<>(throughput);
    Map.Entry<Integer, Double> lo = x.floorEntry(n);
    Map.Entry<Integer, Double> hi = x.ceilingEntry(n);
    if (hi == null) {
      return lo.getValue();
    }
    if (lo.getKey().equals(hi.getKey())) {
      return lo.getValue();
    }
    double t = (double) (n - lo.getKey()) / (hi.getKey() - lo.getKey());
    return lo.getValue() + t * (hi.getValue() - lo.getValue());
  }

  /** How long one request takes, ms, while {@code busy} tenants (itself included) have one in service. */
  public double serviceMs(int busy) {
    return busy * 1000.0 / capacity(busy);
  }

  /**
   * How long one request of a lone client takes, ms, under the device plugin's cap for {@code tenants}
   * replicas ({@code 100 / tenants} %, integer division); empty for one tenant (no cap) or where no
   * lone capped row was measured.
   */
  public OptionalDouble cappedAloneMs(int tenants) {
    return tenants < 2 ? OptionalDouble.empty() : cappedAloneMsAtShare(100 / tenants);
  }

  /**
   * How long one request of a lone client takes, ms, capped at {@code percent} % of the SMs; empty
   * uncapped (100 %) or where no lone capped row was measured. The throughput is interpolated
   * linearly in the SM share between the measured caps and the uncapped lone row (100 %); below the
   * smallest share measured it is that share's, a lower bound on the time (fewer SMs cannot be
   * faster), which {@link SharingCurves#uncovered} says.
   */
  public OptionalDouble cappedAloneMsAtShare(int percent) {
    if (percent >= 100 || cappedAlone.isEmpty()) {
      return OptionalDouble.empty();
    }
    TreeMap<Integer, Double> byShare = new TreeMap<>();
    byShare.put(100, throughput.get(1));
    cappedAlone.forEach((n, v) -> byShare.put(100 / n, v));
    Map.Entry<Integer, Double> lo = byShare.floorEntry(percent);
    Map.Entry<Integer, Double> hi = byShare.ceilingEntry(percent);
    double x;
    if (lo == null) {
      x = hi.getValue();
    } else if (lo.getKey().equals(hi.getKey())) {
      x = lo.getValue();
    } else {
      double t = (double) (percent - lo.getKey()) / (hi.getKey() - lo.getKey());
      x = lo.getValue() + t * (hi.getValue() - lo.getValue());
    }
    return OptionalDouble.of(1000.0 / x);
  }

  /** The most tenants whose cap a lone client was measured under; 1 where none was. */
  public int cappedAloneUpTo() {
    return cappedAlone.keySet().stream().mapToInt(Integer::intValue).max().orElse(1);
  }
}
