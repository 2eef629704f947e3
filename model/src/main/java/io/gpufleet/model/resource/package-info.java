/**
 * Kubernetes resource quantities, parsed and printed exactly as the API server does, and
 * resource lists keyed by resource name. The units every other package computes in; nothing here
 * knows what a node or a pod is.
 */
package io.gpufleet.model.resource;
