package io.gpufleet.autoscaler.conformance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every translated Karpenter case, and the counts per area that docs/conformance.md shows. */
final class ConformanceSuite {
  private ConformanceSuite() {}

  record Count(int cases, int passing) {}

  static List<UpstreamCase> all() {
    List<UpstreamCase> all = new ArrayList<>();
    all.addAll(ProvisioningCases.all());
    all.addAll(SchedulingCases.all());
    all.addAll(AwsProviderCases.all());
    all.addAll(NodeClassCases.all());
    all.addAll(DisruptionCases.all());
    all.addAll(NodeOverlayCases.all());
    all.addAll(LifecycleCases.all());
    all.addAll(InterruptionCases.all());
    all.addAll(BalancedCases.all());
    all.addAll(InstanceStoreCases.all());
    all.addAll(NetworkDriftCases.all());
    all.addAll(CapacityCases.all());
    all.addAll(DraCases.all());
    return all;
  }

  /** Cases and passing cases per area, in suite order; a known difference never counts as passing. */
  static Map<String, Count> counts() {
    Map<String, Count> out = new LinkedHashMap<>();
    for (UpstreamCase c : all()) {
      Count was = out.getOrDefault(c.area(), new Count(0, 0));
      out.put(c.area(), new Count(was.cases() + 1, was.passing() + (c.difference().isEmpty() ? 1 : 0)));
    }
    return out;
  }
}
