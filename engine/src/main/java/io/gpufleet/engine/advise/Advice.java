package io.gpufleet.engine.advise;

import java.util.List;
import java.util.Optional;

/**
 * The answer: every option ranked (admissible first, then those meeting their SLOs, then by monthly
 * cost, then by p99), the recommendation, how the rules of thumb stand, the defence in a few plain
 * sentences, the chart's data and the assumptions behind the numbers. {@code spread} is the
 * recommendation's mode kept on at least two GPUs and two nodes, offered when the recommendation
 * puts every replica of an SLO-bound workload on one card or node.
 */
public record Advice(
    Situation situation,
    List<Option> ranked,
    Optional<Option> recommended,
    Optional<Option> spread,
    List<RuleCheck> rules,
    List<String> defence,
    TenantSweep sweep,
    List<String> assumptions) {

  public Advice {
    ranked = List.copyOf(ranked);
    rules = List.copyOf(rules);
    defence = List.copyOf(defence);
    assumptions = List.copyOf(assumptions);
  }
}
