package io.gpufleet.queue.api;

import java.util.Optional;

/**
 * A pod set's topology request ({@code PodSetTopologyRequest}), read from its pod template's
 * annotations by Kueue's job framework ({@code pkg/controller/jobframework/tas.go}): a level all
 * pods must share ({@code kueue.x-k8s.io/podset-required-topology}), a level they should share
 * ({@code podset-preferred-topology}), or only TAS's capacity accounting
 * ({@code podset-unconstrained-topology: "true"}).
 */
public record TopologyRequest(Optional<String> required, Optional<String> preferred, boolean unconstrained) {

  public static final String REQUIRED_ANNOTATION = "kueue.x-k8s.io/podset-required-topology";
  public static final String PREFERRED_ANNOTATION = "kueue.x-k8s.io/podset-preferred-topology";
  public static final String UNCONSTRAINED_ANNOTATION = "kueue.x-k8s.io/podset-unconstrained-topology";

  public static TopologyRequest required(String level) {
    return new TopologyRequest(Optional.of(level), Optional.empty(), false);
  }

  public static TopologyRequest preferred(String level) {
    return new TopologyRequest(Optional.empty(), Optional.of(level), false);
  }

  public static TopologyRequest unconstrainedRequest() {
    return new TopologyRequest(Optional.empty(), Optional.empty(), true);
  }

  /** {@code IsExplicitlyRequestingTAS}: any of the three is set. */
  public boolean explicit() {
    return required.isPresent() || preferred.isPresent() || unconstrained;
  }
}
