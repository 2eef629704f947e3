package io.gpufleet.nvml;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Reads a machine's GPUs through {@link Nvml}. A card that does not support a query (MIG on a card
 * without it, utilisation on some boards) answers {@code NVML_ERROR_NOT_SUPPORTED}; that is a fact
 * about the card, recorded as an empty value. Any other failing code is an error. A machine with no
 * GPU is {@link GpuUnavailable}.
 */
public final class NodeProbe {
  private NodeProbe() {}

  public static NodeFacts read(Nvml nvml) {
    String driver = nvml.driverVersion();
    int count = nvml.deviceCount();
    if (count == 0) {
      throw new GpuUnavailable("NVML (driver " + driver + ") reports no GPU on this machine");
    }
    List<GpuFacts> gpus = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      gpus.add(gpu(nvml, i));
    }
    return new NodeFacts(driver, gpus);
  }

  private static GpuFacts gpu(Nvml nvml, int index) {
    Nvml.Handle h = nvml.device(index);
    Nvml.Memory memory = nvml.memory(h);
    Optional<Nvml.MigModes> mig = unlessNotSupported(() -> nvml.migMode(h));
    List<GpuFacts.MigDeviceFacts> migDevices = new ArrayList<>();
    if (mig.isPresent() && mig.get().current() == 1) {
      int slots = nvml.maxMigDeviceCount(h);
      for (int s = 0; s < slots; s++) {
        Optional<Nvml.Handle> m = nvml.migDevice(h, s);
        if (m.isPresent()) {
          migDevices.add(new GpuFacts.MigDeviceFacts(s, nvml.name(m.get()), nvml.uuid(m.get()),
              mib(nvml.memory(m.get()).totalBytes())));
        }
      }
    }
    return new GpuFacts(index, nvml.name(h), nvml.uuid(h), mib(memory.totalBytes()), mib(memory.usedBytes()),
        nvml.computeCapability(h), mig, migDevices, ComputeMode.of(nvml.computeMode(h)),
        unlessNotSupported(() -> nvml.utilization(h)));
  }

  /** nvidia-smi's MiB: whole mebibytes, rounded down. */
  static long mib(long bytes) {
    return bytes >>> 20;
  }

  private static <T> Optional<T> unlessNotSupported(Supplier<T> call) {
    try {
      return Optional.of(call.get());
    } catch (NvmlException e) {
      if (e.result() == NvmlReturn.ERROR_NOT_SUPPORTED) {
        return Optional.empty();
      }
      throw e;
    }
  }
}
