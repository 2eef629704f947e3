/**
 * Object metadata every Kubernetes object carries: name, namespace, labels, annotations and the
 * owning controller; and the Kubernetes release the twin follows.
 */
package io.gpufleet.model.meta;
