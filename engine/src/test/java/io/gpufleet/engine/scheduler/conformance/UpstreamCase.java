package io.gpufleet.engine.scheduler.conformance;

import java.util.Optional;

/**
 * One case of a kube-scheduler unit-test table, translated: the plugin it exercises, the upstream
 * file and the case's {@code name:} as written there, the check (throws {@link AssertionError} when
 * the twin disagrees), and, for a known difference, why the twin differs.
 */
record UpstreamCase(String plugin, String file, String name, Runnable check, Optional<String> difference) {

  static UpstreamCase of(String plugin, String file, String name, Runnable check) {
    return new UpstreamCase(plugin, file, name, check, Optional.empty());
  }

  /** The same case, kept and counted as a known difference. */
  UpstreamCase differs(String reason) {
    return new UpstreamCase(plugin, file, name, check, Optional.of(reason));
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
