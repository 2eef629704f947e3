package io.gpufleet.queue.api;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.Toleration;
import java.util.List;

/**
 * A ResourceFlavor ({@code apis/kueue/v1beta2/resourceflavor_types.go}): the node labels a
 * workload admitted to it is pinned to, the taints its nodes carry, and tolerations Kueue adds.
 */
public record ResourceFlavor(String name, Labels nodeLabels, List<Taint> nodeTaints, List<Toleration> tolerations) {

  public ResourceFlavor {
    nodeTaints = List.copyOf(nodeTaints);
    tolerations = List.copyOf(tolerations);
  }

  public static ResourceFlavor named(String name) {
    return new ResourceFlavor(name, Labels.EMPTY, List.of(), List.of());
  }

  public ResourceFlavor withNodeLabels(Labels labels) {
    return new ResourceFlavor(name, labels, nodeTaints, tolerations);
  }

  public ResourceFlavor withTaints(List<Taint> taints) {
    return new ResourceFlavor(name, nodeLabels, taints, tolerations);
  }

  public ResourceFlavor withTolerations(List<Toleration> added) {
    return new ResourceFlavor(name, nodeLabels, nodeTaints, added);
  }
}
