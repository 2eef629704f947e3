package io.gpufleet.model.meta;

import io.gpufleet.model.label.Labels;
import java.util.Objects;
import java.util.Optional;

/** Name, namespace, labels, annotations and owner of a Kubernetes object. */
public record ObjectMeta(
    String name, String namespace, Labels labels, Labels annotations, Optional<OwnerReference> owner) {

  public static final String DEFAULT_NAMESPACE = "default";

  public ObjectMeta {
    Objects.requireNonNull(name, "name");
    namespace = namespace == null || namespace.isEmpty() ? DEFAULT_NAMESPACE : namespace;
    labels = labels == null ? Labels.EMPTY : labels;
    annotations = annotations == null ? Labels.EMPTY : annotations;
    owner = owner == null ? Optional.empty() : owner;
  }

  public static ObjectMeta named(String name) {
    return new ObjectMeta(name, DEFAULT_NAMESPACE, Labels.EMPTY, Labels.EMPTY, Optional.empty());
  }

  /** Cluster-scoped objects (nodes) have no namespace; we keep the default and ignore it. */
  public static ObjectMeta clusterScoped(String name, Labels labels, Labels annotations) {
    return new ObjectMeta(name, "", labels, annotations, Optional.empty());
  }

  public ObjectMeta withName(String newName) {
    return new ObjectMeta(newName, namespace, labels, annotations, owner);
  }

  public ObjectMeta withLabels(Labels newLabels) {
    return new ObjectMeta(name, namespace, newLabels, annotations, owner);
  }

  public ObjectMeta withAnnotations(Labels newAnnotations) {
    return new ObjectMeta(name, namespace, labels, newAnnotations, owner);
  }

  public ObjectMeta withOwner(OwnerReference ref) {
    return new ObjectMeta(name, namespace, labels, annotations, Optional.of(ref));
  }

  /** {@code namespace/name}. */
  public String key() {
    return key(namespace, name);
  }

  /** {@code namespace/name}: the key of a namespaced object (a pod, a PDB) with these parts. */
  public static String key(String namespace, String name) {
    return namespace + "/" + name;
  }
}
