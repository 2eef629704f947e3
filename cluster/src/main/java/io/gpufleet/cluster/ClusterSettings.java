package io.gpufleet.cluster;

import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.gpu.GpuCatalog;
import java.util.Objects;

/**
 * What the assembly reads a cluster with: the GPU catalogue (cards by product) and the instance-type
 * catalogue (a node named only by its instance type gets that type's cards).
 */
public record ClusterSettings(GpuCatalog gpus, InstanceCatalog instances) {

  /** The built-in catalogues. */
  public static ClusterSettings defaults() {
    return new ClusterSettings(GpuCatalog.builtIn(), InstanceCatalog.builtIn());
  }

  public ClusterSettings {
    Objects.requireNonNull(gpus, "gpus");
    Objects.requireNonNull(instances, "instances");
  }

  public ClusterSettings withGpus(GpuCatalog catalog) {
    return new ClusterSettings(catalog, instances);
  }

  public ClusterSettings withInstances(InstanceCatalog catalog) {
    return new ClusterSettings(gpus, catalog);
  }
}
