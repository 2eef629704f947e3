package io.gpufleet.engine.perf;

import io.gpufleet.model.advise.Boundness;
import io.gpufleet.model.advise.RequestDemand;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuModel;
import java.util.Objects;

/**
 * What one request of a tenant costs on a device when the tenant is alone there: host time, during
 * which this tenant leaves the GPU idle, and GPU time. Their sum is the lone request's latency.
 *
 * @param hostMs GPU-idle time per request (host-side kernel launches)
 * @param gpuMs  GPU-busy time per request
 * @param bound  what limits it, which decides how co-tenants interfere
 */
public record ServiceDemand(double hostMs, double gpuMs, Boundness bound) {

  public ServiceDemand {
    Objects.requireNonNull(bound, "bound");
    if (!(hostMs >= 0) || !(gpuMs > 0)) {
      throw new IllegalArgumentException("a service demand needs host >= 0 and GPU > 0 ms, found " + hostMs + ", " + gpuMs);
    }
  }

  public double aloneMs() {
    return hostMs + gpuMs;
  }

  /**
   * The demand of a request on a device, from first principles where possible:
   * <ul>
   *   <li>model weights: bytes per request / (device bandwidth × single-stream share), no host time
   *       (launches overlap the long kernels);</li>
   *   <li>a kernel stream: launches × host cost per launch, of which the GPU is busy
   *       {@code launchBoundGpuShare};</li>
   *   <li>a measured latency: memory-bound latencies scale with the bandwidth ratio of the two GPUs;
   *       launch-bound ones are set by the host and carry over unchanged.</li>
   * </ul>
   */
  public static ServiceDemand of(RequestDemand demand, Device device, Calibration c, GpuCatalog catalog) {
    return switch (demand) {
      case RequestDemand.ModelWeights w -> new ServiceDemand(0,
          w.bytesPerRequest() / (device.bandwidthGBps() * 1e9 * c.singleStreamBandwidth()) * 1000, Boundness.MEMORY);
      case RequestDemand.KernelStream k -> launchBound(k.kernels() * c.hostMsPerKernel(), c);
      case RequestDemand.MeasuredAlone m -> switch (m.bound()) {
        case MEMORY -> {
          GpuModel on = catalog.find(m.gpu()).orElseThrow(
              () -> new IllegalArgumentException("unknown GPU \"" + m.gpu() + "\" in a measured demand"));
          double measuredOn = Device.whole(on).bandwidthGBps();
          yield new ServiceDemand(0, m.latencyMs() * measuredOn / device.bandwidthGBps(), Boundness.MEMORY);
        }
        case LAUNCH -> launchBound(m.latencyMs(), c);
      };
    };
  }

  private static ServiceDemand launchBound(double aloneMs, Calibration c) {
    double gpu = aloneMs * c.launchBoundGpuShare();
    return new ServiceDemand(aloneMs - gpu, gpu, Boundness.LAUNCH);
  }
}
