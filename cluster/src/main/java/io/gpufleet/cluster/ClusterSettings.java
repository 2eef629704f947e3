package io.gpufleet.cluster;

import io.gpufleet.engine.dra.GpuClaimPreparation;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.gpu.GpuCatalog;
import java.util.Objects;

/**
 * What the assembly reads a cluster with: the GPU catalogue (cards by product), the instance-type
 * catalogue (a node named only by its instance type gets that type's cards) and NVIDIA's DRA driver's
 * feature gates (its chart's {@code featureGates}, which no manifest carries).
 */
public record ClusterSettings(GpuCatalog gpus, InstanceCatalog instances, GpuClaimPreparation.FeatureGates draDriver) {

  /** The built-in catalogues, the driver's gates at their defaults. */
  public static ClusterSettings defaults() {
    return new ClusterSettings(GpuCatalog.builtIn(), InstanceCatalog.builtIn(), GpuClaimPreparation.FeatureGates.DEFAULTS);
  }

  public ClusterSettings {
    Objects.requireNonNull(gpus, "gpus");
    Objects.requireNonNull(instances, "instances");
    Objects.requireNonNull(draDriver, "draDriver");
  }

  public ClusterSettings withGpus(GpuCatalog catalog) {
    return new ClusterSettings(catalog, instances, draDriver);
  }

  public ClusterSettings withInstances(InstanceCatalog catalog) {
    return new ClusterSettings(gpus, catalog, draDriver);
  }

  public ClusterSettings withDraDriver(GpuClaimPreparation.FeatureGates gates) {
    return new ClusterSettings(gpus, instances, gates);
  }
}
