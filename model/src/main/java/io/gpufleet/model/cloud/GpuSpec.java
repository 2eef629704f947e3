package io.gpufleet.model.cloud;

import java.util.Objects;

/**
 * The GPUs of an instance type as EC2 describes them: the model in Karpenter's lower-kebab form
 * ({@code a10g}, {@code l4}, {@code h100}), the maker, how many, and memory per GPU in MiB
 * (reference §1.2, the {@code karpenter.k8s.aws/instance-gpu-*} labels).
 */
public record GpuSpec(String name, String manufacturer, int count, long memoryMib) {

  public GpuSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(manufacturer, "manufacturer");
    if (count < 1) {
      throw new IllegalArgumentException("a GPU spec needs at least one GPU, found " + count);
    }
  }
}
