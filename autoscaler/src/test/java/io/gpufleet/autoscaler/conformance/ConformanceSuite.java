package io.gpufleet.autoscaler.conformance;

import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;

/** Every translated Karpenter case; docs/conformance.md shows their counts per area. */
final class ConformanceSuite {
  private ConformanceSuite() {}

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
}
