package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.autoscaler.requirement.Requirements;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.engine.workload.PodNames;
import io.gpufleet.model.cloud.CapacityReservation;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.InstanceLabels;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.cloud.Offering;
import io.gpufleet.model.karpenter.AutoMode;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodeClaimTemplate;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.resource.ResourceList;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;

/**
 * Turns a planned claim into the NodeClaim the AWS provider would launch (reference §1.4
 * "Launch (AWS)"): at most 600 instance types on the claim, capacity type chosen reserved, then
 * spot, then on-demand; spot offerings dearer than the cheapest on-demand one dropped when both are
 * allowed; GPU and metal types left out for pods that do not need them; of the 60 cheapest types the
 * cheapest offering wins (the fleet's lowest-price strategy, ties by type order then zone).
 */
public final class Launcher {
  private Launcher() {}

  static final int MAX_INSTANCE_TYPES = 600;
  static final int MAX_FLEET_TYPES = 60;

  /** A NodeClaim for the plan, or empty when no offering is available for it now. */
  public static Optional<NodeClaim> launch(PlannedClaim plan, OfferingAvailability offerings, Instant now,
      RandomGenerator random) {
    List<InstanceType> types = plan.instanceTypes();
    if (types.size() > MAX_INSTANCE_TYPES) {
      types = types.subList(0, MAX_INSTANCE_TYPES);
    }
    types = withoutExoticTypes(types);
    Requirements reqs = plan.requirements();
    Predicate<Offering> allowed = OfferingFilter.of(reqs)::admits;
    List<InstanceType> fleet = types.size() > MAX_FLEET_TYPES ? types.subList(0, MAX_FLEET_TYPES) : types;
    CapacityType chosen = null;
    for (CapacityType ct : List.of(CapacityType.RESERVED, CapacityType.SPOT, CapacityType.ON_DEMAND)) {
      if (cheapest(fleet, offerings, now, allowed.and(o -> o.capacityType() == ct)).isPresent()) {
        chosen = ct;
        break;
      }
    }
    if (chosen == null) {
      return Optional.empty();
    }
    CapacityType ct = chosen;
    Optional<Pick> pick = cheapest(fleet, offerings, now, allowed.and(o -> o.capacityType() == ct));
    if (ct == CapacityType.SPOT) {
      Optional<Pick> onDemand = cheapest(fleet, offerings, now,
          allowed.and(o -> o.capacityType() == CapacityType.ON_DEMAND));
      if (onDemand.isPresent() && pick.get().offering().pricePerHour() > onDemand.get().offering().pricePerHour()) {
        pick = onDemand;
      }
    }
    NodeClaim claim = nodeClaim(plan.template().pool(), pick.get().type(), pick.get().offering(),
        plan.requests().plus(plan.template().overhead()), now, random);
    if (!plan.draDrivers().isEmpty()) {
      // K:pkg/controllers/provisioning/scheduling/nodeclaim.go FinalizeScheduling.
      claim = claim.withAnnotations(claim.annotations().with(KarpenterLabels.REQUESTED_DRA_DRIVERS,
          String.join(",", plan.draDrivers())));
    }
    return Optional.of(claim.withLabels(claim.labels().withAll(customLabels(reqs, plan.template().wellKnown()))));
  }

  /**
   * Labels for the user-defined keys the claim's requirements narrow to concrete values, as Karpenter
   * resolves them at NodeClaim creation ({@code K:pkg/controllers/provisioning/scheduling/nodeclaimtemplate.go}
   * resolveCustomLabelsFromRequirements): well-known keys come from the instance type instead. Of
   * several allowed values the first in order is taken; upstream takes any one.
   */
  static Labels customLabels(Requirements reqs, Set<String> wellKnown) {
    TreeMap<String, String> out = new TreeMap<>();
    for (String key : reqs.keys()) {
      if (wellKnown.contains(key) || key.startsWith("kubernetes.io/") || key.startsWith("k8s.io/")) {
        continue;
      }
      reqs.get(key).filter(v -> v.isFinite() && !v.values().isEmpty()).ifPresent(v -> out.put(key, v.values().first()));
    }
    return Labels.of(out);
  }

  /**
   * Whether some instance type of the plan has a reserved offering its requirements admit, available
   * now: what upstream's scheduler reserves for a NodeClaim ({@code K:pkg/controllers/provisioning/
   * scheduling/nodeclaim.go} offeringsToReserve).
   */
  public static boolean reservedAvailable(PlannedClaim plan, OfferingAvailability offerings, Instant now) {
    OfferingFilter filter = OfferingFilter.of(plan.requirements());
    for (InstanceType t : plan.instanceTypes()) {
      for (Offering o : t.offerings()) {
        if (o.capacityType() == CapacityType.RESERVED && filter.admits(o) && offerings.isAvailable(t.name(), o, now)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The offering picked for a launch. */
  public record Pick(InstanceType type, Offering offering) {}

  /** The cheapest available offering over the types, ties to the earlier type, then the earlier zone. */
  static Optional<Pick> cheapest(List<InstanceType> types, OfferingAvailability offerings, Instant now,
      Predicate<Offering> filter) {
    Pick best = null;
    for (InstanceType t : types) {
      for (Offering o : t.available(filter)) {
        if (!offerings.isAvailable(t.name(), o, now)) {
          continue;
        }
        if (best == null || o.pricePerHour() < best.offering().pricePerHour()) {
          best = new Pick(t, o);
        }
        break; // available() is cheapest first: the first usable one is this type's best
      }
    }
    return Optional.ofNullable(best);
  }

  /** GPU and metal types leave the launch list unless nothing else would remain (reference §1.4). */
  static List<InstanceType> withoutExoticTypes(List<InstanceType> types) {
    List<InstanceType> plain = new ArrayList<>();
    for (InstanceType t : types) {
      if (t.gpuCount() == 0 && !t.size().contains("metal")) {
        plain.add(t);
      }
    }
    return plain.isEmpty() ? types : plain;
  }

  /** The NodeClaim a NodePool makes for an instance type and offering. */
  public static NodeClaim nodeClaim(NodePool pool, InstanceType type, Offering offering, ResourceList requests,
      Instant now, RandomGenerator random) {
    NodeClaimTemplate t = pool.template();
    Labels labels = t.labels().withAll(AutoMode.instanceLabels(type, t.nodeClassRef()))
        .with(KarpenterLabels.NODEPOOL, pool.name())
        .with(t.nodeClassRef().labelKey(), t.nodeClassRef().name())
        .with(KarpenterLabels.CAPACITY_TYPE, offering.capacityType().wireName())
        .with(InstanceLabels.ZONE, offering.zone());
    if (offering.reservation().isPresent()) {
      // The reserved offering's own requirements label the claim (A:pkg/providers/instancetype/offering/
      // reserved_capacity_resolver.go; A:pkg/apis/v1/labels.go LabelCapacityReservationID, ...Type).
      labels = labels.with(CapacityReservation.ID_LABEL, offering.reservation().get().id())
          .with(CapacityReservation.TYPE_LABEL, offering.reservation().get().type().wireName());
    }
    Labels annotations = t.annotations().with(KarpenterLabels.NODEPOOL_HASH, pool.templateHash());
    return new NodeClaim(pool.name() + "-" + PodNames.suffix(random, 5), pool.name(), type, offering, labels,
        annotations, t.taints(), t.startupTaints(), requests, pool.templateHash(), t.expireAfter(),
        t.terminationGracePeriod(), now, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty());
  }
}
