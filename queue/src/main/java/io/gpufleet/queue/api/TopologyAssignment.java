package io.gpufleet.queue.api;

import java.util.List;

/**
 * Where a pod set's pods go ({@code TopologyAssignment}): the levels its domains name (only
 * {@code kubernetes.io/hostname} when that is the lowest level) and, per domain, its values on those
 * levels and how many pods it takes, in the order Kueue lists them.
 */
public record TopologyAssignment(List<String> levels, List<Domain> domains) {

  public TopologyAssignment {
    levels = List.copyOf(levels);
    domains = List.copyOf(domains);
  }

  public record Domain(List<String> values, int count) {
    public Domain {
      values = List.copyOf(values);
    }
  }
}
