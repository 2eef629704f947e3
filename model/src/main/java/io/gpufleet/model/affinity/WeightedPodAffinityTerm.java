package io.gpufleet.model.affinity;

/** A preferred pod (anti-)affinity term with its weight (1..100). */
public record WeightedPodAffinityTerm(int weight, PodAffinityTerm term) {}
