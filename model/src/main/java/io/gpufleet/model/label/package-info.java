/**
 * Labels, label selectors and requirements with their operators: the matching vocabulary every
 * selector in Kubernetes shares. Immutable and iterated in key order so that whatever prints
 * them is deterministic.
 */
package io.gpufleet.model.label;
