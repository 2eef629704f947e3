package io.gpufleet.model.karpenter;

import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.cloud.Offering;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A NodeClaim: Karpenter's request for one instance, and the lifecycle of the node it becomes
 * (reference §1.3). The lifecycle times are the conditions {@code Launched}, {@code Registered} and
 * {@code Initialized}; {@code drifted} holds the drift reason; {@code deletionRequested} is the
 * deletion timestamp that starts termination.
 *
 * @param requests what the pods and daemons Karpenter planned onto it ask for ({@code spec.resources.requests})
 * @param nodePoolHash the NodePool template hash at launch, for drift
 */
public record NodeClaim(
    String name,
    String nodePool,
    InstanceType instanceType,
    Offering offering,
    Labels labels,
    Labels annotations,
    List<Taint> taints,
    List<Taint> startupTaints,
    ResourceList requests,
    String nodePoolHash,
    Optional<Duration> expireAfter,
    Optional<Duration> terminationGracePeriod,
    Instant created,
    Optional<Instant> launched,
    Optional<Instant> registered,
    Optional<Instant> initialized,
    Optional<String> nodeName,
    Optional<String> drifted,
    Optional<Instant> deletionRequested) {

  public NodeClaim {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(nodePool, "nodePool");
    Objects.requireNonNull(instanceType, "instanceType");
    Objects.requireNonNull(offering, "offering");
    labels = labels == null ? Labels.EMPTY : labels;
    annotations = annotations == null ? Labels.EMPTY : annotations;
    taints = List.copyOf(taints);
    startupTaints = List.copyOf(startupTaints);
    requests = requests == null ? ResourceList.EMPTY : requests;
    Objects.requireNonNull(created, "created");
  }

  public double pricePerHour() {
    return offering.pricePerHour();
  }

  public boolean isLaunched() {
    return launched.isPresent();
  }

  public boolean isRegistered() {
    return registered.isPresent();
  }

  public boolean isInitialized() {
    return initialized.isPresent();
  }

  public boolean isDeleting() {
    return deletionRequested.isPresent();
  }

  /** When expiry deletes it, if it expires (reference §1.5, measured from creation). */
  public Optional<Instant> expiresAt() {
    return expireAfter.map(created::plus);
  }

  public NodeClaim withLaunched(Instant t) {
    return new NodeClaim(name, nodePool, instanceType, offering, labels, annotations, taints, startupTaints, requests,
        nodePoolHash, expireAfter, terminationGracePeriod, created, Optional.of(t), registered, initialized, nodeName,
        drifted, deletionRequested);
  }

  public NodeClaim withRegistered(Instant t, String node) {
    return new NodeClaim(name, nodePool, instanceType, offering, labels, annotations, taints, startupTaints, requests,
        nodePoolHash, expireAfter, terminationGracePeriod, created, launched, Optional.of(t), initialized,
        Optional.of(node), drifted, deletionRequested);
  }

  public NodeClaim withInitialized(Instant t) {
    return new NodeClaim(name, nodePool, instanceType, offering, labels, annotations, taints, startupTaints, requests,
        nodePoolHash, expireAfter, terminationGracePeriod, created, launched, registered, Optional.of(t), nodeName,
        drifted, deletionRequested);
  }

  public NodeClaim withDrifted(Optional<String> reason) {
    return new NodeClaim(name, nodePool, instanceType, offering, labels, annotations, taints, startupTaints, requests,
        nodePoolHash, expireAfter, terminationGracePeriod, created, launched, registered, initialized, nodeName,
        reason, deletionRequested);
  }

  public NodeClaim withDeletionRequested(Instant t) {
    return new NodeClaim(name, nodePool, instanceType, offering, labels, annotations, taints, startupTaints, requests,
        nodePoolHash, expireAfter, terminationGracePeriod, created, launched, registered, initialized, nodeName,
        drifted, Optional.of(t));
  }

  public NodeClaim withExpiry(Optional<Duration> newExpireAfter, Optional<Duration> newTgp) {
    return new NodeClaim(name, nodePool, instanceType, offering, labels, annotations, taints, startupTaints, requests,
        nodePoolHash, newExpireAfter, newTgp, created, launched, registered, initialized, nodeName, drifted,
        deletionRequested);
  }

  public NodeClaim withAnnotations(Labels newAnnotations) {
    return new NodeClaim(name, nodePool, instanceType, offering, labels, newAnnotations, taints, startupTaints,
        requests, nodePoolHash, expireAfter, terminationGracePeriod, created, launched, registered, initialized,
        nodeName, drifted, deletionRequested);
  }

  public NodeClaim withLabels(Labels newLabels) {
    return new NodeClaim(name, nodePool, instanceType, offering, newLabels, annotations, taints, startupTaints,
        requests, nodePoolHash, expireAfter, terminationGracePeriod, created, launched, registered, initialized,
        nodeName, drifted, deletionRequested);
  }
}
