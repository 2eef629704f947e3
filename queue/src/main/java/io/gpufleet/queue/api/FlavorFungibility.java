package io.gpufleet.queue.api;

import io.gpufleet.model.wire.WireEnum;
import java.util.Optional;

/**
 * When the flavor search stops ({@code spec.flavorFungibility}): {@code whenCanBorrow} defaults to
 * MayStopSearch and {@code whenCanPreempt} to TryNextFlavor (v1beta2 kubebuilder defaults);
 * {@code preference} to BorrowingOverPreemption.
 */
public record FlavorFungibility(Policy whenCanBorrow, Policy whenCanPreempt, Optional<Preference> preference) {

  public static final FlavorFungibility DEFAULT =
      new FlavorFungibility(Policy.MAY_STOP_SEARCH, Policy.TRY_NEXT_FLAVOR, Optional.empty());

  public enum Policy implements WireEnum { MAY_STOP_SEARCH, TRY_NEXT_FLAVOR }

  public enum Preference implements WireEnum { BORROWING_OVER_PREEMPTION, PREEMPTION_OVER_BORROWING }
}
