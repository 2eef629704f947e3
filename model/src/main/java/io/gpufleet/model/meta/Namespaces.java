package io.gpufleet.model.meta;

import io.gpufleet.model.label.Labels;
import java.util.Map;
import java.util.TreeMap;

/**
 * The namespaces a cluster holds and their labels, as a pod affinity term's {@code namespaceSelector}
 * matches them. A namespace with no object here (the twin reads manifests, not a cluster, and pods
 * often name namespaces created elsewhere) carries only the label the API server puts on every
 * namespace.
 */
public record Namespaces(Map<String, Labels> labels) {

  /**
   * {@code kubernetes.io/metadata.name}, set to the namespace's name on every namespace by the API
   * server (kubernetes/kubernetes pkg/apis/core/v1/defaults.go, {@code SetDefaults_Namespace}, kept
   * in step with pkg/registry/core/namespace/strategy.go's {@code Canonicalize}; {@code v1.LabelMetadataName}).
   */
  public static final String NAME_LABEL = "kubernetes.io/metadata.name";

  /** No namespace objects: every namespace carries just its name label. */
  public static final Namespaces NONE = new Namespaces(Map.of());

  public Namespaces {
    labels = Map.copyOf(new TreeMap<>(labels));
  }

  /** A namespace's labels as the API server stores them: its own, and its name label (which it always sets). */
  public Labels of(String namespace) {
    return labels.getOrDefault(namespace, Labels.EMPTY).with(NAME_LABEL, namespace);
  }

  /** These namespaces and {@code name} with {@code own} labels (a later object of one name replaces it). */
  public Namespaces with(String name, Labels own) {
    Map<String, Labels> m = new TreeMap<>(labels);
    m.put(name, own);
    return new Namespaces(m);
  }
}
