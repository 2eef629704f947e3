package io.gpufleet.sim.controller;

import io.gpufleet.engine.random.SeededStreams;
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
    this.names = SeededStreams.stream(seed, SeededStreams.NAMES);
    this.tieBreaks = SeededStreams.stream(seed, SeededStreams.TIE_BREAKS);
    this.provisioning = SeededStreams.stream(seed, "provisioning");
    this.disruption = SeededStreams.stream(seed, "disruption");
    this.claimNames = SeededStreams.stream(seed, "resource-claims");
    this.extendedResourceClaimNames = SeededStreams.stream(seed, "extended-resource-claims");
    this.kueueRequeueJitter = SeededStreams.stream(seed, "kueue-requeue-jitter");
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
    return SeededStreams.stream(seed, "interruptions/" + claim);
  }
}
