package io.gpufleet.engine.dra;

import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.PodResourceClaim;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.dra.ResourceClaimTemplate;
import io.gpufleet.model.pod.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A pod's claims: the named ones looked up in its namespace, one per template entry as the resource
 * claim controller makes it. Where that controller runs (the simulator) the claim is the one it
 * created, named {@code <pod>-<entry>-<random>}; a one-shot placement ({@code schedule}) has no
 * controller and instantiates the template as {@code <pod>-<entry>}, so its runs are repeatable.
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

  /** Where a template entry's claim comes from: the claim made for this pod, if one was made. */
  @FunctionalInterface
  public interface TemplateClaims {
    Optional<ResourceClaim> claimFor(Pod pod, PodResourceClaim.FromTemplate entry, ResourceClaimTemplate template);

    /** No controller: the template instantiated on the spot as {@code <pod>-<entry>}. */
    TemplateClaims INSTANTIATED = (pod, entry, template) -> Optional.of(
        new ResourceClaim(pod.meta().namespace(), pod.name() + "-" + entry.name(), template.spec()));
  }

  public static Resolution resolve(Pod pod, DraObjects dra) {
    return resolve(pod, dra, TemplateClaims.INSTANTIATED);
  }

  public static Resolution resolve(Pod pod, DraObjects dra, TemplateClaims made) {
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
          var claim = dra.template(ns, t.resourceClaimTemplateName()).flatMap(template -> made.claimFor(pod, t, template));
          if (claim.isEmpty()) {
            // The controller made no claim (no such template, or not yet); the pod waits with
            // resourceclaim.Name's ErrClaimNotFound (dynamicresources_test.go, "missing-claim").
            return new Resolution.Missing("pod \"" + pod.key() + "\": ResourceClaim not created yet");
          }
          out.add(claim.get());
        }
      }
    }
    return new Resolution.Claims(out);
  }
}
