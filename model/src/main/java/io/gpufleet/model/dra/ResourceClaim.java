package io.gpufleet.model.dra;

import java.util.Objects;
import java.util.Optional;

/**
 * A namespaced claim, written by a user or instantiated from a template for one pod; {@code status}
 * is the claim's status where the input records one (a dump), empty for a claim written to be allocated.
 */
public record ResourceClaim(String namespace, String name, ResourceClaimSpec spec, Optional<ClaimStatus> status)
    implements DraObject {

  public ResourceClaim {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
  }

  /** A claim with no recorded status. */
  public ResourceClaim(String namespace, String name, ResourceClaimSpec spec) {
    this(namespace, name, spec, Optional.empty());
  }

  public String key() {
    return namespace + "/" + name;
  }

  @Override
  public String kind() {
    return "ResourceClaim";
  }
}
