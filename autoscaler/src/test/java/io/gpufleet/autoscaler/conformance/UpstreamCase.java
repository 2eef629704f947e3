package io.gpufleet.autoscaler.conformance;

import java.util.Optional;

/**
 * One case of Karpenter's, translated: the area it exercises, where it comes from (a Ginkgo suite's file
 * and its {@code It("...")} text as written there; an e2e suite's likewise; a karpenter.sh concept page,
 * {@code docs:<url path>}, and the example it works; a maintainer's statement in an issue,
 * {@code issue:<owner>/<repo>#<n>}, and the behaviour stated), the check (throws {@link AssertionError} when the twin
 * disagrees), and, for a known difference, why the twin differs. Upstream runs against a fake cloud
 * provider with invented instance types; the translations use the twin's AWS catalogue and say so
 * where the figures had to change.
 */
record UpstreamCase(String area, String file, String it, Runnable check, Optional<String> difference) {

  static UpstreamCase of(String area, String file, String it, Runnable check) {
    return new UpstreamCase(area, file, it, check, Optional.empty());
  }

  /** The same case, kept and counted as a known difference. */
  UpstreamCase differs(String reason) {
    return new UpstreamCase(area, file, it, check, Optional.of(reason));
  }

  /**
   * Whether the twin agrees with upstream on this case: its check runs and completes. A check that
   * throws (an assertion, or the twin failing on upstream's input) disagrees.
   */
  boolean passes() {
    try {
      check.run();
      return true;
    } catch (AssertionError | RuntimeException e) {
      return false;
    }
  }

  /** Counted as passing: not a known difference, and its check passes when run now. */
  boolean counted() {
    return difference.isEmpty() && passes();
  }
}
