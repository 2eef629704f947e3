package io.gpufleet.sim.controller;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * The run's random streams, one per purpose, each derived from the seed and the purpose's name
 * alone. A draw for one purpose never shifts another's: two runs that differ only in a policy (say,
 * how Karpenter consolidates) name their pods, break scheduling ties and provision alike until the
 * policy itself makes them differ, and a NodeClaim's spot interruption depends only on the seed and
 * the claim's name, not on how many draws anything else made before it launched.
 */
final class RandomStreams {

  private final long seed;
  private final RandomGenerator names;
  private final RandomGenerator tieBreaks;
  private final RandomGenerator provisioning;
  private final RandomGenerator disruption;
  private final RandomGenerator claimNames;
  private final RandomGenerator extendedResourceClaimNames;
  private final RandomGenerator kueueRequeueJitter;

  RandomStreams(long seed) {
    this.seed = seed;
    this.names = stream(seed, "names");
    this.tieBreaks = stream(seed, "tie-breaks");
    this.provisioning = stream(seed, "provisioning");
    this.disruption = stream(seed, "disruption");
    this.claimNames = stream(seed, "resource-claims");
    this.extendedResourceClaimNames = stream(seed, "extended-resource-claims");
    this.kueueRequeueJitter = stream(seed, "kueue-requeue-jitter");
  }

  /** The random suffixes of the ResourceClaims the resource claim controller makes from templates. */
  RandomGenerator claimNames() {
    return claimNames;
  }

  /** The random suffixes of the claims kube-scheduler makes for pods' DRA-backed extended resources. */
  RandomGenerator extendedResourceClaimNames() {
    return extendedResourceClaimNames;
  }

  /** The jitter of Kueue's requeue backoff after a PodsReady timeout ({@code wait.Backoff}'s rand.Float64). */
  RandomGenerator kueueRequeueJitter() {
    return kueueRequeueJitter;
  }

  /** Pod name suffixes (the workload controllers' generateName). */
  RandomGenerator names() {
    return names;
  }

  /** kube-scheduler's choice among equally scored nodes. */
  RandomGenerator tieBreaks() {
    return tieBreaks;
  }

  /** The provisioner's draws: the names of the NodeClaims it launches for pending pods. */
  RandomGenerator provisioning() {
    return provisioning;
  }

  /** The disruption controller's draws: command ids and the names of replacement NodeClaims. */
  RandomGenerator disruption() {
    return disruption;
  }

  /** A fresh stream for one NodeClaim's spot interruption: the seed and the claim's name decide it. */
  RandomGenerator interruptions(String claim) {
    return stream(seed, "interruptions/" + claim);
  }

  /** The seed mixed with a 64-bit FNV-1a hash of the purpose (stable across JVMs, unlike identity hashes). */
  static SplittableRandom stream(long seed, String purpose) {
    long h = 0xcbf29ce484222325L;
    for (byte b : purpose.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    // One draw through SplittableRandom's mixer spreads seeds that differ in few bits.
    return new SplittableRandom(new SplittableRandom(seed ^ h).nextLong());
  }
}
