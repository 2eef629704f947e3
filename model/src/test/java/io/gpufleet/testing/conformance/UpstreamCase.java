package io.gpufleet.testing.conformance;

import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;

/**
 * One upstream case, translated: the area it exercises (a plugin, a controller, a table's row), its
 * upstream source (a file, or a suite's own prefix such as {@code docs:} or {@code issue:}), the test
 * as written there (a table entry's {@code name:}, an {@code It("...")} text, a test function and its
 * entry), the check (throws when the twin disagrees), and, for a known difference, why the twin
 * differs.
 */
public record UpstreamCase(String area, String source, String test, Runnable check, Optional<String> difference) {

  public static UpstreamCase of(String area, String source, String test, Runnable check) {
    return new UpstreamCase(area, source, test, check, Optional.empty());
  }

  /** The same case, kept and counted as a known difference. */
  public UpstreamCase differs(String reason) {
    return new UpstreamCase(area, source, test, check, Optional.of(reason));
  }

  /**
   * Whether the twin agrees with upstream on this case: its check runs and completes. A check that
   * throws (an assertion, or the twin failing on upstream's input) disagrees.
   */
  public boolean passes() {
    try {
      check.run();
      return true;
    } catch (AssertionError | RuntimeException e) {
      return false;
    }
  }

  /** Counted as passing: not a known difference, and its check passes when run now. */
  public boolean counted() {
    return difference.isEmpty() && passes();
  }

  /** Source and test together, which no two cases of a suite share. */
  public String key() {
    return source + "#" + test;
  }

  /** The case as a JUnit test named by its test and source; a known difference is skipped with its reason. */
  public DynamicTest dynamicTest() {
    return DynamicTest.dynamicTest(test + " [" + source + "]", () -> {
      Assumptions.assumeTrue(difference.isEmpty(), () -> "differs: " + difference.orElse(""));
      check.run();
    });
  }
}
