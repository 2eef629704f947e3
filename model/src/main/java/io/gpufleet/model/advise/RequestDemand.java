package io.gpufleet.model.advise;

import java.util.Locale;
import java.util.Objects;

/**
 * What one request costs, in the terms the workload owner knows it: the weights a decode step
 * streams, the kernels a request launches, or a latency measured with the workload alone on a GPU.
 * Each variant says what limits it ({@link #bound()}).
 */
public sealed interface RequestDemand {

  Boundness bound();

  /** One line for reports: {@code 1.5B params x 2 B x 1 token}. */
  String describe();

  /**
   * A transformer decode at batch 1: each of {@code tokens} steps reads every weight once, so a
   * request moves {@code parameters × bytesPerParameter × tokens} bytes. At 2 FLOPs per parameter
   * per token and 2 bytes per bf16 parameter this is about 1 FLOP per byte, far below any GPU's
   * compute-to-bandwidth ratio: memory-bound. KV-cache reads are left out (short contexts).
   */
  record ModelWeights(double parameters, double bytesPerParameter, int tokens) implements RequestDemand {

    /**
     * gpufleet's allowance on top of the weights for the CUDA context, activations and a short
     * KV cache when no footprint is given: 1 GiB. An assumption, not a measurement.
     */
    public static final long OVERHEAD_MIB = 1024;

    public ModelWeights {
      if (!(parameters > 0) || !(bytesPerParameter > 0) || tokens < 1) {
        throw new IllegalArgumentException("model weights need positive parameters, bytes per parameter and tokens");
      }
    }

    public double bytesPerRequest() {
      return parameters * bytesPerParameter * tokens;
    }

    public long weightsMiB() {
      return (long) Math.ceil(parameters * bytesPerParameter / (1024.0 * 1024.0));
    }

    /** Weights plus {@link #OVERHEAD_MIB}. */
    public long defaultFootprintMiB() {
      return weightsMiB() + OVERHEAD_MIB;
    }

    @Override
    public Boundness bound() {
      return Boundness.MEMORY;
    }

    @Override
    public String describe() {
      return String.format(Locale.ROOT, "%s params x %s B x %d token%s", Units.count(parameters),
          Units.trim(bytesPerParameter), tokens, tokens == 1 ? "" : "s");
    }
  }

  /**
   * A request that launches {@code kernels} small kernels one after another from the host (eager
   * PyTorch, batch 1): the host's per-launch cost, not the GPU, sets its pace.
   */
  record KernelStream(int kernels) implements RequestDemand {
    public KernelStream {
      if (kernels < 1) {
        throw new IllegalArgumentException("a kernel stream needs at least one kernel, found " + kernels);
      }
    }

    @Override
    public Boundness bound() {
      return Boundness.LAUNCH;
    }

    @Override
    public String describe() {
      return kernels + " kernel launches";
    }
  }

  /**
   * The mean latency of one request measured with this workload alone on a GPU, requests back to
   * back (closed loop), and what limited it.
   *
   * @param gpu       anything the GPU catalogue understands: {@code H200}, {@code NVIDIA-L4}, {@code a10g}
   * @param latencyMs mean latency of a lone request
   */
  record MeasuredAlone(String gpu, double latencyMs, Boundness bound) implements RequestDemand {
    public MeasuredAlone {
      Objects.requireNonNull(gpu, "gpu");
      Objects.requireNonNull(bound, "bound");
      if (!(latencyMs > 0 && Double.isFinite(latencyMs))) {
        throw new IllegalArgumentException("a measured latency must be positive, found " + latencyMs);
      }
    }

    @Override
    public String describe() {
      return String.format(Locale.ROOT, "%s ms alone on %s, %s-bound", Units.trim(latencyMs), gpu, bound.wireName());
    }
  }
}
