package io.gpufleet.queue.api;

import java.util.Optional;

/**
 * The part of Kueue's manager Configuration ({@code config.kueue.x-k8s.io}, {@code apis/config/})
 * the twin acts on: {@code waitForPodsReady}, empty when it is off.
 */
public record KueueConfiguration(Optional<WaitForPodsReady> waitForPodsReady) {

  /** No Configuration given: Kueue's defaults at the commit the twin follows (WaitForPodsReady on). */
  public static final KueueConfiguration DEFAULT = new KueueConfiguration(Optional.of(WaitForPodsReady.DEFAULT));
}
