package io.gpufleet.queue.conformance;

import java.util.Optional;

/**
 * One case of Kueue's own tests, translated: the area, the upstream file ({@code pkg/...}) with the
 * test function and table entry as written there, the check (throws when the twin disagrees), and,
 * for a known difference, why the twin differs.
 */
record UpstreamCase(String area, String file, String it, Runnable check, Optional<String> difference) {

  static UpstreamCase of(String area, String file, String it, Runnable check) {
    return new UpstreamCase(area, file, it, check, Optional.empty());
  }

  UpstreamCase differs(String reason) {
    return new UpstreamCase(area, file, it, check, Optional.of(reason));
  }

  boolean passes() {
    try {
      check.run();
      return true;
    } catch (AssertionError | RuntimeException e) {
      return false;
    }
  }

  boolean counted() {
    return difference.isEmpty() && passes();
  }
}
