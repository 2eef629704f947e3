package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.autoscaler.requirement.Requirements;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.model.pod.PodSpec;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What opening a new NodeClaim of one NodePool for a pod gives ({@link ProvisioningRound}'s newClaim,
 * for a pod without DRA claims and a NodePool without limits): the message that refuses it, or the
 * claim's requirements and instance types after that first pod. It reads only the NodePool's template,
 * the pod's spec and requirement variant, the offerings and the time, so it is kept, by template, spec
 * and variant, while the offerings are the same object and the time tells the same offerings out of
 * stock: the time is read only against each offering's {@code unavailableUntil}. Consolidation
 * runs a round per candidate over the same pending pods, offerings and time, and each round opened the
 * same claims for them anew. A shortcut of the twin's, not a step of Karpenter's: a round with it plans
 * what a round without it plans (FirstClaimsTest).
 */
final class FirstClaims {

  /**
   * One NodePool's answer: {@code error}, or the claim's {@code requirements} and {@code options}; and
   * whether the attempt drew a draft sequence number (the ones refused before a draft was made do not).
   */
  record First(String error, boolean drewSequence, Requirements requirements, List<TypeOption> options) {}

  private OfferingAvailability offerings;
  private Instant now;
  private final Map<Key, First[]> kept = new HashMap<>();

  /** A spec and one of its requirement variants, by identity: specs and variants are immutable values. */
  private record Key(PodSpec spec, Requirements variant) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.spec == spec && k.variant == variant;
    }

    @Override
    public int hashCode() {
      return 31 * System.identityHashCode(spec) + System.identityHashCode(variant);
    }
  }

  /**
   * Starts a round over these offerings at this time: what was kept for other offerings, or for a time
   * at which other offerings were out of stock, goes.
   */
  void begin(OfferingAvailability offerings, Instant now) {
    if (offerings == this.offerings && now.equals(this.now)) {
      return;
    }
    if (offerings != this.offerings || !sameStock(offerings, this.now, now)) {
      kept.clear();
      this.offerings = offerings;
    }
    this.now = now;
  }

  /**
   * Whether the same offerings are out of stock at both times: an offering is out of stock while the
   * time is before its {@code unavailableUntil} ({@link OfferingAvailability#isAvailable}).
   */
  static boolean sameStock(OfferingAvailability offerings, Instant a, Instant b) {
    for (Instant until : offerings.unavailableUntil().values()) {
      if (a.isBefore(until) != b.isBefore(until)) {
        return false;
      }
    }
    return true;
  }

  /** The answer of the {@code template}-th NodePool of {@code templates} for this spec and variant. */
  First get(int template, int templates, PodSpec spec, Requirements variant, Supplier<First> compute) {
    Key key = new Key(spec, variant);
    First[] byTemplate = kept.get(key);
    if (byTemplate == null) {
      byTemplate = new First[templates];
      kept.put(key, byTemplate);
    }
    First f = byTemplate[template];
    if (f == null) {
      f = compute.get();
      byTemplate[template] = f;
    }
    return f;
  }
}
