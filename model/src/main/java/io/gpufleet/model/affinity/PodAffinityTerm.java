package io.gpufleet.model.affinity;

import io.gpufleet.model.label.LabelSelector;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@code PodAffinityTerm}: the pods its selector matches in the namespaces it names (or that its
 * namespaceSelector matches; neither given: the pod's own namespace), counted per value of the
 * topology key on their nodes. An absent labelSelector or namespaceSelector selects nothing; an empty
 * one selects everything, as in the API.
 */
public record PodAffinityTerm(
    Optional<LabelSelector> labelSelector,
    List<String> namespaces,
    String topologyKey,
    Optional<LabelSelector> namespaceSelector,
    List<String> matchLabelKeys,
    List<String> mismatchLabelKeys) {

  public PodAffinityTerm {
    labelSelector = labelSelector == null ? Optional.empty() : labelSelector;
    namespaces = List.copyOf(namespaces);
    Objects.requireNonNull(topologyKey, "topologyKey");
    namespaceSelector = namespaceSelector == null ? Optional.empty() : namespaceSelector;
    matchLabelKeys = List.copyOf(matchLabelKeys);
    mismatchLabelKeys = List.copyOf(mismatchLabelKeys);
  }

  /** A term over the pod's own namespace. */
  public static PodAffinityTerm of(LabelSelector selector, String topologyKey) {
    return new PodAffinityTerm(Optional.ofNullable(selector), List.of(), topologyKey, Optional.empty(), List.of(),
        List.of());
  }

  public PodAffinityTerm withNamespaces(List<String> names, LabelSelector selector) {
    return new PodAffinityTerm(labelSelector, names, topologyKey, Optional.ofNullable(selector), matchLabelKeys,
        mismatchLabelKeys);
  }
}
