package io.gpufleet.queue.api;

import java.util.List;

/** A flavor of a resource group with a quota for each covered resource ({@code FlavorQuotas}). */
public record FlavorQuotas(String name, List<ResourceQuota> resources) {

  public FlavorQuotas {
    resources = List.copyOf(resources);
  }

  public static FlavorQuotas of(String name, ResourceQuota... resources) {
    return new FlavorQuotas(name, List.of(resources));
  }
}
