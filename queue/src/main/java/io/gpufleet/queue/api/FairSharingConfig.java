package io.gpufleet.queue.api;

import io.gpufleet.model.wire.WireEnum;
import java.util.List;

/**
 * Kueue's Configuration {@code fairSharing} ({@code apis/config/v1beta2/configuration_types.go}
 * FairSharing): present, fair sharing is on for every cohort, and preemption across a cohort
 * follows these strategies in order, the second tried only when the first does not make room.
 */
public record FairSharingConfig(List<PreemptionStrategy> preemptionStrategies) {

  /** Kueue's default list ({@code parseStrategies}, and the v1beta1 conversion when none are given). */
  public static final List<PreemptionStrategy> DEFAULT_STRATEGIES =
      List.of(PreemptionStrategy.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE, PreemptionStrategy.LESS_THAN_INITIAL_SHARE);

  /** The only lists Kueue's configuration validation accepts ({@code pkg/config/validation.go} validStrategySets). */
  public static final List<List<PreemptionStrategy>> VALID_STRATEGY_SETS = List.of(
      List.of(PreemptionStrategy.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE), List.of(PreemptionStrategy.LESS_THAN_INITIAL_SHARE),
      DEFAULT_STRATEGIES);

  public static final FairSharingConfig DEFAULT = new FairSharingConfig(DEFAULT_STRATEGIES);

  public FairSharingConfig {
    preemptionStrategies = List.copyOf(preemptionStrategies);
  }

  /**
   * {@code config.PreemptionStrategy}: LessThanOrEqualToFinalShare (rule S2-a) preempts a workload when
   * the preemptor's share with the incoming workload is at most the target's share without the
   * preempted one; LessThanInitialShare (rule S2-b) when it is below the target's share before.
   */
  public enum PreemptionStrategy implements WireEnum { LESS_THAN_OR_EQUAL_TO_FINAL_SHARE, LESS_THAN_INITIAL_SHARE }
}
