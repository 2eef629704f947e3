package io.gpufleet.sim.controller;

import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.time.GoDuration;
import io.gpufleet.sim.metrics.Traffic;
import io.gpufleet.sim.state.PodState;
import java.time.Duration;
import java.util.Optional;

/**
 * How long a pod takes to exit once told to stop (SIGTERM): what it needs, never more than its
 * {@code terminationGracePeriodSeconds}, after which the kubelet kills it. What it needs is what the
 * pod declares with {@code gpufleet.io/shutdown-duration} on its template (Go duration syntax, e.g.
 * {@code 20s}); without one, a serving pod whose traffic is modelled finishes its in-flight requests
 * (one request duration), a pod whose containers never started exits at once, and any other running
 * pod is taken to use its whole grace period, the most Kubernetes lets it.
 */
final class PodShutdown {
  private PodShutdown() {}

  static final String ANNOTATION = "gpufleet.io/shutdown-duration";

  /** From the stop request to the exit. */
  static Duration of(PodState p, Traffic traffic) {
    return of(p, traffic, Optional.empty());
  }

  /**
   * From a stop request that may set its own grace period (a delete with {@code gracePeriodSeconds},
   * as Karpenter's forced deletion sends) to the exit; the kubelet kills the pod when that grace ends.
   */
  static Duration of(PodState p, Traffic traffic, Optional<Duration> requestGrace) {
    Duration grace = requestGrace.orElse(Duration.ofSeconds(p.pod().spec().terminationGracePeriodSeconds()));
    Duration needed;
    Optional<Duration> declared = declared(p.pod());
    if (declared.isPresent()) {
      needed = declared.get();
    } else if (p.phase() != PodState.Phase.RUNNING) {
      needed = Duration.ZERO;
    } else if (!traffic.equals(Traffic.NONE)) {
      needed = p.ready().isPresent() ? traffic.requestDuration() : Duration.ZERO;
    } else {
      needed = grace;
    }
    return needed.compareTo(grace) < 0 ? needed : grace;
  }

  /** The declared shutdown time; the manifest reader has refused a value that is not a duration. */
  static Optional<Duration> declared(Pod p) {
    return p.meta().annotations().get(ANNOTATION).map(GoDuration::parse);
  }
}
