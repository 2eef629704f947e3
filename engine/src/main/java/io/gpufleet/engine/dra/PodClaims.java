package io.gpufleet.engine.dra;

import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.PodResourceClaim;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.pod.Pod;
import java.util.ArrayList;
import java.util.List;

/**
 * A pod's claims: the named ones looked up in its namespace, one instantiated per template entry as
 * the resource claim controller does. Upstream names such a claim {@code <pod>-<entry>-<random>}
 * ({@code generateName}); here it is {@code <pod>-<entry>}, so runs are repeatable.
 */
public final class PodClaims {
  private PodClaims() {}

  /** The claims, or why the pod must wait for one (upstream's PreFilter reason). */
  public sealed interface Resolution {
    record Claims(List<ResourceClaim> claims) implements Resolution {
      public Claims {
        claims = List.copyOf(claims);
      }
    }

    record Missing(String reason) implements Resolution {}
  }

  public static Resolution resolve(Pod pod, DraObjects dra) {
    String ns = pod.meta().namespace();
    List<ResourceClaim> out = new ArrayList<>();
    for (PodResourceClaim c : pod.spec().resourceClaims()) {
      switch (c) {
        case PodResourceClaim.Named n -> {
          var claim = dra.claim(ns, n.resourceClaimName());
          if (claim.isEmpty()) {
            // The lister's NotFound error, which foreachPodResourceClaim returns as it is.
            return new Resolution.Missing("resourceclaim.resource.k8s.io \"" + n.resourceClaimName() + "\" not found");
          }
          out.add(claim.get());
        }
        case PodResourceClaim.FromTemplate t -> {
          var template = dra.template(ns, t.resourceClaimTemplateName());
          if (template.isEmpty()) {
            // The controller makes no claim; the pod waits with resourceclaim.Name's ErrClaimNotFound
            // (dynamicresources_test.go, "missing-claim").
            return new Resolution.Missing("pod \"" + pod.key() + "\": ResourceClaim not created yet");
          }
          out.add(new ResourceClaim(ns, instanceName(pod, t), template.get().spec()));
        }
      }
    }
    return new Resolution.Claims(out);
  }

  static String instanceName(Pod pod, PodResourceClaim.FromTemplate t) {
    return pod.name() + "-" + t.name();
  }
}
