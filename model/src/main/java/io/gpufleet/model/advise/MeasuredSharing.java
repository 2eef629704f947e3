package io.gpufleet.model.advise;

import java.util.List;
import java.util.Objects;

/**
 * Closed-loop sharing rows measured on one card, with the two workloads that ran, ready to
 * calibrate the performance model: the built-in H200 measurement ({@link H200Measurement#builtIn})
 * or a user's {@code gpufleet bench-sharing} output.
 *
 * @param source where the rows come from, as the advice names its calibration
 * @param gpu    the GPU catalogue id of the card measured
 * @param big    what one request of the memory-bound workload reads
 * @param small  what one request of the launch-bound workload launches
 * @param rows   the closed-loop rows
 * @param lone   open-loop rows of one tenant (a lone tenant at light load: how much longer a request
 *               that finds its tenant idle takes); possibly none
 */
public record MeasuredSharing(String source, String gpu, RequestDemand.ModelWeights big,
    RequestDemand.KernelStream small, List<ClosedLoopRow> rows, List<OpenLoopRow> lone) {

  public MeasuredSharing {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(gpu, "gpu");
    Objects.requireNonNull(big, "big");
    Objects.requireNonNull(small, "small");
    rows = List.copyOf(rows);
    lone = List.copyOf(lone);
    if (lone.stream().anyMatch(r -> r.tenants() != 1)) {
      throw new IllegalArgumentException("a lone open-loop row has one tenant");
    }
  }

  /** Closed-loop rows only. */
  public MeasuredSharing(String source, String gpu, RequestDemand.ModelWeights big, RequestDemand.KernelStream small,
      List<ClosedLoopRow> rows) {
    this(source, gpu, big, small, rows, List.of());
  }
}
