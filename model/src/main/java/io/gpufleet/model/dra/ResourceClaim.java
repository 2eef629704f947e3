package io.gpufleet.model.dra;

import java.util.Objects;

/** A namespaced claim, written by a user or instantiated from a template for one pod. */
public record ResourceClaim(String namespace, String name, ResourceClaimSpec spec) implements DraObject {

  public ResourceClaim {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(spec, "spec");
  }

  public String key() {
    return namespace + "/" + name;
  }

  @Override
  public String kind() {
    return "ResourceClaim";
  }
}
