package io.gpufleet.model.pod;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Toleration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@code node.k8s.io/v1 RuntimeClass}: the parts the RuntimeClass admission plugin applies to a pod
 * naming it. {@code overhead} is {@code overhead.podFixed}, absent when the class declares no
 * overhead (upstream's nil, which leaves the pod's own overhead alone); {@code nodeSelector} and
 * {@code tolerations} are {@code scheduling}'s.
 */
public record RuntimeClass(String name, String handler, Optional<ResourceList> overhead, Labels nodeSelector,
    List<Toleration> tolerations) {

  public RuntimeClass {
    Objects.requireNonNull(name, "name");
    handler = handler == null ? "" : handler;
    overhead = overhead == null ? Optional.empty() : overhead;
    nodeSelector = nodeSelector == null ? Labels.EMPTY : nodeSelector;
    tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
  }
}
