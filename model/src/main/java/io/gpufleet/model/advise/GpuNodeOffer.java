package io.gpufleet.model.advise;

import java.util.Objects;

/**
 * A node type that carries GPUs of one model, with what its kubelet leaves allocatable and its
 * on-demand price.
 *
 * @param instanceType      EC2 name, e.g. {@code g5.xlarge}
 * @param gpuModel          the GPU catalogue id ({@code A10G}, {@code H100-80GB})
 * @param gpus              GPUs per node
 * @param allocatableMillis CPU the kubelet leaves for pods, millicores
 * @param allocatableMiB    memory the kubelet leaves for pods
 * @param onDemandPerHour   on-demand US dollars per hour
 */
public record GpuNodeOffer(
    String instanceType, String gpuModel, int gpus, long allocatableMillis, long allocatableMiB,
    double onDemandPerHour) {

  /** Hours in a month as cloud bills count them (8760 / 12). */
  public static final double HOURS_PER_MONTH = 730;

  public GpuNodeOffer {
    Objects.requireNonNull(instanceType, "instanceType");
    Objects.requireNonNull(gpuModel, "gpuModel");
    if (gpus < 1 || !(onDemandPerHour > 0)) {
      throw new IllegalArgumentException(instanceType + ": a GPU node offer needs GPUs and a price");
    }
  }

  public double monthly() {
    return onDemandPerHour * HOURS_PER_MONTH;
  }
}
