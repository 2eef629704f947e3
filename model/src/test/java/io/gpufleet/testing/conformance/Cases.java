package io.gpufleet.testing.conformance;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;

/** A suite's cases as JUnit tests, and the checks every suite makes on them. */
public final class Cases {
  private Cases() {}

  /** One container of dynamic tests per area, in the cases' order. */
  public static Stream<DynamicNode> byArea(List<UpstreamCase> cases) {
    Map<String, List<DynamicNode>> byArea = new LinkedHashMap<>();
    for (UpstreamCase c : cases) {
      byArea.computeIfAbsent(c.area(), k -> new ArrayList<>()).add(c.dynamicTest());
    }
    return byArea.entrySet().stream().map(e -> DynamicContainer.dynamicContainer(e.getKey(), e.getValue()));
  }

  /** The tests of the known differences, in the cases' order. */
  public static List<String> differences(List<UpstreamCase> cases) {
    return cases.stream().filter(c -> c.difference().isPresent()).map(UpstreamCase::test).toList();
  }

  /**
   * The tests of known differences whose check passes now: a difference that got fixed must be
   * unmarked, so the table never undercounts.
   */
  public static List<String> differencesThatPass(List<UpstreamCase> cases) {
    return cases.stream().filter(c -> c.difference().isPresent()).filter(UpstreamCase::passes)
        .map(UpstreamCase::test).toList();
  }

  /** The {@link UpstreamCase#key() source and test} of each case that repeats an earlier one. */
  public static List<String> repeated(List<UpstreamCase> cases) {
    Set<String> seen = new HashSet<>();
    return cases.stream().map(UpstreamCase::key).filter(k -> !seen.add(k)).toList();
  }
}
