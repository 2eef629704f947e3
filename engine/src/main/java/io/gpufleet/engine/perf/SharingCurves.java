package io.gpufleet.engine.perf;

import io.gpufleet.model.advise.Boundness;
import io.gpufleet.model.advise.ClosedLoopRow;
import io.gpufleet.model.advise.OpenLoopRow;
import io.gpufleet.model.deviceplugin.SharingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The closed-loop rows of one card as {@link CapacityCurve}s, for {@link SharingModel} to put the
 * card's own contention under open-loop tenants there: {@code big} stands for memory-bound work,
 * {@code small} for launch-bound. A tenant's request that takes {@code T} alone (as a plain context)
 * takes {@code T × S(k) / S₀} with k busy, where {@code S(k)} is the bench workload's time with k busy
 * under the mode and {@code S₀} its lone time-sliced time: the shape of the contention carries over
 * to work of the same kind on the same card, its scale does not.
 *
 * <p>A lone tenant's open-loop row of a workload and mode gives its curve the extra time of a request
 * that finds its tenant idle ({@link IdleArrival}); that time is the tenant's wake-up, so it carries
 * over unscaled.
 *
 * @param gpu  the catalogue id of the card the rows were measured on; other cards are not covered
 * @param rows the closed-loop rows
 * @param lone the lone tenants' open-loop rows (one tenant each); possibly none
 */
public record SharingCurves(String gpu, List<ClosedLoopRow> rows, List<OpenLoopRow> lone) {

  public SharingCurves {
    Objects.requireNonNull(gpu, "gpu");
    rows = List.copyOf(rows);
    lone = OpenLoopCheck.lone(lone);
  }

  /** Closed-loop rows only: idle arrivals take no extra time. */
  public SharingCurves(String gpu, List<ClosedLoopRow> rows) {
    this(gpu, rows, List.of());
  }

  /** The bench workload that stands for work of this kind. */
  public static String workload(Boundness bound) {
    return switch (bound) {
      case MEMORY -> "big";
      case LAUNCH -> "small";
    };
  }

  /**
   * The bench mode that measures this way of sharing (inside a MIG instance, the mode shared there:
   * the whole card's curve stands for the slice's shape, the tenant's lone time on the slice for its
   * scale); empty for exclusive use.
   */
  public static Optional<String> mode(SharingMode mode) {
    return switch (mode) {
      case SharingMode.TimeSlicing t -> Optional.of(CalibrationFit.TIME_SLICING);
      case SharingMode.Mps m -> Optional.of(m.activeThreadPercentage() < 100 ? CalibrationFit.MPS_CAPPED : CalibrationFit.MPS);
      case SharingMode.Exclusive e -> Optional.empty();
      case SharingMode.Mig g -> mode(g.within());
    };
  }

  /** The curve for work of this kind under this mode, where its rows (N=1 among them) were measured. */
  public Optional<CapacityCurve> curve(Boundness bound, SharingMode mode) {
    return mode(mode).flatMap(m -> curve(workload(bound), m));
  }

  private Optional<CapacityCurve> curve(String workload, String mode) {
    boolean alone = rows.stream().anyMatch(r -> r.workload().equals(workload) && r.mode().equals(mode) && r.tenants() == 1);
    return alone ? Optional.of(CapacityCurve.of(rows, lone, workload, mode)) : Optional.empty();
  }

  /**
   * The curve scaled to a request that takes {@code aloneMs} alone as a plain context: the bench
   * workload's lone time-sliced row is the reference (the mode's own N=1 row where that is missing).
   */
  public Optional<CapacityCurve> scaled(Boundness bound, SharingMode mode, double aloneMs) {
    return curve(bound, mode).map(c -> {
      double reference = curve(workload(bound), CalibrationFit.TIME_SLICING).orElse(c).serviceMs(1);
      return c.scaled(aloneMs / reference);
    });
  }

  /**
   * What the rows leave to the fitted constants: each workload and mode without an N=1 row, and
   * each measured one whose rows stop short of {@code tenants}, with the run that measures it; under
   * capped MPS also a lone capped client ({@code mps-capped-solo}) not measured, or not up to
   * {@code tenants}; each measured one whose lone row was measured on a noisy machine
   * ({@link OpenLoopCheck#noisyTail}); and each measured one without a lone open-loop row (the idle
   * arrival).
   */
  public List<String> uncovered(int tenants) {
    List<String> out = new ArrayList<>();
    for (String w : List.of("big", "small")) {
      for (String m : List.of(CalibrationFit.TIME_SLICING, CalibrationFit.MPS_CAPPED, CalibrationFit.MPS)) {
        String kind = w.equals("big") ? "memory-bound" : "launch-bound";
        Optional<CapacityCurve> c = curve(w, m);
        if (c.isEmpty()) {
          out.add(kind + " tenants under " + m + " use the fitted constants (no " + w + " " + m
              + " rows with 1 tenant and more); measure: " + CalibrationFit.command(w, m, "1,2,4,8"));
        } else if (c.get().measuredUpTo() < tenants) {
          out.add(kind + " tenants under " + m + " beyond " + c.get().measuredUpTo()
              + " per card take the capacity of " + c.get().measuredUpTo() + " (the rows stop there); measure: "
              + CalibrationFit.command(w, m, c.get().measuredUpTo() + "," + tenants));
        }
        if (c.isPresent()) {
          OpenLoopCheck.noisyTail(rows, w, m).ifPresent(why -> out.add(kind + " tenants under " + m + ": " + why));
        }
        if (c.isPresent() && CapacityCurve.loneRow(lone, w, m, c.get().capacity(1)).isEmpty()) {
          out.add(kind + " tenants under " + m + " take no extra time for a request that finds its tenant idle (no "
              + w + " " + m + " open-loop row with 1 tenant under half its capacity); measure: "
              + OpenLoopCheck.idleCommand(w, m, c.get().capacity(1)));
        }
        if (c.isPresent() && m.equals(CalibrationFit.MPS_CAPPED)) {
          int solo = c.get().cappedAloneUpTo();
          if (solo == 1) {
            out.add(kind + " capped-MPS tenants whose co-tenants are idle take the uncapped lone time (no " + w + " "
                + CalibrationFit.MPS_CAPPED_SOLO + " rows: one client under the cap of N); measure: "
                + CalibrationFit.command(w, CalibrationFit.MPS_CAPPED_SOLO, "1,2,4,8"));
          } else if (solo < tenants) {
            out.add(kind + " capped-MPS tenants beyond " + solo + " per card take a lone client's time under the cap of "
                + solo + " while co-tenants are idle, a lower bound (the " + CalibrationFit.MPS_CAPPED_SOLO
                + " rows stop there); measure: " + CalibrationFit.command(w, CalibrationFit.MPS_CAPPED_SOLO, "1," + tenants));
          }
        }
      }
    }
    return out;
  }
}
