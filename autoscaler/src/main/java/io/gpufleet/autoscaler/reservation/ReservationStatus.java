package io.gpufleet.autoscaler.reservation;

import io.gpufleet.model.cloud.CapacityReservation;
import io.gpufleet.model.karpenter.EC2NodeClass;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The nodeclass controller's capacity reservations ({@code A:pkg/controllers/nodeclass/capacityreservation.go}):
 * the reservations EC2 lists now ({@code state=active}, so neither scheduled nor expired) that some
 * selector term selects, each with its state ({@code expiring} for a capacity block in its last 40
 * minutes, {@code A:pkg/apis/v1/ec2nodeclass_status.go} CapacityReservationFromEC2) and the instances
 * it still takes (the provider's availability cache, synced from EC2's available count).
 */
public final class ReservationStatus {
  private ReservationStatus() {}

  /** {@code nodeClass}'s status over EC2's reservations, in EC2's order; {@code available} by reservation id. */
  public static List<EC2NodeClass.ReservationStatus> resolve(EC2NodeClass nodeClass,
      Collection<CapacityReservation> ec2, Map<String, Integer> available, Instant now) {
    List<EC2NodeClass.ReservationStatus> out = new ArrayList<>();
    for (CapacityReservation r : ec2) {
      if (r.listed(now) && nodeClass.selects(r)) {
        out.add(new EC2NodeClass.ReservationStatus(r, r.state(now), Math.max(0, available.getOrDefault(r.id(),
            r.count()))));
      }
    }
    return out;
  }
}
