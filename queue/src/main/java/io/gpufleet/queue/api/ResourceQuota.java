package io.gpufleet.queue.api;

import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceName;
import java.util.Optional;

/**
 * One resource's quota in a flavor: {@code nominalQuota}, and the optional {@code borrowingLimit}
 * (how much more it may take from its cohort) and {@code lendingLimit} (how much of its nominal
 * quota the cohort may use); {@code apis/kueue/v1beta2/clusterqueue_types.go} ResourceQuota.
 */
public record ResourceQuota(ResourceName name, Quantity nominalQuota, Optional<Quantity> borrowingLimit,
    Optional<Quantity> lendingLimit) {

  public static ResourceQuota of(String name, String nominal) {
    return new ResourceQuota(ResourceName.of(name), Quantity.parse(nominal), Optional.empty(), Optional.empty());
  }

  /** As Kueue's test wrapper {@code FlavorQuotas.Resource(name, nominal, borrowingLimit, lendingLimit)}: "" for unset. */
  public static ResourceQuota of(String name, String nominal, String borrowingLimit, String lendingLimit) {
    return new ResourceQuota(ResourceName.of(name), Quantity.parse(nominal),
        borrowingLimit.isEmpty() ? Optional.empty() : Optional.of(Quantity.parse(borrowingLimit)),
        lendingLimit.isEmpty() ? Optional.empty() : Optional.of(Quantity.parse(lendingLimit)));
  }
}
