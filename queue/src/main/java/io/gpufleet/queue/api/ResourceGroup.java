package io.gpufleet.queue.api;

import io.gpufleet.model.resource.ResourceName;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Resources that take their flavor together, and the flavors to try for them, in order
 * ({@code ResourceGroup}: {@code coveredResources}, {@code flavors}).
 */
public record ResourceGroup(List<ResourceName> coveredResources, List<FlavorQuotas> flavors) {

  public ResourceGroup {
    coveredResources = List.copyOf(coveredResources);
    flavors = List.copyOf(flavors);
  }

  /** A group covering the resources its flavors name, as Kueue's test wrapper {@code ResourceGroup(...)} builds it. */
  public static ResourceGroup of(FlavorQuotas... flavors) {
    LinkedHashSet<ResourceName> covered = new LinkedHashSet<>();
    for (FlavorQuotas f : flavors) {
      for (ResourceQuota q : f.resources()) {
        covered.add(q.name());
      }
    }
    return new ResourceGroup(new ArrayList<>(covered), List.of(flavors));
  }

  public List<String> flavorNames() {
    return flavors.stream().map(FlavorQuotas::name).toList();
  }
}
