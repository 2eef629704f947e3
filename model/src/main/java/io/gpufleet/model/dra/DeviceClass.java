package io.gpufleet.model.dra;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A cluster-scoped class of devices: the CEL selectors every request naming it adds, and the
 * extended resource it serves ({@code spec.extendedResourceName}, DRAExtendedResource): a pod asking
 * for that resource, or for the implicit {@code deviceclass.resource.kubernetes.io/<class>}, on a
 * node whose device plugin does not advertise it gets devices of this class.
 */
public record DeviceClass(String name, List<String> selectors, Optional<String> extendedResourceName)
    implements DraObject {

  /**
   * {@code ResourceDeviceClassPrefix} (k8s.io/api resource/v1 types.go): the implicit extended
   * resource name of a class is this prefix and the class's name.
   */
  public static final String IMPLICIT_PREFIX = "deviceclass.resource.kubernetes.io/";

  public DeviceClass {
    Objects.requireNonNull(name, "name");
    selectors = List.copyOf(selectors);
    Objects.requireNonNull(extendedResourceName, "extendedResourceName");
  }

  /** A class serving no extended resource of its own. */
  public DeviceClass(String name, List<String> selectors) {
    this(name, selectors, Optional.empty());
  }

  public String implicitExtendedResourceName() {
    return IMPLICIT_PREFIX + name;
  }

  @Override
  public String kind() {
    return "DeviceClass";
  }
}
