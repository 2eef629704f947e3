package io.gpufleet.manifest.apiserver;

import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.PodSpec;
import java.util.List;

/**
 * The API server's defaulting of a pod's resources: a container (app or init) with a limit and no
 * request for a resource gets the limit as its request. kubernetes/kubernetes
 * pkg/apis/core/v1/defaults.go, {@code SetDefaults_Pod} ("If limits are specified, but requests are
 * not, default requests to limits"). The rule itself is {@link Container#effectiveRequests}, which the
 * scheduler's request sums also apply to pods made without this chain; here it is written into the
 * pod, as the API server stores it. Defaulting is not an admission plugin: it always runs.
 */
final class PodDefaults {
  private PodDefaults() {}

  static PodSpec apply(PodSpec spec) {
    List<Container> apps = defaulted(spec.containers());
    List<Container> inits = defaulted(spec.initContainers());
    if (apps.equals(spec.containers()) && inits.equals(spec.initContainers())) {
      return spec;
    }
    return new PodSpec(apps, inits, spec.overhead(), spec.nodeSelector(), spec.nodeAffinity(), spec.tolerations(),
        spec.nodeName(), spec.priority(), spec.priorityClassName(), spec.preemptionPolicy(),
        spec.terminationGracePeriodSeconds(), spec.schedulerName(), spec.topologySpreadConstraints(),
        spec.podAffinity(), spec.podAntiAffinity(), spec.resourceClaims(), spec.schedulingGates(),
        spec.runtimeClassName());
  }

  private static List<Container> defaulted(List<Container> containers) {
    return containers.stream().map(c -> c.withRequests(c.effectiveRequests())).toList();
  }
}
