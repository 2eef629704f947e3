package io.gpufleet.queue.api;

import java.util.List;

/**
 * A Topology ({@code apis/kueue/v1beta2/topology_types.go}): the node labels of its levels, highest
 * first; {@code kubernetes.io/hostname} may only be the lowest.
 */
public record Topology(String name, List<String> levels) {

  /** {@code corev1.LabelHostname}. */
  public static final String HOSTNAME = "kubernetes.io/hostname";

  public Topology {
    levels = List.copyOf(levels);
  }

  /** Whether the lowest level is the node itself ({@code isLowestLevelNode}). */
  public boolean lowestLevelIsNode() {
    return !levels.isEmpty() && levels.getLast().equals(HOSTNAME);
  }
}
