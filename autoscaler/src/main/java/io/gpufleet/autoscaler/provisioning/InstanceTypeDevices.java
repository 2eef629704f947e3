package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.autoscaler.AutoscalerSettings.DraRequests;
import io.gpufleet.engine.dra.NvidiaDraDriver;
import io.gpufleet.model.cloud.GpuSpec;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.dra.ResourceSlice;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.label.Labels;
import java.util.List;
import java.util.Optional;

/**
 * The DRA devices a node of an instance type will have before its drivers publish them: Karpenter's
 * {@code InstanceType.DynamicResources.ResourceSliceTemplates} ({@code K:pkg/cloudprovider/dynamicresources.go}),
 * which its allocator treats as the devices of a NodeClaim not launched yet and of a node not yet
 * initialised ({@code K:pkg/controllers/provisioning/scheduling/dra.go}, {@code templateSlicesForInstanceType}).
 */
@FunctionalInterface
public interface InstanceTypeDevices {

  /** The template slices of a node named {@code node} of {@code type} with these labels. */
  List<ResourceSlice> slices(String node, Labels labels, InstanceType type);

  /**
   * The AWS provider's: none. At {@code aws/karpenter-provider-aws} 1d927085 (its newest commit) nothing in
   * the provider sets {@code DynamicResources}, which the core leaves empty for providers that do not
   * support DRA ({@code K:pkg/cloudprovider/types.go}).
   */
  InstanceTypeDevices AWS = (node, labels, type) -> List.of();

  /**
   * gpufleet's extension ({@code draRequests: allocate}): the slice NVIDIA's DRA driver would publish on
   * the instance type's GPUs, where the labels leave them to the driver.
   */
  static InstanceTypeDevices nvidiaDraDriver(GpuCatalog gpus) {
    return (node, labels, type) -> {
      Optional<GpuSpec> gpu = type.gpu();
      if (gpu.isEmpty() || !DraProvisioning.runsDraDriver(labels)) {
        return List.of();
      }
      return gpus.find(gpu.get().catalogName())
          .map(m -> List.of(NvidiaDraDriver.slice(node, m, gpu.get().count()))).orElse(List.of());
    };
  }

  /** What each mode's provisioner knows of an instance type's devices. */
  static InstanceTypeDevices of(DraRequests mode, GpuCatalog gpus) {
    return switch (mode) {
      case IGNORE, KARPENTER -> AWS;
      case ALLOCATE -> nvidiaDraDriver(gpus);
    };
  }
}
