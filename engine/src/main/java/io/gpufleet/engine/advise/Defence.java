package io.gpufleet.engine.advise;

import io.gpufleet.model.advise.WorkloadProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The recommendation and its defence in plain sentences: what to run and what it costs, what it
 * delivers against the objective, why the cheaper options lose and what the next one up would
 * add, where the numbers overrule a rule of thumb, how much load it can take, and what it gives up.
 */
final class Defence {
  private Defence() {}

  static List<String> of(Situation s, List<Option> ranked, Optional<Option> recommended, Optional<Option> spread,
      List<RuleCheck> rules) {
    List<String> out = new ArrayList<>();
    if (recommended.isEmpty()) {
      out.add("No option can be used for these workloads on " + s.gpu().id() + ": "
          + ranked.getFirst().label() + " comes closest, but " + ranked.getFirst().blockers().getFirst() + ".");
      return out;
    }
    Option rec = recommended.get();
    NodePlan nodes = rec.nodes().orElseThrow();
    out.add(String.format(Locale.ROOT, "Run %s: %s on %d x %s, %s a month, %s of the capacity paid for in use.",
        rec.label(), Say.gpus(rec.gpus(), s.gpu().id()), nodes.nodes(), nodes.instanceType(),
        Say.money(rec.monthlyCost()), Say.percent(rec.utilisation())));
    out.add(delivers(s, rec));
    if (!rec.fewerGpus().isEmpty()) {
      out.add("Fewer GPUs do not work: " + String.join("; ", rec.fewerGpus()) + ".");
    }
    for (Option o : ranked) {
      if (o == rec || o.monthlyCost() >= rec.monthlyCost() || o.gpus() == 0) {
        continue;
      }
      if (!o.admissible()) {
        out.add("The cheaper " + o.label() + " (" + Say.money(o.monthlyCost()) + ") is out: " + o.blockers().getFirst() + ".");
      } else if (!o.sloMet()) {
        out.add("The cheaper " + o.label() + " (" + Say.money(o.monthlyCost()) + ") misses the SLO: p99 "
            + Say.ms(o.worstP99Ms()) + ".");
      }
    }
    ranked.stream().filter(o -> o != rec && o.admissible() && o.sloMet() && o.monthlyCost() >= rec.monthlyCost())
        .findFirst().ifPresent(o -> out.add(String.format(Locale.ROOT,
            "The next choice, %s, also %s for %s a month (%s), with p99 %s.", o.label(),
            s.anySlo() ? "meets the SLO" : "keeps up", Say.money(o.monthlyCost()),
            o.monthlyCost() == rec.monthlyCost() ? "the same" : "+" + Say.percent(o.monthlyCost() / rec.monthlyCost() - 1),
            Say.ms(o.worstP99Ms()))));
    for (RuleCheck c : rules) {
      if (c.stance() == RuleCheck.Stance.OVERRULED) {
        out.add(c.sentence());
      }
    }
    if (rec.headroom() > 0) {
      out.add(s.anySlo()
          ? "The SLO holds up to " + Say.times(rec.headroom()) + " the stated request rates."
          : "These GPUs saturate at " + Say.times(rec.headroom()) + " the stated request rates.");
    }
    if (!rec.risks().isEmpty()) {
      List<String> gives = rec.risks().stream().limit(3).map(Risk::text).toList();
      out.add("What it gives up: " + String.join("; ", gives) + ".");
    }
    spread.ifPresent(o -> out.add(String.format(Locale.ROOT,
        "To keep serving through the loss of one node, run %s on %s across %d x %s instead: %s a month (+%s), p99 %s.",
        o.label(), Say.gpus(o.gpus(), s.gpu().id()), o.nodes().orElseThrow().nodes(),
        o.nodes().orElseThrow().instanceType(), Say.money(o.monthlyCost()),
        Say.percent(o.monthlyCost() / rec.monthlyCost() - 1), Say.ms(o.worstP99Ms()))));
    return out;
  }

  private static String delivers(Situation s, Option rec) {
    List<String> parts = new ArrayList<>();
    for (WorkloadOutcome o : rec.outcomes()) {
      WorkloadProfile w = s.workloads().stream().filter(x -> x.name().equals(o.workload())).findFirst().orElseThrow();
      String against = o.sloP99Ms().isPresent()
          ? (o.sloMet() ? " within its " : " MISSING its ") + Say.ms(o.sloP99Ms().getAsDouble()) + " SLO"
          : " (no SLO)";
      parts.add(String.format(Locale.ROOT, "%s gets p50 %s and p99 %s per replica at %s req/s each%s", o.workload(),
          Say.ms(o.p50Ms()), Say.ms(o.p99Ms()), trim(w.load().ratePerSecond()), against));
    }
    return String.join("; ", parts) + ".";
  }

  static String trim(double v) {
    String t = String.format(Locale.ROOT, "%.3f", v).replaceAll("0+$", "");
    return t.endsWith(".") ? t.substring(0, t.length() - 1) : t;
  }
}
