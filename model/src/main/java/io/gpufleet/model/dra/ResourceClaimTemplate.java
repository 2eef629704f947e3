package io.gpufleet.model.dra;

import java.util.Objects;

/** A template from which the resource claim controller makes one claim per pod that names it. */
public record ResourceClaimTemplate(String namespace, String name, ResourceClaimSpec spec) implements DraObject {

  public ResourceClaimTemplate {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(spec, "spec");
  }

  @Override
  public String kind() {
    return "ResourceClaimTemplate";
  }
}
