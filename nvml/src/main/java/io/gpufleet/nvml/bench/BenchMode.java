package io.gpufleet.nvml.bench;

import java.util.Optional;

/**
 * How the tenants share the card. Time-slicing is the driver's default for several processes, so it
 * needs nothing; the MPS modes run the tenants as clients of the command's own MPS control daemon.
 * {@code mps-capped} sets {@code CUDA_MPS_ACTIVE_THREAD_PERCENTAGE} = 100/N on every client, the
 * share the NVIDIA device plugin's MPS gives each of N replicas. {@code mps-capped-solo} runs one
 * client alone under that same cap for each N: a replica whose N-1 co-tenants are idle, which back-to-back
 * runs of N clients never show (its row's {@code tenants} is the N of the cap).
 */
public enum BenchMode {
  TIME_SLICING("time-slicing"),
  MPS("mps"),
  MPS_CAPPED("mps-capped"),
  MPS_CAPPED_SOLO("mps-capped-solo");

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
    return this == MPS_CAPPED || this == MPS_CAPPED_SOLO ? Optional.of(100 / tenants) : Optional.empty();
  }

  /** How many client processes run for N tenants: one under the cap of N for {@code mps-capped-solo}, else N. */
  public int clients(int tenants) {
    return this == MPS_CAPPED_SOLO ? 1 : tenants;
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
