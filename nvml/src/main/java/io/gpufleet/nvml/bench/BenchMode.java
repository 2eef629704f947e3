package io.gpufleet.nvml.bench;

import java.util.Optional;

/**
 * How the tenants share the card. Time-slicing is the driver's default for several processes, so it
 * needs nothing; both MPS modes run the tenants as clients of the command's own MPS control daemon.
 * {@code mps-capped} sets {@code CUDA_MPS_ACTIVE_THREAD_PERCENTAGE} = 100/N on every client, the
 * share the NVIDIA device plugin's MPS gives each of N replicas.
 */
public enum BenchMode {
  TIME_SLICING("time-slicing"),
  MPS("mps"),
  MPS_CAPPED("mps-capped");

  private final String label;

  BenchMode(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }

  public boolean usesMps() {
    return this != TIME_SLICING;
  }

  /** Each client's SM share in percent for N tenants; empty where the client is not capped. */
  public Optional<Integer> threadPercentage(int tenants) {
    return this == MPS_CAPPED ? Optional.of(100 / tenants) : Optional.empty();
  }

  public static Optional<BenchMode> byLabel(String label) {
    for (BenchMode m : values()) {
      if (m.label.equals(label)) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }
}
