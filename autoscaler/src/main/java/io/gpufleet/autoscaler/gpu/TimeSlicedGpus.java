package io.gpufleet.autoscaler.gpu;

import io.gpufleet.model.cloud.GpuSpec;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A stand-in for the device plugin with named time-slicing configs, chosen per node by
 * {@code nvidia.com/device-plugin.config} (reference §2.3): a config with {@code replicas ≥ 2}
 * advertises GPUs × replicas as {@code nvidia.com/gpu}, or {@code nvidia.com/gpu.shared} when
 * {@code renameByDefault} (reference §2.2). A node without the label, or naming an unknown config,
 * gets {@code defaultConfig}; a config with one replica is exclusive.
 */
public record TimeSlicedGpus(Map<String, Slicing> configs, String defaultConfig) implements GpuAdvertiser {

  /** One named config: how many replicas each GPU is split into, and whether they are renamed. */
  public record Slicing(int replicas, boolean renameByDefault) {
    public Slicing {
      if (replicas < 1) {
        throw new IllegalArgumentException("replicas must be at least 1, found " + replicas);
      }
    }
  }

  public TimeSlicedGpus {
    configs = Map.copyOf(configs);
    Objects.requireNonNull(defaultConfig, "defaultConfig");
  }

  @Override
  public Advertisement advertise(Labels nodeLabels, Optional<GpuSpec> gpus) {
    if (gpus.isEmpty() || !gpus.get().manufacturer().equals("nvidia")) {
      return Advertisement.NOTHING;
    }
    String name = nodeLabels.get(CONFIG_LABEL).filter(configs::containsKey).orElse(defaultConfig);
    Slicing s = configs.getOrDefault(name, new Slicing(1, false));
    int physical = gpus.get().count();
    if (s.replicas() < 2) {
      return ExclusiveGpus.INSTANCE.advertise(nodeLabels, gpus);
    }
    ResourceName resource = s.renameByDefault() ? ResourceName.NVIDIA_GPU_SHARED : ResourceName.NVIDIA_GPU;
    return new Advertisement(ResourceList.EMPTY.with(resource, Quantity.of((long) physical * s.replicas())),
        Labels.of("nvidia.com/gpu.count", Integer.toString(physical), "nvidia.com/gpu.replicas",
            Integer.toString(s.replicas()), "nvidia.com/gpu.sharing-strategy", "time-slicing"));
  }
}
