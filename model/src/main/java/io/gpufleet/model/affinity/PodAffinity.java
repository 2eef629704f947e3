package io.gpufleet.model.affinity;

import java.util.List;

/**
 * A pod's {@code podAffinity} or {@code podAntiAffinity}: terms that must hold
 * ({@code requiredDuringSchedulingIgnoredDuringExecution}) and weighted ones that should.
 */
public record PodAffinity(List<PodAffinityTerm> required, List<WeightedPodAffinityTerm> preferred) {

  public static final PodAffinity NONE = new PodAffinity(List.of(), List.of());

  public PodAffinity {
    required = List.copyOf(required);
    preferred = List.copyOf(preferred);
  }

  public boolean isEmpty() {
    return required.isEmpty() && preferred.isEmpty();
  }
}
