package io.gpufleet.model.cloud;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One of an EC2NodeClass's {@code capacityReservationSelectorTerms} ({@code A:pkg/apis/v1/ec2nodeclass.go}
 * CapacityReservationSelectorTerm): by {@code id} alone, or by {@code tags} (a value {@code *} matches
 * any value of the key), {@code ownerID} and {@code instanceMatchCriteria} together. Terms are ORed.
 */
public record CapacityReservationSelectorTerm(Optional<String> id, Map<String, String> tags, Optional<String> ownerId,
    Optional<CapacityReservation.MatchCriteria> instanceMatchCriteria) {

  public CapacityReservationSelectorTerm {
    Objects.requireNonNull(id, "id");
    tags = Map.copyOf(new TreeMap<>(tags));
    Objects.requireNonNull(ownerId, "ownerId");
    Objects.requireNonNull(instanceMatchCriteria, "instanceMatchCriteria");
  }

  public static CapacityReservationSelectorTerm byId(String id) {
    return new CapacityReservationSelectorTerm(Optional.of(id), Map.of(), Optional.empty(), Optional.empty());
  }

  /**
   * Whether the term selects the reservation, as the provider's queries filter EC2's list
   * ({@code A:pkg/providers/capacityreservation/types.go} QueriesFromSelectorTerms and
   * DescribeCapacityReservationsInput): an id query matches the id; a tags or match-criteria query
   * matches the owner (where given), every tag and the criteria (where given). A term with neither
   * an id, tags nor criteria makes no query.
   */
  public boolean selects(CapacityReservation r) {
    if (id.isPresent() && id.get().equals(r.id())) {
      return true;
    }
    if (tags.isEmpty() && instanceMatchCriteria.isEmpty()) {
      return false;
    }
    if (ownerId.isPresent() && !ownerId.get().equals(r.ownerId())) {
      return false;
    }
    if (instanceMatchCriteria.isPresent() && instanceMatchCriteria.get() != r.instanceMatchCriteria()) {
      return false;
    }
    for (Map.Entry<String, String> t : tags.entrySet()) {
      String v = r.tags().get(t.getKey());
      if (v == null || !(t.getValue().equals("*") || t.getValue().equals(v))) {
        return false;
      }
    }
    return true;
  }
}
