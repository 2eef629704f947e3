package io.gpufleet.queue.quota;

import io.gpufleet.model.resource.ResourceName;

/** A resource in a flavor, the unit quota is kept in ({@code resources.FlavorResource}). */
public record FlavorResource(String flavor, ResourceName resource) implements Comparable<FlavorResource> {

  public static FlavorResource of(String flavor, String resource) {
    return new FlavorResource(flavor, ResourceName.of(resource));
  }

  @Override
  public int compareTo(FlavorResource o) {
    int c = flavor.compareTo(o.flavor);
    return c != 0 ? c : resource.toString().compareTo(o.resource.toString());
  }

  @Override
  public String toString() {
    return "{" + flavor + ", " + resource + "}";
  }
}
