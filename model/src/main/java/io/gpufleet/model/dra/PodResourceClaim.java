package io.gpufleet.model.dra;

import java.util.Objects;

/**
 * A pod's {@code spec.resourceClaims[]} entry: a name its containers use, and either an existing
 * claim (shared by every pod naming it) or a template instantiated for this pod.
 */
public sealed interface PodResourceClaim {

  String name();

  record Named(String name, String resourceClaimName) implements PodResourceClaim {
    public Named {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(resourceClaimName, "resourceClaimName");
    }
  }

  record FromTemplate(String name, String resourceClaimTemplateName) implements PodResourceClaim {
    public FromTemplate {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(resourceClaimTemplateName, "resourceClaimTemplateName");
    }
  }
}
