package io.gpufleet.cli.nvidiaconformance;

import java.util.Optional;

/**
 * One case translated from NVIDIA's code: the area it exercises, the upstream repository file, the
 * test (and case) it comes from, the check (throws {@link AssertionError} when the twin disagrees)
 * and, for a known difference, why the twin differs.
 */
record NvidiaCase(String area, String file, String test, Runnable check, Optional<String> difference) {

  static NvidiaCase of(String area, String file, String test, Runnable check) {
    return new NvidiaCase(area, file, test, check, Optional.empty());
  }

  /** The same case, kept and counted as a known difference. */
  NvidiaCase differs(String reason) {
    return new NvidiaCase(area, file, test, check, Optional.of(reason));
  }

  boolean passes() {
    try {
      check.run();
      return true;
    } catch (AssertionError e) {
      return false;
    }
  }
}
