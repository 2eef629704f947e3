package io.gpufleet.model.karpenter;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code spec.disruption} of a NodePool. An empty {@code consolidateAfter} is {@code Never}, which
 * turns consolidation, emptiness included, off (reference §1.1).
 */
public record Disruption(ConsolidationPolicy consolidationPolicy, Optional<Duration> consolidateAfter,
    List<Budget> budgets) {

  /** Karpenter's defaults: WhenEmptyOrUnderutilized, 0s, {@code [{nodes: 10%}]} (reference §1.1). */
  public static final Disruption DEFAULT = new Disruption(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED,
      Optional.of(Duration.ZERO), List.of(Budget.DEFAULT));

  public Disruption {
    Objects.requireNonNull(consolidationPolicy, "consolidationPolicy");
    Objects.requireNonNull(consolidateAfter, "consolidateAfter");
    budgets = List.copyOf(budgets);
  }

  public Disruption withPolicy(ConsolidationPolicy policy) {
    return new Disruption(policy, consolidateAfter, budgets);
  }

  public Disruption withConsolidateAfter(Optional<Duration> after) {
    return new Disruption(consolidationPolicy, after, budgets);
  }

  public Disruption withBudgets(List<Budget> b) {
    return new Disruption(consolidationPolicy, consolidateAfter, b);
  }
}
