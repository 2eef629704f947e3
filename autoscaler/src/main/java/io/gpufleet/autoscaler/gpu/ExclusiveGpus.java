package io.gpufleet.autoscaler.gpu;

import io.gpufleet.model.cloud.GpuSpec;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import java.util.Optional;

/** The device plugin with no sharing: one {@code nvidia.com/gpu} per physical GPU (reference §2.2). */
public enum ExclusiveGpus implements GpuAdvertiser {
  INSTANCE;

  @Override
  public Advertisement advertise(Labels nodeLabels, Optional<GpuSpec> gpus) {
    if (gpus.isEmpty() || !gpus.get().manufacturer().equals("nvidia")) {
      return Advertisement.NOTHING;
    }
    int n = gpus.get().count();
    return new Advertisement(ResourceList.EMPTY.with(ResourceName.NVIDIA_GPU, Quantity.of(n)),
        Labels.of("nvidia.com/gpu.count", Integer.toString(n), "nvidia.com/gpu.replicas", "1",
            "nvidia.com/gpu.sharing-strategy", "none"));
  }
}
