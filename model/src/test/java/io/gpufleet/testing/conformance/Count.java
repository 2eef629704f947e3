package io.gpufleet.testing.conformance;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** How many cases an area (or a whole suite) has, and how many of them pass. */
public record Count(int cases, int passing) {

  /** Cases counted as not passing: the known differences, when every unmarked case passes. */
  public int differences() {
    return cases - passing;
  }

  public Count plus(Count other) {
    return new Count(cases + other.cases, passing + other.passing);
  }

  /**
   * Cases and passing cases per area, in the cases' order. Each case's check is run: a case passes
   * only when its check passes and it is not a known difference, so an unmarked case that fails is
   * counted as not passing (and a docs table comparison then fails) rather than taken on trust.
   */
  public static Map<String, Count> perArea(List<UpstreamCase> cases) {
    Map<String, Count> out = new LinkedHashMap<>();
    for (UpstreamCase c : cases) {
      out.merge(c.area(), new Count(1, c.counted() ? 1 : 0), Count::plus);
    }
    return out;
  }

  /** {@link #perArea} followed by the whole suite's count under {@code totalRow}, as a docs table lists them. */
  public static Map<String, Count> perAreaAndTotal(List<UpstreamCase> cases, String totalRow) {
    Map<String, Count> out = perArea(cases);
    out.put(totalRow, total(List.copyOf(out.values())));
    return out;
  }

  public static Count total(Collection<Count> counts) {
    return counts.stream().reduce(new Count(0, 0), Count::plus);
  }
}
