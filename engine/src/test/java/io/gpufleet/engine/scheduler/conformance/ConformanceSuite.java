package io.gpufleet.engine.scheduler.conformance;

import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;

/** Every translated case; docs/conformance.md shows their counts per plugin (the cases' area). */
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
}
