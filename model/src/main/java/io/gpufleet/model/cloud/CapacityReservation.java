package io.gpufleet.model.cloud;

import io.gpufleet.model.wire.WireEnum;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * An EC2 capacity reservation: an On-Demand Capacity Reservation ({@code default}) or a Capacity
 * Block for ML ({@code capacity-block}), for {@code count} instances of one type in one zone, from
 * {@code start} (none: already active) to {@code end} (none: until cancelled). Its fields are those
 * the AWS provider keeps in an EC2NodeClass's {@code status.capacityReservations}
 * ({@code A:pkg/apis/v1/ec2nodeclass_status.go} CapacityReservation); {@code price} is what EC2 bills
 * an instance in it per hour, where the scenario states it (a Capacity Block's upfront price per
 * instance-hour); without it an instance is billed at the type's on-demand price, as EC2 bills an
 * ODCR ("Capacity Reservation pricing and billing", AWS EC2 User Guide).
 */
public record CapacityReservation(String id, String instanceType, String zone, String ownerId,
    MatchCriteria instanceMatchCriteria, Map<String, String> tags, Type type, int count, Optional<Instant> start,
    Optional<Instant> end, OptionalDouble price) {

  /** {@code A:pkg/apis/v1/labels.go} LabelCapacityReservationID (core's {@code cloudprovider.ReservationIDLabel}). */
  public static final String ID_LABEL = "karpenter.k8s.aws/capacity-reservation-id";
  /** {@code A:pkg/apis/v1/labels.go} LabelCapacityReservationType. */
  public static final String TYPE_LABEL = "karpenter.k8s.aws/capacity-reservation-type";
  /**
   * A capacity block is {@code expiring} this long before its end: Karpenter stops launching into it
   * and deletes its NodeClaims ({@code A:pkg/apis/v1/ec2nodeclass_status.go} CapacityReservationFromEC2,
   * capacityReservationExpirationPeriod; {@code A:pkg/controllers/capacityreservation/expiration/controller.go}).
   */
  public static final Duration EXPIRATION_PERIOD = Duration.ofMinutes(40);
  /**
   * EC2 starts taking a capacity block's instances back this long before its end, 10 minutes after
   * Karpenter began ({@code A:pkg/controllers/capacityreservation/expiration/controller.go}: "40 minutes
   * before the capacity-block's end time, 10 minutes before EC2 begins reclaiming the instances").
   */
  public static final Duration EC2_RECLAIM_BEFORE_END = Duration.ofMinutes(30);
  /**
   * A reserved offering's price is the on-demand price over this: "free" while keeping the types'
   * relative order for consolidation ({@code A:pkg/providers/instancetype/offering/reserved_capacity_resolver.go}).
   */
  public static final double RESERVED_PRICE_DIVISOR = 10_000_000.0;

  /** {@code reservationType}: {@code A:pkg/apis/v1/ec2nodeclass_status.go} CapacityReservationType. */
  public enum Type implements WireEnum {
    DEFAULT,
    CAPACITY_BLOCK;

    @Override
    public String wireName() {
      return WireEnum.lowerKebab(this);
    }
  }

  /** {@code instanceMatchCriteria}: which launches the reservation takes (EC2's open or targeted). */
  public enum MatchCriteria implements WireEnum {
    OPEN,
    TARGETED;

    @Override
    public String wireName() {
      return WireEnum.lowerKebab(this);
    }
  }

  /**
   * Where the reservation stands: EC2's {@code scheduled}, {@code active} or {@code expired}, with the
   * AWS provider's {@code expiring} for a capacity block within {@link #EXPIRATION_PERIOD} of its end.
   */
  public enum State { SCHEDULED, ACTIVE, EXPIRING, EXPIRED }

  public CapacityReservation {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(instanceType, "instanceType");
    Objects.requireNonNull(zone, "zone");
    Objects.requireNonNull(ownerId, "ownerId");
    Objects.requireNonNull(instanceMatchCriteria, "instanceMatchCriteria");
    tags = Map.copyOf(new TreeMap<>(tags));
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(end, "end");
    Objects.requireNonNull(price, "price");
    if (count < 0) {
      throw new IllegalArgumentException("count must not be negative, found " + count);
    }
  }

  /** The reservation as EC2 and the AWS provider see it at {@code now}. */
  public State state(Instant now) {
    if (start.isPresent() && now.isBefore(start.get())) {
      return State.SCHEDULED;
    }
    if (end.isPresent() && !now.isBefore(end.get())) {
      return State.EXPIRED;
    }
    if (type == Type.CAPACITY_BLOCK && end.isPresent() && !now.isBefore(end.get().minus(EXPIRATION_PERIOD))) {
      return State.EXPIRING;
    }
    return State.ACTIVE;
  }

  /**
   * Whether EC2 lists it ({@code DescribeCapacityReservations} with {@code state=active}, as the
   * provider queries, {@code A:pkg/providers/capacityreservation/types.go}): started and not ended.
   */
  public boolean listed(Instant now) {
    State s = state(now);
    return s == State.ACTIVE || s == State.EXPIRING;
  }

  /** The price of its offering: the type's on-demand price over {@link #RESERVED_PRICE_DIVISOR}. */
  public static double offeringPrice(double onDemandPrice) {
    return onDemandPrice / RESERVED_PRICE_DIVISOR;
  }

  /** What EC2 bills an instance in it per hour: the stated price, else the on-demand price. */
  public double billedPrice(double onDemandPrice) {
    return price.orElse(onDemandPrice);
  }

  /** The same reservation ending at {@code when} (EC2 ends or cancels it then). */
  public CapacityReservation endingAt(Instant when) {
    return new CapacityReservation(id, instanceType, zone, ownerId, instanceMatchCriteria, tags, type, count, start,
        Optional.of(when), price);
  }
}
