package io.gpufleet.k8s;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Which cluster to read and how much of it: a kubeconfig file, the context in it (its
 * {@code current-context} when empty) and the namespace that namespaced objects come from (all
 * namespaces when empty). Cluster-scoped objects (nodes, priority classes, Karpenter's) are read
 * whatever the namespace.
 */
public record ClusterSource(Path kubeconfig, Optional<String> context, Optional<String> namespace) {

  public ClusterSource {
    Objects.requireNonNull(kubeconfig, "kubeconfig");
    context = context.filter(c -> !c.isBlank());
    namespace = namespace.filter(n -> !n.isBlank());
  }
}
