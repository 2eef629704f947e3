package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.provisioning.NodePoolTemplate;
import io.gpufleet.model.cloud.InstanceType;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The instance types a single spot node may be replaced with, spot to spot: only with room to choose,
 * so the replacement is not the next most interrupted pool. At least 15 types cheaper than the node
 * must be left, and the replacement is offered the cheapest 15 of them, or as many as the NodePool's
 * minValues need when that is more ({@code K:pkg/controllers/disruption/consolidation.go}
 * computeSpotToSpotConsolidation, {@code MinInstanceTypesForSpotToSpotConsolidation}).
 */
public final class SpotToSpot {
  private SpotToSpot() {}

  /** {@code MinInstanceTypesForSpotToSpotConsolidation}. */
  public static final int MIN_INSTANCE_TYPES = 15;

  /**
   * The options a single spot candidate's replacement keeps, from {@code cheaperByPrice} (the types
   * cheaper than the candidate, cheapest first); empty, with the reason told to {@code why} in the
   * words of Karpenter's Unconsolidatable event, when there are too few.
   */
  public static Optional<List<InstanceType>> options(List<InstanceType> cheaperByPrice, NodePoolTemplate template,
      Consumer<String> why) {
    if (cheaperByPrice.size() < MIN_INSTANCE_TYPES) {
      why.accept("SpotToSpotConsolidation requires " + MIN_INSTANCE_TYPES + " cheaper instance type options than the "
          + "current candidate to consolidate, got " + cheaperByPrice.size());
      return Optional.empty();
    }
    int keep = Math.max(MIN_INSTANCE_TYPES, template.minTypesForMinValues(cheaperByPrice));
    return Optional.of(List.copyOf(cheaperByPrice.subList(0, Math.min(keep, cheaperByPrice.size()))));
  }
}
