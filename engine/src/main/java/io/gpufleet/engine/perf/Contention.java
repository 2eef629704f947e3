package io.gpufleet.engine.perf;

import io.gpufleet.model.deviceplugin.SharingMode;
import io.gpufleet.model.advise.Boundness;

/**
 * How tenants on one device slow each other, one variant per way of sharing it. Two kinds of
 * request meet here (see {@link Boundness}):
 * <ul>
 *   <li>memory-bound requests are one long burst of GPU work; bursts that run at the same moment
 *       share the device ({@link #burstStretch});</li>
 *   <li>launch-bound requests are a trickle of tiny kernels; co-tenants' kernels fill each other's
 *       gaps, so they cost nothing until the device's capacity for them runs out
 *       ({@link #cardWork}). The H200 {@code small} rows show this: two and four tenants get
 *       98–104% of N × a lone tenant's throughput under time-slicing.</li>
 * </ul>
 */
public sealed interface Contention {

  /**
   * How many times longer a burst's GPU time gets while {@code others} co-tenants' bursts run too
   * (1 when nothing slows it).
   */
  double burstStretch(int others);

  /** A launch-bound request's demand under this way of sharing (MPS changes the launch path). */
  ServiceDemand launchDemand(ServiceDemand alone);

  /**
   * The share of the device's capacity one request takes, so that the tenants' rates times this
   * must stay below 1: GPU time for time-slicing, bandwidth for memory-bound MPS clients, kernel
   * slots for launch-bound ones.
   */
  double cardWork(ServiceDemand d, boolean shared);

  static Contention of(SharingMode mode, Calibration c) {
    return switch (mode) {
      case SharingMode.Exclusive e -> new Alone();
      case SharingMode.TimeSlicing t -> new RoundRobin(c.contextSwitchOverhead());
      case SharingMode.Mps m -> new KernelOverlap(c.memoryBoundShare(), c.cappedStretch(Math.max(m.threadShare(), 0.01)),
          c.mpsLaunchFactor(), c.mpsKernelConcurrency());
      case SharingMode.Mig g -> of(g.within(), c);
    };
  }

  /** One tenant on the device (exclusive GPU, or a MIG instance of its own): nothing to share. */
  record Alone() implements Contention {
    @Override
    public double burstStretch(int others) {
      return 1.0;
    }

    @Override
    public ServiceDemand launchDemand(ServiceDemand alone) {
      return alone;
    }

    @Override
    public double cardWork(ServiceDemand d, boolean shared) {
      return d.gpuMs();
    }
  }

  /**
   * Time-slicing: the GPU runs one context at a time and round-robins between those with work, so
   * {@code k + 1} concurrent bursts each get {@code 1/(k+1)} of it, less the switching overhead.
   */
  record RoundRobin(double switchOverhead) implements Contention {
    @Override
    public double burstStretch(int others) {
      return others == 0 ? 1.0 : (others + 1) * (1 + switchOverhead);
    }

    @Override
    public ServiceDemand launchDemand(ServiceDemand alone) {
      return alone;
    }

    @Override
    public double cardWork(ServiceDemand d, boolean shared) {
      return d.gpuMs() * (shared ? 1 + switchOverhead : 1);
    }
  }

  /**
   * MPS: one shared context, kernels of different clients run side by side.
   *
   * <p>A memory-bound burst alone takes {@code share} of the bandwidth the card reaches with
   * overlap, so {@code k + 1} bursts stretch to {@code (k+1) × share} once that exceeds 1. A
   * client capped to a share of the SMs (as the device plugin caps each replica) runs a lone burst
   * {@code threadLimitStretch} times slower ({@link Calibration#cappedStretch}): its bandwidth, not
   * its SM share, limits it, and a few SMs still pull much of the bandwidth, so it slows less than
   * in proportion (measured on the H200: two clients at 50% reach 85% of uncapped, four at 25%
   * all of it). Each burst gets the lesser of its capped bandwidth and its share of the card's.
   *
   * <p>Launch-bound clients take the MPS launch path ({@code launchFactor}) and share
   * {@code kernelConcurrency} GPU-seconds per second; the thread limit does not bind on them: the
   * host limits them (measured: the capped {@code small} rows are as fast as the uncapped).
   */
  record KernelOverlap(double share, double threadLimitStretch, double launchFactor, double kernelConcurrency)
      implements Contention {

    @Override
    public double burstStretch(int others) {
      return Math.max(threadLimitStretch(), Math.max(1.0, (others + 1) * share));
    }

    @Override
    public ServiceDemand launchDemand(ServiceDemand alone) {
      return new ServiceDemand(alone.hostMs() * launchFactor, alone.gpuMs() * launchFactor, alone.bound());
    }

    @Override
    public double cardWork(ServiceDemand d, boolean shared) {
      return switch (d.bound()) {
        case MEMORY -> d.gpuMs() * share;
        case LAUNCH -> d.gpuMs() / kernelConcurrency;
      };
    }
  }
}
