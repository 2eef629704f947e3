package io.gpufleet.queue.api;

import java.util.Optional;

/**
 * When the flavor search stops ({@code spec.flavorFungibility}): {@code whenCanBorrow} defaults to
 * MayStopSearch and {@code whenCanPreempt} to TryNextFlavor (v1beta2 kubebuilder defaults);
 * {@code preference} to BorrowingOverPreemption.
 */
public record FlavorFungibility(Policy whenCanBorrow, Policy whenCanPreempt, Optional<Preference> preference) {

  public static final FlavorFungibility DEFAULT =
      new FlavorFungibility(Policy.MAY_STOP_SEARCH, Policy.TRY_NEXT_FLAVOR, Optional.empty());

  public enum Policy {
    MAY_STOP_SEARCH("MayStopSearch"),
    TRY_NEXT_FLAVOR("TryNextFlavor");

    private final String wire;

    Policy(String wire) {
      this.wire = wire;
    }

    public String wire() {
      return wire;
    }
  }

  public enum Preference {
    BORROWING_OVER_PREEMPTION("BorrowingOverPreemption"),
    PREEMPTION_OVER_BORROWING("PreemptionOverBorrowing");

    private final String wire;

    Preference(String wire) {
      this.wire = wire;
    }

    public String wire() {
      return wire;
    }
  }
}
