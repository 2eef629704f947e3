package io.gpufleet.engine.dra;

import io.gpufleet.model.dra.DeviceClass;
import io.gpufleet.model.dra.DeviceRequest;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.dra.ResourceClaimSpec;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceName;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.ToLongFunction;

/**
 * DRA-backed extended resources (KEP-5004, DRAExtendedResource): a container's request for an
 * extended resource a DeviceClass serves ({@code spec.extendedResourceName}, or the implicit
 * {@code deviceclass.resource.kubernetes.io/<class>}) is met by the node's device plugin where the
 * node advertises the resource (allocatable above zero), else by devices of that class, through a
 * ResourceClaim the scheduler makes for the pod: one request per such resource,
 * {@code container-<i>-request-<j>} ({@code i} the container's index, {@code j} the resource's among
 * the container's DRA-backed extended resources in name order), {@code ExactCount} of the quantity
 * asked, of that class ({@code dynamicresources_test.go}: "extended-resource-name-with-resources",
 * "extended-resource-one-device-plugin-one-dra", "implicit-extended-resource-name-with-resources").
 * Init containers are not given such requests here.
 */
public final class ExtendedResourceClaims {

  /** {@code ExtendedResourceClaimAnnotation} (k8s.io/api resource/v1): marks the claim the scheduler made. */
  public static final String ANNOTATION = "resource.kubernetes.io/extended-resource-claim";

  private final DraObjects dra;

  public ExtendedResourceClaims(DraObjects dra) {
    this.dra = dra;
  }

  /** Whether a DeviceClass serves {@code resource}. */
  public boolean backed(String resource) {
    return isExtendedName(resource) && dra.classForExtendedResource(resource).isPresent();
  }

  /** Whether the pod asks for any extended resource a DeviceClass serves. */
  public boolean uses(Pod pod) {
    for (Container c : pod.spec().containers()) {
      for (ResourceName r : requested(c).keySet()) {
        if (backed(r.name())) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The claim the scheduler makes for the pod on a node whose allocatable of a resource is
   * {@code allocatable}: none when the node's device plugin serves every such request. Its name is
   * {@code <pod>-extended-resources}; where a controller runs, the scheduler's {@code generateName}
   * adds five random characters when it is created.
   */
  public Optional<ResourceClaim> claimFor(Pod pod, ToLongFunction<String> allocatable) {
    List<DeviceRequest> requests = new ArrayList<>();
    List<Container> containers = pod.spec().containers();
    for (int i = 0; i < containers.size(); i++) {
      int j = 0;
      for (var e : requested(containers.get(i)).entrySet()) {
        String name = e.getKey().name();
        Optional<DeviceClass> c = isExtendedName(name) ? dra.classForExtendedResource(name) : Optional.empty();
        if (c.isEmpty()) {
          continue;
        }
        long count = e.getValue().value();
        if (count > 0 && allocatable.applyAsLong(name) == 0) {
          requests.add(new DeviceRequest("container-" + i + "-request-" + j, c.get().name(), List.of(),
              DeviceRequest.AllocationMode.EXACT_COUNT, count));
        }
        j++;
      }
    }
    return requests.isEmpty() ? Optional.empty() : Optional.of(new ResourceClaim(pod.meta().namespace(),
        baseName(pod), new ResourceClaimSpec(requests)));
  }

  /** {@code <pod>-extended-resources}, the claim's {@code generateName} without its trailing hyphen. */
  public static String baseName(Pod pod) {
    return pod.name() + "-extended-resources";
  }

  /** A container's extended resources by name: its requests, else its limits (which requests default to). */
  private static TreeMap<ResourceName, Quantity> requested(Container c) {
    TreeMap<ResourceName, Quantity> out = new TreeMap<>();
    for (ResourceName r : c.limits().names()) {
      out.put(r, c.limits().getOrZero(r));
    }
    for (ResourceName r : c.requests().names()) {
      out.put(r, c.requests().getOrZero(r));
    }
    out.keySet().removeIf(r -> !isExtendedName(r.name()));
    return out;
  }

  private static boolean isExtendedName(String name) {
    return ResourceName.of(name).isExtended() || name.startsWith(DeviceClass.IMPLICIT_PREFIX);
  }
}
