package io.gpufleet.nvml;

import io.gpufleet.model.gpu.ComputeCapability;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One physical GPU as NVML reports it.
 *
 * @param memoryMiB   total memory in MiB, as {@code nvidia-smi} prints it (bytes / 2^20, rounded down)
 * @param mig         current and pending MIG mode; empty on a card without MIG ({@code NOT_SUPPORTED})
 * @param migDevices  the MIG devices present while MIG is enabled
 * @param utilization the last sample; empty where the card does not report it
 */
public record GpuFacts(int index, String name, String uuid, long memoryMiB, long memoryUsedMiB,
    ComputeCapability compute, Optional<Nvml.MigModes> mig, List<MigDeviceFacts> migDevices,
    ComputeMode computeMode, Optional<Nvml.Utilization> utilization) {

  public GpuFacts {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(uuid, "uuid");
    migDevices = List.copyOf(migDevices);
  }

  /** A MIG device of a GPU: its UUID, its profile's name as NVML gives it, and its memory. */
  public record MigDeviceFacts(int index, String name, String uuid, long memoryMiB) {}

  public boolean migEnabled() {
    return mig.map(m -> m.current() == 1).orElse(false);
  }
}
