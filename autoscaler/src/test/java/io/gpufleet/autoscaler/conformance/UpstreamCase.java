package io.gpufleet.autoscaler.conformance;

import java.util.Optional;

/**
 * One case of Karpenter's Ginkgo suites, translated: the area it exercises, the upstream file and the
 * {@code It("...")} text as written there, the check (throws {@link AssertionError} when the twin
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

  /** Whether the twin agrees with upstream on this case. */
  boolean passes() {
    try {
      check.run();
      return true;
    } catch (AssertionError e) {
      return false;
    }
  }
}
