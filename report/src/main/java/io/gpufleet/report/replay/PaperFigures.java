package io.gpufleet.report.replay;

import java.util.List;
import java.util.Optional;

/**
 * The FGD paper's published allocation (% of GPU capacity) at 130% arrived GPU demand on the default
 * openb trace, mean of seeds 42–51 (Weng et al., ATC'23; the artifact's expected results).
 */
public final class PaperFigures {

  /** A published mean. */
  public record Published(String policy, double allocPercent) {}

  public static final List<Published> DEFAULT_TRACE = List.of(
      new Published("Random", 87.47),
      new Published("DotProduct", 90.85),
      new Published("GpuClustering", 91.88),
      new Published("GpuPacking", 92.00),
      new Published("BestFit", 93.08),
      new Published("FGD", 95.39));

  private PaperFigures() {}

  public static Optional<Double> defaultTrace(String policy) {
    return DEFAULT_TRACE.stream().filter(p -> p.policy().equals(policy)).map(Published::allocPercent).findFirst();
  }
}
