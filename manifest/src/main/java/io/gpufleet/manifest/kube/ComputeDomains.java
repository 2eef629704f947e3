package io.gpufleet.manifest.kube;

import java.util.Optional;

/**
 * NVIDIA's ComputeDomain ({@code resource.nvidia.com}, NVIDIA/k8s-dra-driver-gpu's compute-domain
 * controller and kubelet plugin): a set of nodes sharing multi-node NVLink through IMEX. The driver
 * creates the ResourceClaimTemplate named in {@code spec.channel.resourceClaimTemplate.name} and runs
 * IMEX daemons on the nodes its pods land on. gpufleet models neither, so it says so at the object's
 * line rather than skip it as an unused kind.
 */
public final class ComputeDomains {
  private ComputeDomains() {}

  /** The warning for {@code other} when it is a ComputeDomain; empty for any other kind. */
  public static Optional<String> warning(KubeObject.OtherObject other) {
    if (!other.kind().equals("ComputeDomain") || !other.apiVersion().startsWith("resource.nvidia.com/")) {
      return Optional.empty();
    }
    Optional<String> template = other.cursor().get("spec").flatMap(s -> s.get("channel"))
        .flatMap(c -> c.get("resourceClaimTemplate")).flatMap(t -> t.optString("name"));
    return Optional.of(other.apiVersion() + " ComputeDomain \"" + other.name() + "\" is not modelled by gpufleet: "
        + "NVIDIA's DRA driver would create its channel's ResourceClaimTemplate"
        + template.map(n -> " \"" + n + "\"").orElse("") + " and run IMEX daemons for multi-node NVLink on the "
        + "nodes its pods use; gpufleet does neither, so a pod using that template stays Pending here (its claim "
        + "is never created), where the cluster would run it; skipped");
  }
}
