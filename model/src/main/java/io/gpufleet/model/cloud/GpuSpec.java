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

  /**
   * The name the GPU catalogue knows this model by: Karpenter's GPU name is an alias there, except
   * that EC2 calls both A100 sizes {@code a100}, told apart by memory (p4de carries the 80 GB one).
   */
  public String catalogName() {
    return name.equals("a100") && memoryMib >= 80 * 1024 ? "a100-80gb" : name;
  }
}
