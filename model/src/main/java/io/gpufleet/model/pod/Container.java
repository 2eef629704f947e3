package io.gpufleet.model.pod;

import io.gpufleet.model.resource.ResourceList;
import java.util.List;
import java.util.Objects;

/**
 * A container's name, image, resources and ports. {@code sidecar} marks an init container with
 * {@code restartPolicy: Always}, which keeps running beside the app containers.
 */
public record Container(String name, String image, ResourceList requests, ResourceList limits, boolean sidecar,
    List<ContainerPort> ports) {

  public Container {
    Objects.requireNonNull(name, "name");
    image = image == null ? "" : image;
    requests = requests == null ? ResourceList.EMPTY : requests;
    limits = limits == null ? ResourceList.EMPTY : limits;
    ports = ports == null ? List.of() : List.copyOf(ports);
  }

  /** A container without ports. */
  public Container(String name, String image, ResourceList requests, ResourceList limits, boolean sidecar) {
    this(name, image, requests, limits, sidecar, List.of());
  }

  /** The same container with these requests (the API server's defaulting writes them). */
  public Container withRequests(ResourceList newRequests) {
    return new Container(name, image, newRequests, limits, sidecar, ports);
  }

  /**
   * The record's usual text, written out, without {@code ports} while there are none (so a template's
   * hash stays as before ports were modelled); part of a pod template's text (see
   * {@link io.gpufleet.model.workload.PodTemplate#toString}).
   */
  @Override
  public String toString() {
    return new StringBuilder("Container[name=").append(name).append(", image=").append(image).append(", requests=")
        .append(requests).append(", limits=").append(limits).append(", sidecar=").append(sidecar)
        .append(ports.isEmpty() ? "" : ", ports=" + ports).append(']').toString();
  }

  public static Container of(String name, String image, ResourceList requests, ResourceList limits) {
    return new Container(name, image, requests, limits, false);
  }

  /**
   * Requests after the API server's defaulting: a resource with a limit and no request gets the
   * limit as its request.
   */
  public ResourceList effectiveRequests() {
    ResourceList r = requests;
    for (var e : limits.quantities().entrySet()) {
      if (!r.contains(e.getKey())) {
        r = r.with(e.getKey(), e.getValue());
      }
    }
    return r;
  }
}
