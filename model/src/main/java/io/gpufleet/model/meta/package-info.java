/**
 * Object metadata every Kubernetes object carries: name, namespace, labels, annotations and the
 * owning controller.
 */
package io.gpufleet.model.meta;
