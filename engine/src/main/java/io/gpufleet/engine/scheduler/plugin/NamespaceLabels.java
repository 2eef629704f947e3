package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.model.label.Labels;

/**
 * The labels of a namespace, which a pod affinity term's namespaceSelector matches. The caller knows
 * the namespaces; the default knows only the label the API server puts on every namespace.
 */
@FunctionalInterface
public interface NamespaceLabels {

  /** {@code kubernetes.io/metadata.name}, set on every namespace by the API server (NamespaceDefaultLabelName). */
  String NAME_LABEL = "kubernetes.io/metadata.name";

  /** Every namespace carries just its name label. */
  NamespaceLabels NAME_ONLY = namespace -> Labels.of(NAME_LABEL, namespace);

  Labels of(String namespace);
}
