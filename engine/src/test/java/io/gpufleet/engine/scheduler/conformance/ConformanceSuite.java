package io.gpufleet.engine.scheduler.conformance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every translated case, and the per-plugin counts docs/conformance.md shows. */
final class ConformanceSuite {
  private ConformanceSuite() {}

  static List<UpstreamCase> all() {
    List<UpstreamCase> all = new ArrayList<>();
    all.addAll(NodeResourcesFitCases.cases());
    all.addAll(ScoringCases.cases());
    all.addAll(PluginSetCases.cases());
    all.addAll(TaintTolerationCases.cases());
    all.addAll(NodeAffinityCases.cases());
    all.addAll(NodeNameAndUnschedulableCases.cases());
    all.addAll(FitErrorCases.cases());
    all.addAll(PreemptionCases.cases());
    all.addAll(PodTopologySpreadCases.cases());
    all.addAll(InterPodAffinityCases.cases());
    all.addAll(ImageLocalityCases.cases());
    all.addAll(ValidationCases.cases());
    all.addAll(DynamicResourcesCases.cases());
    all.addAll(DraAllocatorCases.cases());
    all.addAll(DraPartitionCases.cases());
    all.addAll(DraTaintCases.cases());
    all.addAll(DeviceTaintEvictionCases.cases());
    all.addAll(DraExtendedResourceCases.cases());
    all.addAll(DraValidationCases.cases());
    all.addAll(DraCelCases.cases());
    all.addAll(DraE2eCases.cases());
    return all;
  }

  /** Cases and passing cases per plugin, in suite order. */
  record Count(int cases, int passing) {}

  static Map<String, Count> counts() {
    Map<String, Count> counts = new LinkedHashMap<>();
    for (UpstreamCase c : all()) {
      boolean pass = c.difference().isEmpty() && c.passes();
      counts.merge(c.plugin(), new Count(1, pass ? 1 : 0),
          (a, b) -> new Count(a.cases() + b.cases(), a.passing() + b.passing()));
    }
    return counts;
  }
}
