package io.gpufleet.queue.api;

import io.gpufleet.model.wire.WireEnum;
import java.time.Duration;
import java.util.Optional;

/**
 * Kueue's {@code waitForPodsReady} configuration, defaulted ({@code apis/config/v1beta2/configuration_types.go}
 * WaitForPodsReady, {@code defaults.go}): an admitted workload whose pods are not all ready within
 * {@code timeout} of its admission is evicted ({@code PodsReadyTimeout}) and requeued after a
 * backoff; {@code blockAdmission} admits one workload at a time until every admitted one is ready;
 * {@code recoveryTimeout} (empty: off, as {@code "0s"}) bounds the wait for a failed pod's replacement.
 */
public record WaitForPodsReady(Duration timeout, boolean blockAdmission, RequeuingStrategy requeuingStrategy,
    Optional<Duration> recoveryTimeout) {

  /** {@code DefaultWaitForPodsReadyTimeout} of the v1beta2 Configuration (30 minutes). */
  public static final Duration V1BETA2_TIMEOUT = Duration.ofMinutes(30);
  /** {@code defaultPodsReadyTimeout} of the v1beta1 Configuration (5 minutes). */
  public static final Duration V1BETA1_TIMEOUT = Duration.ofMinutes(5);

  /**
   * What Kueue runs with when its Configuration says nothing (v1beta2 defaults; enabled by default
   * since Kueue 0.19, CHANGELOG-0.19 "WaitForPodsReady is now enabled by default"): 30 minutes,
   * recovery 30 minutes, blockAdmission false, the default requeuing strategy.
   */
  public static final WaitForPodsReady DEFAULT = new WaitForPodsReady(V1BETA2_TIMEOUT, false,
      RequeuingStrategy.DEFAULT, Optional.of(V1BETA2_TIMEOUT));

  /**
   * {@code requeuingStrategy}: the timestamp that orders a requeued workload, how many requeues
   * before it is deactivated (empty: endless), and the backoff's base and cap in seconds.
   */
  public record RequeuingStrategy(Timestamp timestamp, Optional<Integer> backoffLimitCount, int backoffBaseSeconds,
      int backoffMaxSeconds) {

    /** {@code DefaultRequeuingBackoffBaseSeconds} 60, {@code DefaultRequeuingBackoffMaxSeconds} 3600, Eviction. */
    public static final int DEFAULT_BASE_SECONDS = 60;
    public static final int DEFAULT_MAX_SECONDS = 3600;
    public static final RequeuingStrategy DEFAULT = new RequeuingStrategy(Timestamp.EVICTION, Optional.empty(),
        DEFAULT_BASE_SECONDS, DEFAULT_MAX_SECONDS);
  }

  /** {@code RequeuingTimestamp}: order a requeued workload by its eviction or by its creation. */
  public enum Timestamp implements WireEnum {
    EVICTION,
    CREATION
  }
}
