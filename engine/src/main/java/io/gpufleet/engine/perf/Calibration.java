package io.gpufleet.engine.perf;

/**
 * The performance model's fitted constants. Each is fitted to the closed-loop rows of our own
 * measurement on one NVIDIA H200 (2026-11-30, {@code shared/data/h200-sharing/README.md}) by
 * {@link CalibrationFit}; a test holds these numbers to what that fit produces from the rows.
 *
 * @param singleStreamBandwidth    share of the datasheet memory bandwidth one memory-bound request
 *     reaches alone. From the two {@code big} N=1 rows: 12.885 GB per request in 3.70 ms is
 *     3.48 TB/s of the H200's 4.8 TB/s.
 * @param overlappedBandwidth      share of the datasheet bandwidth that several memory-bound
 *     requests reach together when their kernels overlap (MPS). From the {@code big} MPS N=2,4,8
 *     rows: 346.6 req/s × 12.885 GB = 4.47 TB/s.
 * @param contextSwitchOverhead    extra GPU time per unit of work when time-slicing switches between
 *     two or more busy contexts. From the {@code big} time-slicing N=2,4,8 rows: 249.8 req/s
 *     against 270.2 alone.
 * @param hostMsPerKernel          host-side cost of one kernel launch of eager PyTorch at batch 1,
 *     during which the GPU waits. From the {@code small} time-slicing N=1 row: 12.21 ms for 768
 *     launches.
 * @param launchBoundGpuShare      share of a lone launch-bound request's time its kernels keep the
 *     GPU busy. From the {@code small} time-slicing N=8 row, where the card saturates at
 *     330.6 req/s: 1 / (330.6 × 12.21 ms × (1 + contextSwitchOverhead)).
 * @param mpsLaunchFactor          how much faster a launch-bound request runs as an MPS client than
 *     as a plain context. From the {@code small} MPS N=1 row against time-slicing N=1: 8.42 ms
 *     against 12.21 ms. We do not know why; the N=2 rows show the same gap.
 * @param mpsKernelConcurrency     how many launch-bound GPU-seconds MPS serves per second when the
 *     tiny kernels of several clients run side by side. From the {@code small} MPS N=8 row taken
 *     as saturation (838.2 req/s): a lower bound, so MPS is not flattered.
 */
public record Calibration(
    double singleStreamBandwidth,
    double overlappedBandwidth,
    double contextSwitchOverhead,
    double hostMsPerKernel,
    double launchBoundGpuShare,
    double mpsLaunchFactor,
    double mpsKernelConcurrency) {

  /** What {@link CalibrationFit} gives for the H200 closed-loop rows, to four significant digits. */
  public static final Calibration H200_2026_11_30 =
      new Calibration(0.7254, 0.9303, 0.08202, 0.01590, 0.2289, 0.6900, 1.616);

  public Calibration {
    if (!(singleStreamBandwidth > 0 && singleStreamBandwidth <= overlappedBandwidth && overlappedBandwidth <= 1)) {
      throw new IllegalArgumentException(
          "need 0 < singleStreamBandwidth <= overlappedBandwidth <= 1, found " + singleStreamBandwidth + ", "
              + overlappedBandwidth);
    }
    if (!(contextSwitchOverhead >= 0) || !(hostMsPerKernel > 0) || !(launchBoundGpuShare > 0 && launchBoundGpuShare <= 1)
        || !(mpsLaunchFactor > 0) || !(mpsKernelConcurrency >= 1)) {
      throw new IllegalArgumentException("calibration constants out of range: " + this);
    }
  }

  /**
   * The share of the card's overlapped capacity one memory-bound request uses alone: how much of
   * what MPS can give it a single stream already takes (0.78 on the H200).
   */
  public double memoryBoundShare() {
    return singleStreamBandwidth / overlappedBandwidth;
  }
}
