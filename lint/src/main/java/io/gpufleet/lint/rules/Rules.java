package io.gpufleet.lint.rules;

import io.gpufleet.lint.LintRule;
import java.util.List;
import java.util.Optional;

/** The registry: every rule gpufleet has, in the order the rule table lists them. */
public final class Rules {
  private Rules() {}

  private static final List<LintRule> ALL = List.of(
      new GpuRequestEqualsLimit(),
      new GpuWholeUnits(),
      new GpuPodUntolerated(),
      new GpuCapacityUntainted(),
      new GpuNodePoolWithoutLimit(),
      new InferencePoolConsolidation(),
      new SingleReplicaOnSpot(),
      new ServiceWithoutPdb(),
      new GraceShorterThanDrain(),
      new TimeSlicingUnderLatencySlo(),
      new MigConfigWithoutMig(),
      new MpsMemoryPerClient(),
      new ExpiryWithoutSurvivor(),
      new SharedGpuRequestOverOne(),
      new DevicePluginConfigMissing(),
      new PodGraceOverNodePoolGrace(),
      new SharedPoolSizing(),
      new GpuModelUnselected(),
      new KarpenterOldApi(),
      new ManifestRejected());

  public static List<LintRule> all() {
    return ALL;
  }

  public static Optional<LintRule> byId(String id) {
    return ALL.stream().filter(r -> r.id().equals(id)).findFirst();
  }
}
