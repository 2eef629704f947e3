package io.gpufleet.report.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.sim.scenario.ExpectationOutcome;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Only expectations whose result differs are named; the same one twice in a step is matched in order. */
class WhatChangedTest {

  private static final Instant T = Instant.parse("2026-01-05T00:00:00Z");

  private static ExpectationOutcome o(int step, String what, boolean passed, String seen) {
    return new ExpectationOutcome(step, what, T, passed, seen);
  }

  @Test
  void namesEachExpectationWhoseResultChanged() {
    List<ExpectationOutcome> a = List.of(o(1, "kept", true, "1 nodes"), o(1, "ready", true, "1 ready"),
        o(2, "ready", true, "1 ready"), o(3, "gone", false, "1 nodes"));
    List<ExpectationOutcome> b = List.of(o(1, "kept", false, "0 nodes"), o(1, "ready", true, "1 ready"),
        o(2, "ready", false, "0 ready"), o(3, "gone", true, "0 nodes"), o(4, "late", false, "0 ready"));
    assertThat(WhatChanged.expectations(a, b)).containsExactly(
        new WhatChanged.Expectation("kept", "passed", "FAILED (seen: 0 nodes)", true, false),
        new WhatChanged.Expectation("ready", "passed", "FAILED (seen: 0 ready)", true, false),
        new WhatChanged.Expectation("gone", "FAILED (seen: 1 nodes)", "passed", false, true),
        new WhatChanged.Expectation("late", "not in this run", "FAILED (seen: 0 ready)", false, false));
    // Another scenario's expectation that passed is no change; one that failed is named.
    assertThat(WhatChanged.expectations(List.of(o(1, "mine", true, "1"), o(2, "broken", false, "0")), List.of()))
        .containsExactly(new WhatChanged.Expectation("broken", "FAILED (seen: 0)", "not in this run", false, false));
    assertThat(WhatChanged.expectations(a, a)).isEmpty();
  }
}
