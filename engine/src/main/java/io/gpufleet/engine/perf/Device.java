package io.gpufleet.engine.perf;

import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.gpu.MigGeometry;
import io.gpufleet.model.gpu.MigProfile;
import java.util.Objects;
import java.util.Optional;

/**
 * Where tenants run: a whole GPU, or one MIG instance of it. A MIG instance has its own memory
 * slices and with them its share of the memory controllers, L2 and DRAM bandwidth (NVIDIA MIG user
 * guide, https://docs.nvidia.com/datacenter/tesla/mig-user-guide/ : profiles list their fraction
 * of memory and of L2), so it gets {@code memorySlices / 8} of the card's bandwidth.
 *
 * @param gpu           the card
 * @param slice         the MIG profile, empty for the whole card
 * @param memoryMiB     memory tenants can allocate here
 * @param bandwidthGBps datasheet bandwidth of this device
 * @param cardShare     share of the card's bandwidth (1 for the whole card)
 */
public record Device(GpuModel gpu, Optional<MigProfile> slice, long memoryMiB, double bandwidthGBps, double cardShare) {

  public Device {
    Objects.requireNonNull(gpu, "gpu");
    Objects.requireNonNull(slice, "slice");
    if (memoryMiB < 1 || !(bandwidthGBps > 0) || !(cardShare > 0 && cardShare <= 1)) {
      throw new IllegalArgumentException("a device needs memory, bandwidth and a share of its card");
    }
  }

  /** The whole card; its memory size and bandwidth must be known. */
  public static Device whole(GpuModel gpu) {
    return new Device(gpu, Optional.empty(), memory(gpu), bandwidth(gpu), 1.0);
  }

  /** One MIG instance of the profile on this card. */
  public static Device slice(GpuModel gpu, MigProfile profile) {
    MigGeometry geo = gpu.migGeometry().orElseThrow(
        () -> new IllegalArgumentException(gpu.id() + " has no MIG"));
    double share = (double) profile.memorySlices() / geo.memorySlices();
    memory(gpu);
    return new Device(gpu, Optional.of(profile), profile.memoryMiB(gpu), bandwidth(gpu) * share, share);
  }

  private static long memory(GpuModel gpu) {
    return gpu.memoryMiB().orElseThrow(
        () -> new IllegalArgumentException("the memory size of " + gpu.id() + " is not known"));
  }

  private static double bandwidth(GpuModel gpu) {
    return gpu.bandwidthGBps().orElseThrow(
        () -> new IllegalArgumentException("the memory bandwidth of " + gpu.id() + " is not known"));
  }

  /** {@code H100-80GB} or {@code H100-80GB MIG 1g.10gb}. */
  public String name() {
    return slice.map(p -> gpu.id() + " MIG " + p.name()).orElse(gpu.id());
  }
}
