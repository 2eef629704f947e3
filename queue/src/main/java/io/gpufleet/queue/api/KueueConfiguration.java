package io.gpufleet.queue.api;

import java.util.List;
import java.util.Optional;

/**
 * The part of Kueue's manager Configuration ({@code config.kueue.x-k8s.io}, {@code apis/config/})
 * the twin acts on: {@code waitForPodsReady}, empty when it is off, fair sharing, empty unless
 * configured, and {@code integrations.frameworks}, the job kinds Kueue manages.
 */
public record KueueConfiguration(Optional<WaitForPodsReady> waitForPodsReady, Optional<FairSharingConfig> fairSharing,
    List<String> frameworks) {

  /** {@code defaults.go} defaultJobFrameworkName: the one framework enabled when the list is empty. */
  public static final String JOB_FRAMEWORK = "batch/job";
  /** The pod integration's name ({@code pkg/controller/jobs/pod} FrameworkName). */
  public static final String POD_FRAMEWORK = "pod";

  public KueueConfiguration {
    frameworks = frameworks.isEmpty() ? List.of(JOB_FRAMEWORK) : List.copyOf(frameworks);
  }

  /** Without {@code integrations}: batch/job alone, as {@code defaults.go} sets it. */
  public KueueConfiguration(Optional<WaitForPodsReady> waitForPodsReady, Optional<FairSharingConfig> fairSharing) {
    this(waitForPodsReady, fairSharing, List.of());
  }

  /**
   * No Configuration given: Kueue's defaults at the commit the twin follows (v1beta2: WaitForPodsReady
   * on, no fair sharing, batch/job the only integration; the Configuration Kueue's release manifests
   * ship enables more, "pod" among them).
   */
  public static final KueueConfiguration DEFAULT =
      new KueueConfiguration(Optional.of(WaitForPodsReady.DEFAULT), Optional.empty());

  /** The defaults with fair sharing on. */
  public static KueueConfiguration withFairSharing(FairSharingConfig fs) {
    return new KueueConfiguration(DEFAULT.waitForPodsReady(), Optional.of(fs));
  }

  /** Whether Kueue's manager runs this integration ({@code integrations.frameworks}). */
  public boolean manages(String framework) {
    return frameworks.contains(framework);
  }
}
