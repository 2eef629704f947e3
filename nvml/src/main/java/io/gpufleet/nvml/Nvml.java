package io.gpufleet.nvml;

import io.gpufleet.model.gpu.ComputeCapability;
import java.util.Optional;

/**
 * The NVML calls the probe makes, one method per call. Each throws {@link NvmlException} with the
 * call's return code when it is not {@code NVML_SUCCESS}; the probe decides which codes mean "not on
 * this card" ({@code NOT_SUPPORTED}) and which are failures. {@link NvmlLibrary} binds it to the
 * driver's library; tests bind it to a hand-written fake.
 */
public interface Nvml extends AutoCloseable {

  /** An opaque {@code nvmlDevice_t}: a physical GPU or a MIG device. */
  record Handle(long address) {}

  /** {@code nvmlMemory_t}, in bytes. */
  record Memory(long totalBytes, long freeBytes, long usedBytes) {}

  /** {@code nvmlDeviceGetMigMode}: 1 is {@code NVML_DEVICE_MIG_ENABLE}. */
  record MigModes(int current, int pending) {}

  /** {@code nvmlUtilization_t}: percent of the last sample period. */
  record Utilization(int gpuPercent, int memoryPercent) {}

  /** {@code nvmlSystemGetDriverVersion}. */
  String driverVersion();

  /** {@code nvmlDeviceGetCount_v2}. */
  int deviceCount();

  /** {@code nvmlDeviceGetHandleByIndex_v2}. */
  Handle device(int index);

  /** {@code nvmlDeviceGetName}. */
  String name(Handle device);

  /** {@code nvmlDeviceGetUUID}. */
  String uuid(Handle device);

  /** {@code nvmlDeviceGetMemoryInfo}. */
  Memory memory(Handle device);

  /** {@code nvmlDeviceGetCudaComputeCapability}. */
  ComputeCapability computeCapability(Handle device);

  /** {@code nvmlDeviceGetMigMode}. */
  MigModes migMode(Handle device);

  /** {@code nvmlDeviceGetMaxMigDeviceCount}. */
  int maxMigDeviceCount(Handle device);

  /** {@code nvmlDeviceGetMigDeviceHandleByIndex}; empty where the slot holds no MIG device ({@code NOT_FOUND}). */
  Optional<Handle> migDevice(Handle device, int index);

  /** {@code nvmlDeviceGetComputeMode}: the {@code nvmlComputeMode_t} number. */
  int computeMode(Handle device);

  /** {@code nvmlDeviceGetUtilizationRates}. */
  Utilization utilization(Handle device);

  /** {@code nvmlShutdown}. */
  @Override
  void close();
}
