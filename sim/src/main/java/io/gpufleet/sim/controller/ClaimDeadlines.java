package io.gpufleet.sim.controller;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.model.collect.PMap;
import io.gpufleet.model.karpenter.NodeClaim;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The reconciler's deadlines of NodeClaims that are not deleting (launch, registration and
 * initialisation timeouts, expiry), kept by the changes between one image's claims and the next
 * ({@link PMap#diff}): each such deadline reads only its NodeClaim, so the next one after a time is
 * a lookup, not a walk over every claim. Deleting claims, whose deadlines read their nodes and the
 * time, are listed for the caller to work out (issue 33 item 7: the week shape reconciles after
 * nearly every change, over claims that mostly did not change).
 */
final class ClaimDeadlines {

  private final AutoscalerSettings settings;
  private PMap<String, NodeClaim> seen;
  /** How many claims have each deadline. */
  private final TreeMap<Instant, Integer> dues = new TreeMap<>();
  private final Map<String, Instant> dueOf = new HashMap<>();
  private final Set<String> deleting = new TreeSet<>();

  ClaimDeadlines(AutoscalerSettings settings) {
    this.settings = settings;
  }

  /** Brings the deadlines to {@code claims}. */
  void update(PMap<String, NodeClaim> claims) {
    if (seen == null) {
      claims.forEach(this::add);
    } else {
      seen.diff(claims, (name, before, after) -> {
        if (before != null) {
          remove(name);
        }
        if (after != null) {
          add(name, after);
        }
      });
    }
    seen = claims;
  }

  /** The earliest deadline of a claim not deleting that is after {@code now}. */
  Optional<Instant> nextAfter(Instant now) {
    return Optional.ofNullable(dues.higherKey(now));
  }

  /** The names of the deleting claims. */
  Set<String> deleting() {
    return deleting;
  }

  /** A claim's deadline while it is not deleting; empty when it has none. */
  Optional<Instant> due(NodeClaim c) {
    if (!c.isLaunched()) {
      return Optional.of(c.created().plus(settings.launchTimeout()));
    } else if (!c.isRegistered()) {
      return Optional.of(c.created().plus(settings.registrationTimeout()));
    } else if (!c.isInitialized()) {
      return settings.initializationTimeout().map(t -> c.registered().get().plus(t));
    }
    return c.expiresAt();
  }

  private void add(String name, NodeClaim c) {
    if (c.isDeleting()) {
      deleting.add(name);
      return;
    }
    Optional<Instant> t = due(c);
    if (t.isPresent()) {
      dueOf.put(name, t.get());
      dues.merge(t.get(), 1, Integer::sum);
    }
  }

  private void remove(String name) {
    deleting.remove(name);
    Instant t = dueOf.remove(name);
    if (t != null) {
      dues.computeIfPresent(t, (k, n) -> n == 1 ? null : n - 1);
    }
  }
}
