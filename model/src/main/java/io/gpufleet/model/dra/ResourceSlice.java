package io.gpufleet.model.dra;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A driver's devices in one pool, local to {@code nodeName} (node-local slices are all the twin
 * models; {@code allNodes} and {@code nodeSelector} slices are refused when read).
 */
public record ResourceSlice(String name, String driver, String pool, Optional<String> nodeName, List<Device> devices) implements DraObject {

  public ResourceSlice {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(driver, "driver");
    Objects.requireNonNull(pool, "pool");
    nodeName = nodeName == null ? Optional.empty() : nodeName;
    devices = List.copyOf(devices);
  }

  @Override
  public String kind() {
    return "ResourceSlice";
  }
}
