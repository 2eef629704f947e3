package io.gpufleet.autoscaler.reservation;

import io.gpufleet.model.cloud.CapacityReservation;
import io.gpufleet.model.karpenter.NodeClaim;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The capacity-block expiration controller ({@code A:pkg/controllers/capacityreservation/expiration/controller.go}):
 * NodeClaims labelled with a reservation that is {@code expiring} (a capacity block within 40 minutes
 * of its end) are deleted, so they drain before EC2 starts reclaiming the instances 10 minutes later.
 * An ODCR ({@code default}) never expires so; its instances stay, as on-demand ({@link CapacityTypeDemotion}).
 */
public final class CapacityBlockExpiration {
  private CapacityBlockExpiration() {}

  /** The claims, not already deleting, to delete now; {@code ec2} is every reservation EC2 lists. */
  public static List<NodeClaim> toDelete(Collection<NodeClaim> claims, Collection<CapacityReservation> ec2,
      Instant now) {
    List<NodeClaim> out = new ArrayList<>();
    for (NodeClaim c : claims) {
      Optional<String> id = c.labels().get(CapacityReservation.ID_LABEL);
      if (id.isEmpty() || c.isDeleting()) {
        continue;
      }
      for (CapacityReservation r : ec2) {
        if (r.id().equals(id.get()) && r.listed(now) && r.state(now) == CapacityReservation.State.EXPIRING) {
          out.add(c);
        }
      }
    }
    return out;
  }
}
