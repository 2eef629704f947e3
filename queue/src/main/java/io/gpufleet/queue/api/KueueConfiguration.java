package io.gpufleet.queue.api;

import java.util.Optional;

/**
 * The part of Kueue's manager Configuration ({@code config.kueue.x-k8s.io}, kind Configuration) the
 * twin acts on: fair sharing, absent unless configured, as in Kueue.
 */
public record KueueConfiguration(Optional<FairSharingConfig> fairSharing) {

  /** Kueue's defaults: no fair sharing. */
  public static final KueueConfiguration DEFAULT = new KueueConfiguration(Optional.empty());

  public static KueueConfiguration withFairSharing(FairSharingConfig fs) {
    return new KueueConfiguration(Optional.of(fs));
  }
}
