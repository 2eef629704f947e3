package io.gpufleet.nvml.bench;

/** The benchmark could not run as asked (a tenant died, the MPS daemon would not start): one line for the user. */
public final class BenchFailure extends RuntimeException {
  public BenchFailure(String message) {
    super(message);
  }
}
