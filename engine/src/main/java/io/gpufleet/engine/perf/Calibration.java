package io.gpufleet.engine.perf;

/**
 * The performance model's fitted constants. Each is fitted to the closed-loop rows of our own
 * measurement on one NVIDIA H200 (2026-11-30, {@code shared/data/h200-sharing/README.md}, both
 * tables: daemon defaults and each client capped as the device plugin runs MPS), or to a user's
 * {@code gpufleet bench-sharing} output, by
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
 *     tiny kernels of several clients run side by side. From the {@code small} MPS and capped-MPS
 *     rows with the most tenants taken as saturation (838.2 and 928.2 req/s, their mean): the cap
 *     does not bind on tiny kernels, so both measure the same capacity; each is a lower bound.
 * @param cappedBandwidthExponent  how a memory-bound MPS client's bandwidth falls with its share
 *     {@code f} of the SMs (the device plugin's {@code CUDA_MPS_ACTIVE_THREAD_PERCENTAGE} = 100/N):
 *     alone it reaches {@code singleStreamBandwidth × f^exponent}. From the {@code big} capped-MPS
 *     rows N=2,4,8: the exponent whose worst row is closest. N=2 at 50% (290.5 req/s) is the row
 *     the cap binds on; at N=4 and 8 the card's bandwidth binds (344 req/s, as uncapped), so they
 *     only bound it. Below 1: a capped client slows less than in proportion to its SM share.
 */
public record Calibration(
    double singleStreamBandwidth,
    double overlappedBandwidth,
    double contextSwitchOverhead,
    double hostMsPerKernel,
    double launchBoundGpuShare,
    double mpsLaunchFactor,
    double mpsKernelConcurrency,
    double cappedBandwidthExponent) {

  /** What {@link CalibrationFit} gives for the H200 closed-loop rows, to four significant digits. */
  public static final Calibration H200_2026_11_30 =
      new Calibration(0.7254, 0.9303, 0.08202, 0.01590, 0.2289, 0.6900, 1.703, 0.8492);

  public Calibration {
    if (!(singleStreamBandwidth > 0 && singleStreamBandwidth <= overlappedBandwidth && overlappedBandwidth <= 1)) {
      throw new IllegalArgumentException(
          "need 0 < singleStreamBandwidth <= overlappedBandwidth <= 1, found " + singleStreamBandwidth + ", "
              + overlappedBandwidth);
    }
    if (!(contextSwitchOverhead >= 0) || !(hostMsPerKernel > 0) || !(launchBoundGpuShare > 0 && launchBoundGpuShare <= 1)
        || !(mpsLaunchFactor > 0) || !(mpsKernelConcurrency >= 1)
        || !(cappedBandwidthExponent >= 0 && cappedBandwidthExponent <= 1)) {
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

  /**
   * How much slower a lone memory-bound burst runs as an MPS client limited to {@code threadShare}
   * of the SMs: {@code threadShare^-cappedBandwidthExponent} (1 uncapped).
   */
  public double cappedStretch(double threadShare) {
    if (!(threadShare > 0 && threadShare <= 1)) {
      throw new IllegalArgumentException("an SM share must be in (0, 1], found " + threadShare);
    }
    return Math.pow(threadShare, -cappedBandwidthExponent);
  }
}
