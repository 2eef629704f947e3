package io.gpufleet.autoscaler.conformance;

import static io.gpufleet.autoscaler.conformance.K.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.reservation.CapacityBlockExpiration;
import io.gpufleet.autoscaler.reservation.CapacityTypeDemotion;
import io.gpufleet.autoscaler.reservation.ReservationStatus;
import io.gpufleet.model.cloud.AllocatableEstimate;
import io.gpufleet.model.cloud.CapacityReservation;
import io.gpufleet.model.cloud.CapacityReservation.MatchCriteria;
import io.gpufleet.model.cloud.CapacityReservation.State;
import io.gpufleet.model.cloud.CapacityReservation.Type;
import io.gpufleet.model.cloud.CapacityReservationSelectorTerm;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.cloud.Offering;
import io.gpufleet.model.karpenter.EC2NodeClass;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.SplittableRandom;

/**
 * Cases from aws/karpenter-provider-aws about capacity reservations: the nodeclass controller's
 * resolution of {@code capacityReservationSelectorTerms} ({@code pkg/controllers/nodeclass/capacityreservation_test.go},
 * with its eight EC2 reservations as inputs), the capacity-block expiration and capacity-type
 * controllers, and the reserved offering the instance-type provider makes for a capacity block.
 */
final class ReservedCapacityCases {
  private ReservedCapacityCases() {}

  static final String AREA = "reserved capacity (AWS)";
  static final String NODECLASS = "aws:pkg/controllers/nodeclass/capacityreservation_test.go";
  static final String EXPIRATION = "aws:pkg/controllers/capacityreservation/expiration/suite_test.go";
  static final String CAPACITY_TYPE = "aws:pkg/controllers/capacityreservation/capacitytype/suite_test.go";
  static final String INSTANCE_TYPES = "aws:pkg/providers/instancetype/suite_test.go";
  static final String CLOUD_PROVIDER = "aws:pkg/cloudprovider/suite_test.go";

  static final String SELF = "012345678901";
  static final String ALT = "123456789012";
  /** The suite's discoveryTags. */
  static final Map<String, String> DISCOVERY = Map.of("karpenter.sh/discovery", "test");
  static final Map<String, String> BLOCK_TAGS = Map.of("reservation-type", "capacity-block");
  static final Map<String, String> INTERRUPTIBLE_TAGS = Map.of("reservation-interruptible", "true");

  static CapacityReservation cr(String id, String type, String zone, String owner, MatchCriteria mc,
      Map<String, String> tags, Type t, int count, Optional<Instant> end) {
    return new CapacityReservation(id, type, zone, owner, mc, tags, t, count, Optional.empty(), end,
        OptionalDouble.empty());
  }

  /** The DescribeCapacityReservations output of the suite's BeforeEach, in its order. */
  static List<CapacityReservation> ec2() {
    return List.of(
        cr("cr-m5.large-1a-1", "m5.large", "test-zone-1a", SELF, MatchCriteria.TARGETED, Map.of(), Type.DEFAULT, 10,
            Optional.empty()),
        cr("cr-m5.large-1a-2", "m5.large", "test-zone-1a", SELF, MatchCriteria.TARGETED, DISCOVERY, Type.DEFAULT, 10,
            Optional.empty()),
        cr("cr-p5.48xlarge-1a", "p5.48xlarge", "test-zone-1a", ALT, MatchCriteria.TARGETED, BLOCK_TAGS,
            Type.CAPACITY_BLOCK, 2, Optional.of(T0.plus(Duration.ofHours(24)))),
        cr("cr-m5.large-1b-1", "m5.large", "test-zone-1b", SELF, MatchCriteria.TARGETED, Map.of(), Type.DEFAULT, 15,
            Optional.empty()),
        cr("cr-m5.large-1b-2", "m5.large", "test-zone-1b", ALT, MatchCriteria.TARGETED, DISCOVERY, Type.DEFAULT, 15,
            Optional.empty()),
        cr("cr-m5.large-1a-3", "m5.large", "test-zone-1a", SELF, MatchCriteria.OPEN, Map.of(), Type.DEFAULT, 5,
            Optional.empty()),
        cr("cr-i-m5.large-1a-1", "m5.large", "test-zone-1a", SELF, MatchCriteria.OPEN, INTERRUPTIBLE_TAGS, Type.DEFAULT,
            10, Optional.empty()),
        cr("cr-nil-interruptible", "m5.large", "test-zone-1a", SELF, MatchCriteria.TARGETED, Map.of(), Type.DEFAULT, 5,
            Optional.empty()));
  }

  static EC2NodeClass nodeClass(CapacityReservationSelectorTerm... terms) {
    return new EC2NodeClass("default", OptionalInt.empty(), OptionalInt.empty(),
        AllocatableEstimate.Reservations.DEFAULTS, Optional.empty(), "", EC2NodeClass.imageIdOf(
            EC2NodeClass.DEFAULT_ALIAS), List.of(), List.of(), List.of(terms), List.of());
  }

  static CapacityReservationSelectorTerm tags(Map<String, String> tags) {
    return new CapacityReservationSelectorTerm(Optional.empty(), tags, Optional.empty(), Optional.empty());
  }

  static CapacityReservationSelectorTerm term(Map<String, String> tags, String owner, MatchCriteria mc) {
    return new CapacityReservationSelectorTerm(Optional.empty(), tags, Optional.ofNullable(owner),
        Optional.ofNullable(mc));
  }

  /** The class's status.capacityReservations after a reconcile at {@code now} over {@code ec2}. */
  static List<EC2NodeClass.ReservationStatus> status(EC2NodeClass c, List<CapacityReservation> ec2, Instant now) {
    return ReservationStatus.resolve(c, ec2, Map.of(), now);
  }

  static List<String> ids(List<EC2NodeClass.ReservationStatus> s) {
    return s.stream().map(r -> r.reservation().id()).toList();
  }

  static List<UpstreamCase> all() {
    List<UpstreamCase> c = new ArrayList<>();
    c.add(UpstreamCase.of(AREA, NODECLASS, "should resolve capacity reservations by ID", () -> {
      var s = status(nodeClass(CapacityReservationSelectorTerm.byId("cr-m5.large-1a-1")), ec2(), T0);
      assertThat(s).hasSize(1);
      CapacityReservation r = s.getFirst().reservation();
      assertThat(List.of(r.id(), r.instanceMatchCriteria().wireName(), r.ownerId(), r.instanceType(), r.zone(),
          r.type().wireName())).containsExactly("cr-m5.large-1a-1", "targeted", SELF, "m5.large", "test-zone-1a",
          "default");
      assertThat(r.end()).isEmpty();
      assertThat(s.getFirst().state()).isEqualTo(State.ACTIVE);
    }));
    c.add(UpstreamCase.of(AREA, NODECLASS, "should resolve capacity reservations by tags", () ->
        assertThat(ids(status(nodeClass(tags(DISCOVERY)), ec2(), T0)))
            .containsExactlyInAnyOrder("cr-m5.large-1a-2", "cr-m5.large-1b-2")));
    c.add(UpstreamCase.of(AREA, NODECLASS, "should resolve capacity reservations by tags + owner", () ->
        assertThat(ids(status(nodeClass(term(DISCOVERY, SELF, null)), ec2(), T0)))
            .containsExactly("cr-m5.large-1a-2")));
    c.add(UpstreamCase.of(AREA, NODECLASS, "should resolve capacity reservations by instance match criteria 'open'",
        () -> {
          var s = status(nodeClass(term(Map.of(), null, MatchCriteria.OPEN)), ec2(), T0);
          assertThat(ids(s)).containsExactlyInAnyOrder("cr-m5.large-1a-3", "cr-i-m5.large-1a-1");
          assertThat(s).allSatisfy(r -> assertThat(r.reservation().instanceMatchCriteria().wireName())
              .isEqualTo("open"));
        }));
    c.add(UpstreamCase.of(AREA, NODECLASS,
        "should resolve capacity reservations by instance match criteria 'targeted'", () -> {
          var s = status(nodeClass(term(Map.of(), null, MatchCriteria.TARGETED)), ec2(), T0);
          assertThat(ids(s)).containsExactlyInAnyOrder("cr-m5.large-1a-1", "cr-m5.large-1a-2", "cr-p5.48xlarge-1a",
              "cr-m5.large-1b-1", "cr-m5.large-1b-2", "cr-nil-interruptible");
          assertThat(s).allSatisfy(r -> assertThat(r.reservation().instanceMatchCriteria().wireName())
              .isEqualTo("targeted"));
        }));
    c.add(UpstreamCase.of(AREA, NODECLASS,
        "should resolve capacity reservations by instance match criteria with tags", () ->
            assertThat(ids(status(nodeClass(term(DISCOVERY, null, MatchCriteria.TARGETED)), ec2(), T0)))
                .containsExactlyInAnyOrder("cr-m5.large-1a-2", "cr-m5.large-1b-2")));
    c.add(UpstreamCase.of(AREA, NODECLASS,
        "should resolve capacity reservations by instance match criteria with tags and owner", () -> {
          var s = status(nodeClass(term(DISCOVERY, SELF, MatchCriteria.TARGETED)), ec2(), T0);
          assertThat(ids(s)).containsExactly("cr-m5.large-1a-2");
          assertThat(s.getFirst().reservation().ownerId()).isEqualTo(SELF);
        }));
    c.add(UpstreamCase.of(AREA, NODECLASS, "should exclude expired capacity reservations", () -> {
      // The first reservation ends an hour from now; two hours later EC2 no longer lists it.
      List<CapacityReservation> out = new ArrayList<>(ec2());
      out.set(0, out.getFirst().endingAt(T0.plus(Duration.ofHours(1))));
      EC2NodeClass nc = nodeClass(CapacityReservationSelectorTerm.byId("cr-m5.large-1a-1"));
      assertThat(ids(status(nc, out, T0))).containsExactly("cr-m5.large-1a-1");
      assertThat(status(nc, out, T0.plus(Duration.ofHours(2)))).isEmpty();
    }));
    // The DescribeTable's entries are EC2's states other than active; the twin's reservations are
    // scheduled before their start and expired after their end, the two a scenario can give.
    c.add(UpstreamCase.of(AREA, NODECLASS, "should exclude non-active capacity reservations scheduled", () -> {
      List<CapacityReservation> out = new ArrayList<>(ec2());
      CapacityReservation r = out.getFirst();
      out.set(0, new CapacityReservation(r.id(), r.instanceType(), r.zone(), r.ownerId(), r.instanceMatchCriteria(),
          r.tags(), r.type(), r.count(), Optional.of(T0.plus(Duration.ofHours(1))), r.end(), r.price()));
      assertThat(status(nodeClass(CapacityReservationSelectorTerm.byId(r.id())), out, T0)).isEmpty();
    }));
    c.add(UpstreamCase.of(AREA, NODECLASS, "should exclude non-active capacity reservations expired", () -> {
      List<CapacityReservation> out = new ArrayList<>(ec2());
      out.set(0, out.getFirst().endingAt(T0.minus(Duration.ofMinutes(1))));
      assertThat(status(nodeClass(CapacityReservationSelectorTerm.byId("cr-m5.large-1a-1")), out, T0)).isEmpty();
    }));
    c.add(UpstreamCase.of(AREA, NODECLASS, "should discover capacity block reservations", () -> {
      var s = status(nodeClass(tags(BLOCK_TAGS)), ec2(), T0);
      assertThat(ids(s)).containsExactly("cr-p5.48xlarge-1a");
      assertThat(s.getFirst().reservation().type()).isEqualTo(Type.CAPACITY_BLOCK);
      assertThat(s.getFirst().state()).isEqualTo(State.ACTIVE);
    }));
    c.add(UpstreamCase.of(AREA, NODECLASS, "should mark capacity blocks as expiring 40 minutes prior to their endDate",
        () -> {
          List<CapacityReservation> out = ec2().stream().map(r -> r.type() == Type.CAPACITY_BLOCK
              ? r.endingAt(T0.plus(Duration.ofMinutes(40))) : r).toList();
          var s = status(nodeClass(tags(BLOCK_TAGS)), out, T0);
          assertThat(ids(s)).containsExactly("cr-p5.48xlarge-1a");
          assertThat(s.getFirst().state()).isEqualTo(State.EXPIRING);
        }));
    c.add(UpstreamCase.of(AREA, NODECLASS,
        "shouldn't mark default capacity reservations as expiring 40 minutes prior to their endDate", () -> {
          List<CapacityReservation> out = ec2().stream().map(r -> r.endingAt(T0.plus(Duration.ofMinutes(40)))).toList();
          var s = status(nodeClass(tags(DISCOVERY)), out, T0);
          assertThat(s).hasSize(2).allSatisfy(r -> {
            assertThat(r.reservation().type()).isEqualTo(Type.DEFAULT);
            assertThat(r.state()).isEqualTo(State.ACTIVE);
          });
        }));

    c.add(UpstreamCase.of(AREA, EXPIRATION, "should delete nodeclaims associated with expiring capacity-block "
        + "reservations", () -> {
          List<CapacityReservation> crs = List.of(
              cr("cr-expiring", "m5.large", "test-zone-1a", SELF, MatchCriteria.TARGETED, Map.of(),
                  Type.CAPACITY_BLOCK, 1, Optional.of(T0.plus(Duration.ofMinutes(39)))),
              cr("cr-active", "m5.large", "test-zone-1a", SELF, MatchCriteria.TARGETED, Map.of(),
                  Type.CAPACITY_BLOCK, 1, Optional.of(T0.plus(Duration.ofMinutes(60)))));
          assertThat(CapacityBlockExpiration.toDelete(claimsIn(crs), crs, T0)).extracting(x -> x.labels()
              .get(CapacityReservation.ID_LABEL).orElseThrow()).containsExactly("cr-expiring");
        }));
    c.add(UpstreamCase.of(AREA, EXPIRATION, "should not delete nodeclaims associated with standard capacity "
        + "reservations within the capacity block expiration window", () -> {
          // Upstream's second reservation is an interruptible default one; the twin has no interruptible flag.
          List<CapacityReservation> crs = List.of(
              cr("cr-default", "m5.large", "test-zone-1a", SELF, MatchCriteria.TARGETED, Map.of(), Type.DEFAULT, 1,
                  Optional.of(T0.plus(Duration.ofMinutes(39)))),
              cr("cr-default-interruptible", "m5.large", "test-zone-1a", SELF, MatchCriteria.TARGETED, Map.of(),
                  Type.DEFAULT, 1, Optional.of(T0.plus(Duration.ofMinutes(39)))));
          assertThat(CapacityBlockExpiration.toDelete(claimsIn(crs), crs, T0)).isEmpty();
        }));

    Labels reservedLabels = Labels.of(Map.of(KarpenterLabels.CAPACITY_TYPE, "reserved", CapacityReservation.ID_LABEL,
        "cr-foo", CapacityReservation.TYPE_LABEL, "default", "karpenter.sh/registered", "true"));
    c.add(UpstreamCase.of(AREA, CAPACITY_TYPE, "should demote nodeclaims and nodes from reserved to on-demand", () -> {
      // While EC2 reports the instance in its reservation nothing changes; once it reports it on-demand,
      // the capacity type is on-demand and both reservation labels are gone.
      assertThat(CapacityTypeDemotion.demoted(reservedLabels, CapacityType.RESERVED)).isEmpty();
      Labels demoted = CapacityTypeDemotion.demoted(reservedLabels, CapacityType.ON_DEMAND).orElseThrow();
      assertThat(demoted.get(KarpenterLabels.CAPACITY_TYPE)).contains("on-demand");
      assertThat(demoted.get(CapacityReservation.ID_LABEL)).isEmpty();
      assertThat(demoted.get(CapacityReservation.TYPE_LABEL)).isEmpty();
    }));
    c.add(UpstreamCase.of(AREA, CAPACITY_TYPE, "should demote nodes from reserved to on-demand even if their "
        + "nodeclaim was demoted previously", () -> {
          Labels claim = CapacityTypeDemotion.demoted(reservedLabels, CapacityType.ON_DEMAND).orElseThrow();
          assertThat(CapacityTypeDemotion.demoted(claim, CapacityType.ON_DEMAND)).isEmpty(); // the claim: done
          Labels node = CapacityTypeDemotion.demoted(reservedLabels, CapacityType.ON_DEMAND).orElseThrow();
          assertThat(node.get(KarpenterLabels.CAPACITY_TYPE)).contains("on-demand");
          assertThat(node.get(CapacityReservation.ID_LABEL)).isEmpty();
          assertThat(node.get(CapacityReservation.TYPE_LABEL)).isEmpty();
        }));

    // The Drift context: the class's status holds cr-foo, a default targeted m5.large reservation.
    CapacityReservation foo = cr("cr-foo", "m5.large", "test-zone-1a", SELF, MatchCriteria.TARGETED, Map.of(),
        Type.DEFAULT, 1, Optional.empty());
    EC2NodeClass withFoo = nodeClass().withCapacityReservations(List.of(new EC2NodeClass.ReservationStatus(foo,
        State.ACTIVE, 1)));
    c.add(UpstreamCase.of(AREA, CLOUD_PROVIDER, "should dynamically drift nodeclaims for capacity reservations", () -> {
      assertThat(withFoo.driftReason(inReservation("cr-foo"))).isEmpty();
      assertThat(withFoo.driftReason(inReservation("cr-bar"))).contains("CapacityReservationDrift");
    }));
    c.add(UpstreamCase.of(AREA, CLOUD_PROVIDER, "should not drift when capacity reservation falls back to on-demand",
        () -> {
          assertThat(withFoo.driftReason(inReservation("cr-foo"))).isEmpty();
          // The reservation leaves the status and the instance no longer runs in it (demoted to on-demand).
          NodeClaim fellBack = inReservation("cr-foo");
          fellBack = fellBack.withLabels(CapacityTypeDemotion.demoted(fellBack.labels(), CapacityType.ON_DEMAND)
              .orElseThrow());
          assertThat(nodeClass().driftReason(fellBack)).isEmpty();
        }));

    for (State state : List.of(State.ACTIVE, State.EXPIRING)) {
      c.add(UpstreamCase.of(AREA, INSTANCE_TYPES, "should create an offering for a capacity block when the capacity "
          + "block is " + state.name().toLowerCase(java.util.Locale.ROOT), () -> {
            // Upstream's c6g.large in test-zone-1a; here the catalogue's m5.large in us-east-1a.
            CapacityReservation r = cr("cr-123", "m5.large", "us-east-1a", SELF, MatchCriteria.TARGETED, Map.of(),
                Type.CAPACITY_BLOCK, 1, Optional.empty());
            EC2NodeClass nc = nodeClass().withCapacityReservations(List.of(new EC2NodeClass.ReservationStatus(r,
                state, 1)));
            InstanceType t = nc.apply(CATALOG.require("m5.large"));
            List<Offering> reserved = t.offerings().stream().filter(o -> o.capacityType() == CapacityType.RESERVED)
                .toList();
            assertThat(reserved).as("only a single reserved offering should exist").hasSize(1);
            Offering o = reserved.getFirst();
            assertThat(o.zone()).isEqualTo("us-east-1a");
            assertThat(o.reservation().orElseThrow().type().wireName()).isEqualTo("capacity-block");
            assertThat(o.reservationId()).contains("cr-123");
            assertThat(o.available()).isEqualTo(state != State.EXPIRING);
            assertThat(o.reservationCapacity()).isEqualTo(1);
          }));
    }
    return c;
  }

  /** A reserved m5.large NodeClaim whose instance runs in reservation {@code id}. */
  private static NodeClaim inReservation(String id) {
    InstanceType t = CATALOG.require("m5.large");
    NodeClaim claim = io.gpufleet.autoscaler.provisioning.Launcher.nodeClaim(pool("default"), t,
        t.offerings().getFirst(), ResourceList.EMPTY, T0, new SplittableRandom(3));
    return claim.withLabels(claim.labels().with(KarpenterLabels.CAPACITY_TYPE, "reserved")
        .with(CapacityReservation.ID_LABEL, id).with(CapacityReservation.TYPE_LABEL, "default"));
  }

  /** A NodeClaim labelled with each reservation's id, as upstream's tests make them. */
  private static List<NodeClaim> claimsIn(List<CapacityReservation> crs) {
    List<NodeClaim> out = new ArrayList<>();
    int seed = 1;
    for (CapacityReservation r : crs) {
      InstanceType t = CATALOG.require(r.instanceType());
      NodeClaim claim = io.gpufleet.autoscaler.provisioning.Launcher.nodeClaim(pool("default"), t,
          t.offerings().getFirst(), ResourceList.EMPTY, T0, new SplittableRandom(seed++));
      out.add(claim.withLabels(claim.labels().with(CapacityReservation.ID_LABEL, r.id())));
    }
    return out;
  }
}
