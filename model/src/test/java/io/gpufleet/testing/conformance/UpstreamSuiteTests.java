package io.gpufleet.testing.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The tests every conformance suite runs on its cases; a suite's test class implements this, gives
 * its {@link #cases()}, and adds what is its own (where a source may come from, its docs table).
 */
public interface UpstreamSuiteTests {

  /** Every case of the suite, in the order its docs table lists the areas. */
  List<UpstreamCase> cases();

  /** Each case as a test, one container per area: a known difference is skipped with its reason, never dropped. */
  @TestFactory
  default Stream<DynamicNode> upstreamCases() {
    return Cases.byArea(cases());
  }

  /** A difference that got fixed must be unmarked, so the table never undercounts. */
  @Test
  default void everyKnownDifferenceStillDiffers() {
    assertThat(Cases.differencesThatPass(cases())).isEmpty();
  }
}
