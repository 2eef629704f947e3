package io.gpufleet.queue.conformance;

import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;

/** Every translated Kueue case; docs/conformance.md shows their counts per area. */
final class ConformanceSuite {
  private ConformanceSuite() {}

  static List<UpstreamCase> all() {
    List<UpstreamCase> all = new ArrayList<>();
    all.addAll(QuotaCases.all());
    all.addAll(FlavorAssignerCases.all());
    all.addAll(ScheduleCases.all());
    all.addAll(PreemptionCases.all());
    all.addAll(PodsReadyCases.all());
    all.addAll(FairSharingCases.all());
    all.addAll(TasCases.all());
    all.addAll(PodGroupCases.all());
    all.addAll(JobSetCases.all());
    return all;
  }
}
