package io.gpufleet.scenario;

import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.manifest.yaml.YNode;
import io.gpufleet.model.cloud.CapacityReservation;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.cloud.Offering;
import io.gpufleet.model.wire.WireEnum;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The scenario's {@code spec.capacityReservations}: the capacity reservations EC2 holds for the
 * account, which EC2NodeClasses select by their {@code capacityReservationSelectorTerms}. Each is
 * what {@code DescribeCapacityReservations} would list: an id, an instance type in a zone it is
 * offered in, a count, a type ({@code default}, an On-Demand Capacity Reservation, or
 * {@code capacity-block}, a Capacity Block for ML, which always has a start and an end and is
 * targeted), its owner, tags and match criteria, and the price EC2 bills an instance in it.
 */
final class CapacityReservationReader {
  private CapacityReservationReader() {}

  static final Set<String> FIELDS = Set.of("id", "instanceType", "zone", "count", "type", "instanceMatchCriteria",
      "ownerID", "tags", "start", "end", "price");
  /** The account the reservations belong to unless said: AWS's documentation example account. */
  static final String DEFAULT_OWNER = "111122223333";
  /** The EC2NodeClass status patterns ({@code A:pkg/apis/v1/ec2nodeclass_status.go} CapacityReservation). */
  static final Pattern ID = Pattern.compile("^cr-[0-9a-z]+$");
  static final Pattern OWNER = Pattern.compile("^[0-9]{12}$");

  static List<CapacityReservation> read(Cursor list, InstanceCatalog catalog) {
    List<CapacityReservation> out = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (Cursor c : list.asList()) {
      c.checkKnown(FIELDS, true);
      String id = c.requiredString("id");
      boolean idOk = false;
      if (!id.isEmpty() && !ID.matcher(id).matches()) {
        c.get("id").get().error("expected an id matching " + ID.pattern() + " (such as cr-0123456789abcdef0), found \""
            + id + "\"");
      } else if (!id.isEmpty() && !ids.add(id)) {
        c.get("id").get().error("capacity reservation " + id + " is declared twice");
      } else {
        idOk = !id.isEmpty();
      }
      Optional<CapacityReservation.Type> type = oneOf(c, "type", CapacityReservation.Type.class,
          CapacityReservation.Type.DEFAULT);
      String typeName = c.requiredString("instanceType");
      Optional<InstanceType> t = typeName.isEmpty() ? Optional.empty() : catalog.find(typeName);
      if (!typeName.isEmpty() && t.isEmpty()) {
        c.get("instanceType").get().error("no instance type \"" + typeName + "\" in the instance catalogue");
      }
      String zone = c.requiredString("zone");
      if (t.isPresent() && !zone.isEmpty() && t.get().offerings().stream().noneMatch(o -> o.zone().equals(zone))) {
        c.get("zone").get().error(typeName + " is not offered in " + zone + "; its zones: " + String.join(", ",
            t.get().offerings().stream().map(Offering::zone).distinct().sorted().toList()));
      }
      int count = c.require("count").map(Cursor::asInt).orElse(0);
      if (c.get("count").isPresent() && count < 1) {
        c.get("count").get().error("expected a count of at least 1, found " + count);
      }
      Optional<Instant> start = time(c, "start");
      Optional<Instant> end = time(c, "end");
      if (start.isPresent() && end.isPresent() && !end.get().isAfter(start.get())) {
        c.get("end").get().error("expected an end after the start (" + start.get() + "), found " + end.get());
      }
      boolean block = type.orElse(null) == CapacityReservation.Type.CAPACITY_BLOCK;
      CapacityReservation.MatchCriteria defaultCriteria = block ? CapacityReservation.MatchCriteria.TARGETED
          : CapacityReservation.MatchCriteria.OPEN;
      Optional<CapacityReservation.MatchCriteria> criteria = oneOf(c, "instanceMatchCriteria",
          CapacityReservation.MatchCriteria.class, defaultCriteria);
      if (block) {
        // A Capacity Block is bought for a time, at a price, and only targeted launches use it (AWS EC2 User
        // Guide, "Capacity Blocks for ML").
        for (String required : List.of("start", "end", "price")) {
          if (c.get(required).isEmpty()) {
            c.error("a capacity-block reservation needs " + required + (required.equals("price")
                ? " (what EC2 bills per instance-hour: the block's upfront price over its instance-hours)" : ""));
          }
        }
        if (criteria.orElse(null) == CapacityReservation.MatchCriteria.OPEN) {
          c.get("instanceMatchCriteria").get().error("a capacity-block reservation is targeted, found \"open\"");
        }
      }
      String owner = c.string("ownerID", DEFAULT_OWNER);
      if (!OWNER.matcher(owner).matches()) {
        c.get("ownerID").get().error("expected a 12-digit account id, found \"" + owner + "\"");
      }
      Map<String, String> tags = c.stringMap("tags");
      OptionalDouble price = c.get("price").map(CapacityReservationReader::price).orElse(OptionalDouble.empty());
      if (idOk && t.isPresent() && !zone.isEmpty() && count >= 1 && type.isPresent() && criteria.isPresent()) {
        out.add(new CapacityReservation(id, typeName, zone, owner, criteria.get(), tags, type.get(), count, start, end,
            price));
      }
    }
    return out;
  }

  private static <E extends Enum<E> & WireEnum> Optional<E> oneOf(Cursor c, String key, Class<E> type, E fallback) {
    Optional<Cursor> v = c.get(key);
    if (v.isEmpty()) {
      return Optional.of(fallback);
    }
    String s = v.get().asString();
    Optional<E> e = WireEnum.fromWire(type, s);
    if (e.isEmpty()) {
      v.get().error("expected one of " + String.join(", ", WireEnum.wireNames(type)) + ", found \"" + s + "\"");
    }
    return e;
  }

  private static Optional<Instant> time(Cursor c, String key) {
    Optional<Cursor> v = c.get(key);
    if (v.isEmpty()) {
      return Optional.empty();
    }
    String s = v.get().asString();
    try {
      return Optional.of(Instant.parse(s));
    } catch (DateTimeParseException e) {
      v.get().error("expected an RFC 3339 time such as 2026-01-05T09:00:00Z, found \"" + s + "\"");
      return Optional.empty();
    }
  }

  private static OptionalDouble price(Cursor c) {
    if (c.node() instanceof YNode.YScalar s
        && (s.type() == YNode.YScalar.Type.INTEGER || s.type() == YNode.YScalar.Type.FLOAT)
        && Double.parseDouble(s.text()) >= 0) {
      return OptionalDouble.of(Double.parseDouble(s.text()));
    }
    c.expected("a non-negative number (dollars per instance-hour)");
    return OptionalDouble.empty();
  }
}
