package io.gpufleet.sim.controller;

import io.gpufleet.engine.workload.PodNames;
import io.gpufleet.model.dra.PodResourceClaim;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.pod.Pod;
import java.util.random.RandomGenerator;

/**
 * kube-controller-manager's resource claim controller ({@code pkg/controller/resourceclaim/controller.go}):
 * when a pod names a ResourceClaimTemplate it makes the pod's own claim from the template, owned by
 * the pod. Taking a gone pod out of {@code reservedFor} and the deletion of its claims happen where
 * the pod is removed ({@link ApiServer#removePod}).
 */
final class ResourceClaimController {

  /** {@code handleClaim}'s {@code maxBaseLen}: room for a hyphen and five random characters in 63. */
  private static final int MAX_BASE_LEN = 57;
  /** {@code k8s.io/apiserver/pkg/storage/names}: {@code maxGeneratedNameLength = 63 - 5}. */
  private static final int MAX_GENERATED_NAME_LENGTH = 58;
  private static final int RANDOM_LENGTH = 5;

  private final ApiServer api;
  private final RandomGenerator names;

  ResourceClaimController(ApiServer api, RandomGenerator names) {
    this.api = api;
    this.names = names;
    api.watch(ClusterEvent.PodCreated.class, e -> {
      if (!e.pod().spec().resourceClaims().isEmpty()) {
        api.state().pod(e.pod().key()).ifPresent(p -> made(p.pod()));
      }
    });
  }

  /** One claim per template entry whose template exists; a pod naming a missing template waits. */
  private void made(Pod pod) {
    if (pod.spec().resourceClaims().isEmpty()) {
      return;
    }
    api.claimsUsed();
    String ns = pod.meta().namespace();
    for (PodResourceClaim c : pod.spec().resourceClaims()) {
      if (c instanceof PodResourceClaim.FromTemplate t) {
        api.state().dra().written().template(ns, t.resourceClaimTemplateName()).ifPresent(template -> {
          String name;
          do {
            name = generateName(pod.name(), t.name()) + PodNames.suffix(names, RANDOM_LENGTH);
          } while (api.state().dra().claim(ObjectMeta.key(ns, name)).isPresent());
          api.claimMade(pod.key(), t.name(), new ResourceClaim(ns, name, template.spec()));
        });
      }
    }
  }

  /**
   * The claim's {@code generateName}: {@code <pod>-<entry>-}, or when longer than 57 characters both
   * names cut in proportion to their lengths and joined by one hyphen (upstream drops the trailing
   * one there); the API server cuts it to 58 before appending its random characters.
   */
  static String generateName(String pod, String entry) {
    String base = pod + "-" + entry + "-";
    if (base.length() > MAX_BASE_LEN) {
      base = pod.substring(0, pod.length() * MAX_BASE_LEN / base.length()) + "-"
          + entry.substring(0, entry.length() * MAX_BASE_LEN / base.length());
    }
    return base.length() > MAX_GENERATED_NAME_LENGTH ? base.substring(0, MAX_GENERATED_NAME_LENGTH) : base;
  }
}
