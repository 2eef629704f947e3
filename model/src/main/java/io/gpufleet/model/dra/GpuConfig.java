package io.gpufleet.model.dra;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * NVIDIA's {@code resource.nvidia.com/v1beta1} {@code GpuConfig} as written in a claim's opaque
 * configuration (NVIDIA/k8s-dra-driver-gpu {@code api/nvidia.com/resource/v1beta1/gpuconfig.go},
 * {@code sharing.go}): an optional sharing strategy with its settings. Values are kept as written;
 * the driver normalizes and validates them when it prepares the claim, and so does the twin.
 */
public record GpuConfig(Optional<Sharing> sharing) implements DeviceConfig.Parameters {

  /** The driver whose opaque parameters these are ({@code cmd/gpu-kubelet-plugin/main.go} {@code DriverName}). */
  public static final String DRIVER = "gpu.nvidia.com";
  public static final String API_VERSION = "resource.nvidia.com/v1beta1";
  public static final String KIND = "GpuConfig";

  public GpuConfig {
    Objects.requireNonNull(sharing, "sharing");
  }

  /** {@code sharing}: {@code strategy} ({@code TimeSlicing} or {@code MPS}) and the config of either. */
  public record Sharing(String strategy, Optional<TimeSlicing> timeSlicingConfig, Optional<Mps> mpsConfig) {
    public Sharing {
      Objects.requireNonNull(strategy, "strategy");
      Objects.requireNonNull(timeSlicingConfig, "timeSlicingConfig");
      Objects.requireNonNull(mpsConfig, "mpsConfig");
    }
  }

  /** {@code timeSlicingConfig}: {@code interval}, one of Default, Short, Medium, Long. */
  public record TimeSlicing(Optional<String> interval) {
    public TimeSlicing {
      Objects.requireNonNull(interval, "interval");
    }
  }

  /**
   * {@code mpsConfig}: the MPS control daemon's default active-thread percentage and pinned device
   * memory limits (a default, and overrides per device index or UUID), quantities in bytes.
   */
  public record Mps(Optional<Integer> defaultActiveThreadPercentage, Optional<Long> defaultPinnedDeviceMemoryLimit,
      Map<String, Long> defaultPerDevicePinnedMemoryLimit) {
    public Mps {
      Objects.requireNonNull(defaultActiveThreadPercentage, "defaultActiveThreadPercentage");
      Objects.requireNonNull(defaultPinnedDeviceMemoryLimit, "defaultPinnedDeviceMemoryLimit");
      defaultPerDevicePinnedMemoryLimit = Collections.unmodifiableMap(
          new TreeMap<>(defaultPerDevicePinnedMemoryLimit));
    }
  }
}
