package io.gpufleet.engine.advise;

import io.gpufleet.model.deviceplugin.SharingMode.Family;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Holds each rule of thumb that applies against the ranked options, and says how it stands. */
final class RuleChecks {
  private RuleChecks() {}

  static List<RuleCheck> of(Situation s, List<Option> ranked, Optional<Option> recommended) {
    List<RuleCheck> out = new ArrayList<>();
    for (RuleOfThumb rule : RuleOfThumb.MODULE) {
      if (!rule.applies().test(s)) {
        continue;
      }
      if (rule.pointsTo().isEmpty()) {
        out.add(new RuleCheck(rule, RuleCheck.Stance.CONSTRAINS,
            "The rule of thumb says: " + rule.says() + ". That rules out " + Say.families(rule.rulesOut()) + " here."));
        continue;
      }
      if (recommended.isPresent() && intersects(recommended.get().mode().families(), rule.pointsTo())) {
        out.add(new RuleCheck(rule, RuleCheck.Stance.AGREES,
            "The rule of thumb says: " + rule.says() + ". The numbers agree: " + recommended.get().label() + " is the pick."));
        continue;
      }
      out.add(new RuleCheck(rule, RuleCheck.Stance.OVERRULED,
          "The rule of thumb says: " + rule.says() + ". The numbers overrule it here: " + why(rule, ranked, recommended) + "."));
    }
    return out;
  }

  private static String why(RuleOfThumb rule, List<Option> ranked, Optional<Option> recommended) {
    if (recommended.isEmpty()) {
      return "no option can be chosen at all";
    }
    Option rec = recommended.get();
    Optional<Option> theirs = ranked.stream().filter(o -> intersects(o.mode().families(), rule.pointsTo())).findFirst();
    if (theirs.isEmpty()) {
      return Say.families(rule.pointsTo()) + " is not available on this GPU";
    }
    Option o = theirs.get();
    if (!o.admissible()) {
      return o.label() + " cannot be used: " + o.blockers().getFirst();
    }
    if (!o.sloMet()) {
      return o.label() + " misses the SLO (p99 " + Say.ms(o.worstP99Ms()) + ") where " + rec.label() + " meets it";
    }
    double extra = o.monthlyCost() / rec.monthlyCost() - 1;
    return o.label() + " also meets the SLO but needs " + o.gpus() + (o.gpus() == 1 ? " GPU" : " GPUs")
        + " and costs " + Say.money(o.monthlyCost()) + " a month, " + Say.percent(extra) + " more than "
        + rec.label() + " (" + Say.money(rec.monthlyCost()) + ")";
  }

  private static boolean intersects(Set<Family> a, Set<Family> b) {
    Set<Family> x = a.isEmpty() ? EnumSet.noneOf(Family.class) : EnumSet.copyOf(a);
    x.retainAll(b);
    return !x.isEmpty();
  }
}
