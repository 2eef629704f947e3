package io.gpufleet.engine.advise;

import io.gpufleet.model.advise.GpuNodeOffer;
import java.util.Objects;

/** The nodes an option needs: how many of which type, and what they cost a month on demand. */
public record NodePlan(GpuNodeOffer offer, int nodes) {

  public NodePlan {
    Objects.requireNonNull(offer, "offer");
    if (nodes < 1) {
      throw new IllegalArgumentException("a node plan needs at least one node");
    }
  }

  /** nodes × on-demand $/h × 730 h. */
  public double monthlyCost() {
    return nodes * offer.monthly();
  }

  public String instanceType() {
    return offer.instanceType();
  }
}
