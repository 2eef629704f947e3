package io.gpufleet.model.karpenter;

import io.gpufleet.model.resource.ResourceList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@code karpenter.sh/v1alpha1} NodeOverlay ({@code K:pkg/apis/v1alpha1/nodeoverlay.go}): for the
 * instance types and offerings its requirements match, a price ({@code price}, or {@code
 * priceAdjustment}: {@code +0.5}, {@code -0.5}, {@code +10%}, {@code -15%}) and extended resources added
 * to their capacity, as Karpenter's scheduling simulation sees them. Higher {@code weight} first; equal
 * weights by name, the later name first.
 *
 * @param weight 1..10000, or 0 when not set
 */
public record NodeOverlay(String name, List<NodePoolRequirement> requirements, Optional<String> price,
    Optional<String> priceAdjustment, ResourceList capacity, int weight) {

  public NodeOverlay {
    Objects.requireNonNull(name, "name");
    requirements = List.copyOf(requirements);
    Objects.requireNonNull(price, "price");
    Objects.requireNonNull(priceAdjustment, "priceAdjustment");
    Objects.requireNonNull(capacity, "capacity");
  }

  /** Whether it changes prices. */
  public boolean changesPrice() {
    return price.isPresent() || priceAdjustment.isPresent();
  }

  /** The price or the adjustment it sets, if any: what {@link #adjustedPrice} reads. */
  public Optional<String> priceChange() {
    return price.or(() -> priceAdjustment);
  }

  /**
   * The price an offering priced {@code base} gets from a {@code price} or {@code priceAdjustment}
   * ({@code K:pkg/cloudprovider/types.go} AdjustedPrice): an unsigned value is the price itself; a
   * signed one moves the base by that amount, or by that percentage with {@code %}; never below zero.
   */
  public static double adjustedPrice(double base, String change) {
    if (!change.startsWith("+") && !change.startsWith("-")) {
      return Double.parseDouble(change);
    }
    double out = change.endsWith("%")
        ? base * (1 + Double.parseDouble(change.substring(0, change.length() - 1)) / 100)
        : base + Double.parseDouble(change);
    return Math.max(0, out);
  }
}
