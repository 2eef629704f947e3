package io.gpufleet.model.pod;

import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;

/**
 * The effective request of a pod, as kube-scheduler computes it: the larger of (the sum of the app
 * containers plus running sidecars) and (each init container's request plus the sidecars started
 * before it), plus the pod overhead. Without sidecars this is
 * {@code max(sum(containers), max(initContainers)) + overhead}.
 */
public final class PodRequests {
  private PodRequests() {}

  public static ResourceList of(PodSpec spec) {
    return of(spec, null);
  }

  /**
   * As {@link #of(PodSpec)}; when {@code defaults} is given, a container missing a request for one
   * of its resources counts that default instead (the scheduler's "non-zero" requests for scoring).
   */
  public static ResourceList of(PodSpec spec, ResourceList defaults) {
    ResourceList apps = ResourceList.EMPTY;
    for (Container c : spec.containers()) {
      apps = apps.plus(requestsOf(c, defaults));
    }
    ResourceList sidecars = ResourceList.EMPTY;
    ResourceList initPeak = ResourceList.EMPTY;
    for (Container c : spec.initContainers()) {
      ResourceList r = requestsOf(c, defaults);
      if (c.sidecar()) {
        sidecars = sidecars.plus(r);
        initPeak = initPeak.max(sidecars);
      } else {
        initPeak = initPeak.max(r.plus(sidecars));
      }
    }
    ResourceList total = apps.plus(sidecars).max(initPeak);
    return spec.overhead().isEmpty() ? total : total.plus(spec.overhead());
  }

  private static ResourceList requestsOf(Container c, ResourceList defaults) {
    ResourceList r = c.effectiveRequests();
    if (defaults != null) {
      for (ResourceName name : defaults.names()) {
        if (!r.contains(name)) {
          r = r.with(name, defaults.getOrZero(name));
        }
      }
    }
    return r;
  }

  /** The whole number of a resource a pod asks for (0 when absent), rounded up. */
  public static long units(ResourceList requests, ResourceName name) {
    Quantity q = requests.quantities().get(name);
    return q == null ? 0 : q.value();
  }
}
