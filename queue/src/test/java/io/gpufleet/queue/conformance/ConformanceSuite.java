package io.gpufleet.queue.conformance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every translated Kueue case, and the counts per area that docs/conformance.md shows. */
final class ConformanceSuite {
  private ConformanceSuite() {}

  record Count(int cases, int passing) {}

  static List<UpstreamCase> all() {
    List<UpstreamCase> all = new ArrayList<>();
    all.addAll(QuotaCases.all());
    all.addAll(FlavorAssignerCases.all());
    all.addAll(ScheduleCases.all());
    all.addAll(PreemptionCases.all());
    return all;
  }

  static Map<String, Count> counts(List<UpstreamCase> cases) {
    Map<String, Count> out = new LinkedHashMap<>();
    for (UpstreamCase c : cases) {
      Count was = out.getOrDefault(c.area(), new Count(0, 0));
      out.put(c.area(), new Count(was.cases() + 1, was.passing() + (c.counted() ? 1 : 0)));
    }
    return out;
  }
}
