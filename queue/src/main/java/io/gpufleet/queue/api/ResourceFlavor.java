package io.gpufleet.queue.api;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.Toleration;
import java.util.List;
import java.util.Optional;

/**
 * A ResourceFlavor ({@code apis/kueue/v1beta2/resourceflavor_types.go}): the node labels a
 * workload admitted to it is pinned to, the taints its nodes carry, tolerations Kueue adds, and
 * the Topology of a TAS flavor ({@code spec.topologyName}).
 */
public record ResourceFlavor(String name, Labels nodeLabels, List<Taint> nodeTaints, List<Toleration> tolerations,
    Optional<String> topologyName) {

  public ResourceFlavor {
    nodeTaints = List.copyOf(nodeTaints);
    tolerations = List.copyOf(tolerations);
  }

  public ResourceFlavor(String name, Labels nodeLabels, List<Taint> nodeTaints, List<Toleration> tolerations) {
    this(name, nodeLabels, nodeTaints, tolerations, Optional.empty());
  }

  public static ResourceFlavor named(String name) {
    return new ResourceFlavor(name, Labels.EMPTY, List.of(), List.of());
  }

  public ResourceFlavor withNodeLabels(Labels labels) {
    return new ResourceFlavor(name, labels, nodeTaints, tolerations, topologyName);
  }

  public ResourceFlavor withTaints(List<Taint> taints) {
    return new ResourceFlavor(name, nodeLabels, taints, tolerations, topologyName);
  }

  public ResourceFlavor withTolerations(List<Toleration> added) {
    return new ResourceFlavor(name, nodeLabels, nodeTaints, added, topologyName);
  }

  /** This flavor as a TAS flavor of {@code topology}. */
  public ResourceFlavor withTopology(String topology) {
    return new ResourceFlavor(name, nodeLabels, nodeTaints, tolerations, Optional.of(topology));
  }
}
