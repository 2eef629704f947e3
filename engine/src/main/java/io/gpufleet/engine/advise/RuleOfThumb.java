package io.gpufleet.engine.advise;

import io.gpufleet.model.deviceplugin.SharingMode.Family;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * One line of the sharing module's "Choosing" table (or a hard fact beside it): when it applies,
 * which modes it points to, and which it rules out.
 *
 * @param id        stable key ({@code strict-slo})
 * @param says      the rule as the module puts it
 * @param applies   when it speaks to a situation
 * @param pointsTo  the modes it recommends; empty for a pure constraint
 * @param rulesOut  the modes it excludes outright
 */
public record RuleOfThumb(String id, String says, Predicate<Situation> applies, Set<Family> pointsTo,
    Set<Family> rulesOut) {

  public RuleOfThumb {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(says, "says");
    Objects.requireNonNull(applies, "applies");
    pointsTo = pointsTo.isEmpty() ? EnumSet.noneOf(Family.class) : EnumSet.copyOf(pointsTo);
    rulesOut = rulesOut.isEmpty() ? EnumSet.noneOf(Family.class) : EnumSet.copyOf(rulesOut);
  }

  /** The module's table and the MIG availability line, in the module's order. */
  public static final List<RuleOfThumb> MODULE = List.of(
      new RuleOfThumb("strict-slo",
          "Strict latency SLO, production serving: exclusive (or MIG on A100/H100)",
          Situation::servingWithSlo, EnumSet.of(Family.EXCLUSIVE, Family.MIG), Set.of()),
      new RuleOfThumb("isolation-big-gpu",
          "Isolation between tenants on big GPUs: MIG",
          s -> s.anyUntrusted() && s.bigGpu(), EnumSet.of(Family.MIG), Set.of()),
      new RuleOfThumb("utilisation-any-gpu",
          "Higher utilisation for dev/test/notebooks/bursty jobs on any GPU: time-slicing",
          Situation::utilisationWork, EnumSet.of(Family.TIME_SLICING), Set.of()),
      new RuleOfThumb("small-kernels-one-team",
          "Many small kernels from one trusted team, lowest overhead: MPS",
          Situation::smallKernelsTrusted, EnumSet.of(Family.MPS), Set.of()),
      new RuleOfThumb("mig-hardware",
          "MIG exists on A100, A30, H100, H200, B200 and newer; not on A10G (g5), L4 (g6) or L40S (g6e)",
          s -> !s.gpu().migCapable(), Set.of(), EnumSet.of(Family.MIG)),
      new RuleOfThumb("untrusted-no-shared-context",
          "Untrusted tenants cannot share a card without isolation: time-slicing has no memory or fault isolation, MPS clients share one fault domain",
          Situation::anyUntrusted, Set.of(), EnumSet.of(Family.TIME_SLICING, Family.MPS)));
}
