package io.gpufleet.model.karpenter;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.taint.Taint;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code spec.template} of a NodePool: what every NodeClaim it makes carries. An empty
 * {@code expireAfter} means {@code Never}; an empty {@code terminationGracePeriod} means drains wait
 * for ever (reference §1.1, §1.8).
 */
public record NodeClaimTemplate(
    Labels labels,
    Labels annotations,
    List<NodePoolRequirement> requirements,
    List<Taint> taints,
    List<Taint> startupTaints,
    NodeClassRef nodeClassRef,
    Optional<Duration> expireAfter,
    Optional<Duration> terminationGracePeriod) {

  /** {@code expireAfter}'s default (reference §1.1, {@code K:pkg/apis/v1/nodepool.go}). */
  public static final Duration DEFAULT_EXPIRE_AFTER = Duration.ofHours(720);

  public NodeClaimTemplate {
    labels = labels == null ? Labels.EMPTY : labels;
    annotations = annotations == null ? Labels.EMPTY : annotations;
    requirements = List.copyOf(requirements);
    taints = List.copyOf(taints);
    startupTaints = List.copyOf(startupTaints);
    Objects.requireNonNull(nodeClassRef, "nodeClassRef");
    Objects.requireNonNull(expireAfter, "expireAfter");
    Objects.requireNonNull(terminationGracePeriod, "terminationGracePeriod");
  }

  /** A template with these requirements and every other field at its default. */
  public static NodeClaimTemplate of(NodePoolRequirement... requirements) {
    return new NodeClaimTemplate(Labels.EMPTY, Labels.EMPTY, List.of(requirements), List.of(), List.of(),
        NodeClassRef.DEFAULT_EC2, Optional.of(DEFAULT_EXPIRE_AFTER), Optional.empty());
  }

  public NodeClaimTemplate withRequirements(List<NodePoolRequirement> r) {
    return new NodeClaimTemplate(labels, annotations, r, taints, startupTaints, nodeClassRef, expireAfter,
        terminationGracePeriod);
  }

  public NodeClaimTemplate withTaints(List<Taint> t) {
    return new NodeClaimTemplate(labels, annotations, requirements, t, startupTaints, nodeClassRef, expireAfter,
        terminationGracePeriod);
  }

  public NodeClaimTemplate withStartupTaints(List<Taint> t) {
    return new NodeClaimTemplate(labels, annotations, requirements, taints, t, nodeClassRef, expireAfter,
        terminationGracePeriod);
  }

  public NodeClaimTemplate withLabels(Labels l) {
    return new NodeClaimTemplate(l, annotations, requirements, taints, startupTaints, nodeClassRef, expireAfter,
        terminationGracePeriod);
  }

  public NodeClaimTemplate withExpireAfter(Optional<Duration> e) {
    return new NodeClaimTemplate(labels, annotations, requirements, taints, startupTaints, nodeClassRef, e,
        terminationGracePeriod);
  }

  public NodeClaimTemplate withTerminationGracePeriod(Optional<Duration> tgp) {
    return new NodeClaimTemplate(labels, annotations, requirements, taints, startupTaints, nodeClassRef, expireAfter,
        tgp);
  }
}
