package io.gpufleet.queue.api;

import java.util.Optional;

/**
 * The part of Kueue's manager Configuration ({@code config.kueue.x-k8s.io}, {@code apis/config/})
 * the twin acts on: {@code waitForPodsReady}, empty when it is off, and fair sharing, empty unless
 * configured.
 */
public record KueueConfiguration(Optional<WaitForPodsReady> waitForPodsReady, Optional<FairSharingConfig> fairSharing) {

  /**
   * No Configuration given: Kueue's defaults at the commit the twin follows (v1beta2: WaitForPodsReady
   * on, no fair sharing).
   */
  public static final KueueConfiguration DEFAULT =
      new KueueConfiguration(Optional.of(WaitForPodsReady.DEFAULT), Optional.empty());

  /** The defaults with fair sharing on. */
  public static KueueConfiguration withFairSharing(FairSharingConfig fs) {
    return new KueueConfiguration(DEFAULT.waitForPodsReady(), Optional.of(fs));
  }
}
