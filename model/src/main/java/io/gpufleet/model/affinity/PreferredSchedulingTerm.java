package io.gpufleet.model.affinity;

/** A weighted preference (weight 1..100) for nodes matching a term. */
public record PreferredSchedulingTerm(int weight, NodeSelectorTerm preference) {}
