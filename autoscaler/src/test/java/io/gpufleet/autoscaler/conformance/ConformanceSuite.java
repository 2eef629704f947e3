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
    all.addAll(ReservedCapacityCases.all());
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
    all.addAll(DraAllocatorCases.all());
    all.addAll(E2eCases.all());
    all.addAll(ConceptPageCases.all());
    all.addAll(IssueCases.all());
    return all;
  }

  /** Cases and passing cases per area of the whole suite, each case's check run (see {@link #counts(List)}). */
  static Map<String, Count> counts() {
    return counts(all());
  }

  /**
   * Cases and passing cases per area, in the cases' order. Each case's check is run: a case passes
   * only when its check passes and it is not a known difference, so an unmarked case that fails is
   * counted as not passing (and the table comparison then fails) rather than taken on trust.
   */
  static Map<String, Count> counts(List<UpstreamCase> cases) {
    Map<String, Count> out = new LinkedHashMap<>();
    for (UpstreamCase c : cases) {
      Count was = out.getOrDefault(c.area(), new Count(0, 0));
      out.put(c.area(), new Count(was.cases() + 1, was.passing() + (c.counted() ? 1 : 0)));
    }
    return out;
  }
}
