package io.gpufleet.model.dra;

import java.util.List;
import java.util.Objects;

/** A cluster-scoped class of devices: the CEL selectors every request naming it adds. */
public record DeviceClass(String name, List<String> selectors) implements DraObject {

  public DeviceClass {
    Objects.requireNonNull(name, "name");
    selectors = List.copyOf(selectors);
  }

  @Override
  public String kind() {
    return "DeviceClass";
  }
}
