package io.gpufleet.autoscaler.conformance;

import static io.gpufleet.autoscaler.conformance.K.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.AutoscalerSettings.GpuSizing;
import io.gpufleet.autoscaler.action.Action;
import io.gpufleet.autoscaler.disruption.DisruptionCommand;
import io.gpufleet.autoscaler.disruption.DisruptionController;
import io.gpufleet.autoscaler.disruption.SpotToSpot;
import io.gpufleet.autoscaler.gpu.NvidiaDevicePlugin;
import io.gpufleet.autoscaler.lifecycle.NodeClaimLifecycle;
import io.gpufleet.autoscaler.provisioning.Launcher;
import io.gpufleet.autoscaler.provisioning.NodePoolTemplate;
import io.gpufleet.autoscaler.provisioning.PlannedClaim;
import io.gpufleet.autoscaler.provisioning.Provisioner;
import io.gpufleet.autoscaler.provisioning.ProvisioningModel;
import io.gpufleet.autoscaler.provisioning.ProvisioningPlan;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.cloud.Offering;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.karpenter.RequirementOperator;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Predicate;

/**
 * Insufficient capacity ({@code aws:pkg/providers/instancetype/suite_test.go}, Context "Insufficient
 * Capacity Error Cache"): each reconciliation attempt is a provisioning round of the twin's
 * provisioner and launcher; an offering EC2 has no capacity for fails the launch, Karpenter's answer
 * ({@link NodeClaimLifecycle#insufficientCapacity}) marks it unavailable, and the next round sees
 * that. And the spot-to-spot cut ({@code pkg/controllers/disruption/consolidation_test.go}).
 */
final class CapacityCases {
  private CapacityCases() {}

  static final String INSTANCE_TYPES = "aws:pkg/providers/instancetype/suite_test.go";
  static final String CONSOLIDATION = DisruptionCases.CONSOLIDATION;

  static List<UpstreamCase> all() {
    List<UpstreamCase> c = new ArrayList<>();
    insufficientCapacity(c);
    spotToSpot(c);
    return c;
  }

  // ---- insufficient capacity ----

  /** What one provisioning round launched, and the availability Karpenter keeps after EC2's answers. */
  record Round(List<NodeClaim> launched, List<Pod> unplanned, OfferingAvailability after) {}

  /**
   * One reconciliation attempt at {@code now}: plan, launch each claim; a launch into an offering
   * {@code ice} refuses fails, and Karpenter's actions for it are applied to the availability.
   */
  static Round round(NodePool pool, List<Pod> pods, OfferingAvailability offerings, Instant now,
      Predicate<NodeClaim> ice) {
    Provisioner p = new Provisioner(ProvisioningModel.of(List.of(pool), CATALOG, List.of(), NvidiaDevicePlugin.DEFAULTS,
        GpuSizing.PHYSICAL));
    ProvisioningPlan plan = p.solve(pods, List.of(), List.of(), offerings, now);
    List<NodeClaim> launched = new ArrayList<>();
    List<Pod> unplanned = new ArrayList<>(pods);
    OfferingAvailability after = offerings;
    for (PlannedClaim planned : plan.newClaims()) {
      Optional<NodeClaim> claim = Launcher.launch(planned, offerings, now, new SplittableRandom(7));
      if (claim.isEmpty()) {
        continue;
      }
      if (ice.test(claim.get())) {
        for (Action a : NodeClaimLifecycle.insufficientCapacity(claim.get(), "InsufficientInstanceCapacity", now)) {
          if (a instanceof Action.MarkOfferingUnavailable m) {
            after = after.markUnavailable(m.instanceType(), m.capacityType(), m.zone(), m.until());
          }
        }
        continue;
      }
      launched.add(claim.get());
      unplanned.removeAll(planned.pods());
    }
    return new Round(launched, unplanned, after);
  }

  static Predicate<NodeClaim> pool(String type, CapacityType ct, String zone) {
    return c -> c.instanceType().name().equals(type) && c.offering().capacityType() == ct
        && c.offering().zone().equals(zone);
  }

  private static void insufficientCapacity(List<UpstreamCase> c) {
    NodePool gpu = K.bare("gpu", NodePoolRequirement.in(FAMILY, "g5"), NodePoolRequirement.in(CAPACITY_TYPE,
        "on-demand"));
    c.add(UpstreamCase.of("insufficient capacity", INSTANCE_TYPES, "should launch instances of different type on "
        + "second reconciliation attempt with Insufficient Capacity Error Cache fallback", () -> {
      // Upstream: two 1-Neuron pods pinned to a zone, packed on one inf2.24xlarge that EC2 has none of.
      // Here: two 1-GPU pods in us-east-1a on g5.
      List<Pod> pods = List.of(selecting(pod("a", "nvidia.com/gpu", "1"), ZONE, "us-east-1a"),
          selecting(pod("b", "nvidia.com/gpu", "1"), ZONE, "us-east-1a"));
      Round first = round(gpu, pods, OfferingAvailability.ALL, T0, x -> true);
      assertThat(first.launched()).isEmpty();
      Set<String> refused = new java.util.TreeSet<>();
      Round probe = round(gpu, pods, OfferingAvailability.ALL, T0, x -> false);
      probe.launched().forEach(x -> refused.add(x.instanceType().name()));
      Round second = round(gpu, pods, first.after(), T0.plusSeconds(10), x -> false);
      assertThat(second.unplanned()).isEmpty();
      assertThat(second.launched()).isNotEmpty().allSatisfy(x -> assertThat(refused).doesNotContain(
          x.instanceType().name()));
    }));
    c.add(UpstreamCase.of("insufficient capacity", INSTANCE_TYPES, "should launch instances in a different zone on "
        + "second reconciliation attempt with Insufficient Capacity Error Cache fallback", () -> {
      List<Pod> pods = List.of(selecting(pod("a", "nvidia.com/gpu", "1"), TYPE, "g5.12xlarge"));
      NodeClaim tried = round(gpu, pods, OfferingAvailability.ALL, T0, x -> false).launched().getFirst();
      Predicate<NodeClaim> ice = pool("g5.12xlarge", CapacityType.ON_DEMAND, tried.offering().zone());
      Round first = round(gpu, pods, OfferingAvailability.ALL, T0, ice);
      assertThat(first.unplanned()).hasSize(1);
      NodeClaim node = round(gpu, pods, first.after(), T0.plusSeconds(10), ice).launched().getFirst();
      assertThat(node.instanceType().name()).isEqualTo("g5.12xlarge");
      assertThat(node.offering().zone()).isNotEqualTo(tried.offering().zone());
    }));
    c.add(UpstreamCase.of("insufficient capacity", INSTANCE_TYPES, "should launch smaller instances than optimal if "
        + "larger instance launch results in Insufficient Capacity Error", () -> {
      NodePool two = K.bare("general", NodePoolRequirement.in(TYPE, "m5.large", "m5.xlarge"),
          NodePoolRequirement.in(CAPACITY_TYPE, "on-demand"));
      List<Pod> pods = List.of(selecting(pod("a", "cpu", "1"), ZONE, "us-east-1a"),
          selecting(pod("b", "cpu", "1"), ZONE, "us-east-1a"));
      Predicate<NodeClaim> ice = pool("m5.xlarge", CapacityType.ON_DEMAND, "us-east-1a");
      Round first = round(two, pods, OfferingAvailability.ALL, T0, ice);
      assertThat(first.launched()).isEmpty();
      Round second = round(two, pods, first.after(), T0.plusSeconds(10), ice);
      assertThat(second.unplanned()).isEmpty();
      assertThat(second.launched()).hasSize(2).allSatisfy(x -> assertThat(x.instanceType().name())
          .isEqualTo("m5.large"));
    }));
    c.add(UpstreamCase.of("insufficient capacity", INSTANCE_TYPES, "should launch instances on later reconciliation "
        + "attempt with Insufficient Capacity Error Cache expiry", () -> {
      List<Pod> pods = List.of(selecting(pod("a", "nvidia.com/gpu", "2"), TYPE, "g5.12xlarge", ZONE, "us-east-1a"));
      Predicate<NodeClaim> ice = pool("g5.12xlarge", CapacityType.ON_DEMAND, "us-east-1a");
      Round first = round(gpu, pods, OfferingAvailability.ALL, T0, ice);
      // While the offering is cached unavailable, nothing else can host the pod.
      assertThat(round(gpu, pods, first.after(), T0.plusSeconds(60), x -> false).launched()).isEmpty();
      // The capacity shortage is over and the cache entry expired (three minutes).
      Round later = round(gpu, pods, first.after(), T0.plus(OfferingAvailability.TTL), x -> false);
      assertThat(later.launched()).singleElement().satisfies(x -> assertThat(x.instanceType().name())
          .isEqualTo("g5.12xlarge"));
    }));
    c.add(UpstreamCase.of("insufficient capacity", INSTANCE_TYPES, "should launch on-demand capacity if flexible to "
        + "both spot and on-demand, but spot is unavailable", () -> {
      NodePool both = K.pool("general", NodePoolRequirement.in(CAPACITY_TYPE, "spot", "on-demand"),
          NodePoolRequirement.in(ZONE, "us-east-1a"));
      List<Pod> pods = List.of(pod("a", "cpu", "100m"));
      Predicate<NodeClaim> ice = x -> x.offering().capacityType() == CapacityType.SPOT;
      Round first = round(both, pods, OfferingAvailability.ALL, T0, ice);
      assertThat(first.launched()).isEmpty();
      Round second = round(both, pods, first.after(), T0.plusSeconds(10), ice);
      assertThat(second.launched()).singleElement().satisfies(x -> assertThat(x.offering().capacityType())
          .isEqualTo(CapacityType.ON_DEMAND));
    }).differs("the twin launches a NodeClaim as one instance type and, on an insufficient-capacity error, marks "
        + "only that offering unavailable; CreateFleet is given every option of the claim and reports each spot pool "
        + "it could not fill, so upstream falls back to on-demand in the second round, the twin only after one round "
        + "per spot type"));
  }

  // ---- the spot-to-spot cut ----

  /**
   * {@code n} spot-only variants of catalogue types, the i-th in name order priced by {@code price}.
   * Upstream's fake types are interchangeable; here they are all GPU types (not metal), so the
   * launcher's filter of exotic types, which drops GPU types when a plain one is among the options,
   * leaves every one of them in play.
   */
  static List<InstanceType> spotTypes(int n, java.util.function.IntToDoubleFunction price) {
    List<InstanceType> base = CATALOG.types().stream().filter(t -> t.gpuCount() > 0)
        .filter(t -> !t.size().contains("metal")).sorted(Comparator.comparing(InstanceType::name)).limit(n).toList();
    assertThat(base).hasSize(n);
    List<InstanceType> out = new ArrayList<>();
    for (int i = 0; i < base.size(); i++) {
      out.add(base.get(i).withOfferings(List.of(new Offering(CapacityType.SPOT, "us-east-1a", price.applyAsDouble(i),
          true))));
    }
    return out;
  }

  static NodePool spotPool(List<InstanceType> types, OptionalInt minValues) {
    List<String> names = types.stream().map(InstanceType::name).toList();
    NodePool p = K.bare("spot", new NodePoolRequirement(TYPE, RequirementOperator.IN, names, minValues),
        NodePoolRequirement.in(CAPACITY_TYPE, "spot"));
    return p.withDisruption(p.disruption().withPolicy(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED)
        .withConsolidateAfter(Optional.of(Duration.ZERO)));
  }

  /** A spot node of {@code type} (from {@code catalog}) holding one small reschedulable pod. */
  static StateNode spotNodeOf(NodePool pool, InstanceType type) {
    NodeClaim c = Launcher.nodeClaim(pool, type, type.offerings().getFirst(), ResourceList.EMPTY, T0,
        new SplittableRandom(3)).withLaunched(T0);
    c = c.withRegistered(T0, c.name()).withInitialized(T0);
    Pod p = owned(pod("p", "cpu", "100m"));
    return new StateNode(c.name(), Optional.of(c), Optional.of(Node.of(c.name(), c.labels(), List.of(),
        type.allocatable())), List.of(p), Set.of(), T0, false, java.util.Map.of(p.key(), T0));
  }

  static Optional<DisruptionCommand> pollSpot(List<InstanceType> types, NodePool pool, StateNode node) {
    InstanceCatalog catalog = new InstanceCatalog(types);
    ClusterView view = new ClusterView(T0.plus(Duration.ofHours(1)), List.of(pool), catalog, OfferingAvailability.ALL,
        List.of(node), List.of(), List.of(), PdbIndex.NONE);
    Provisioner p = new Provisioner(ProvisioningModel.of(List.of(pool), catalog, List.of(), NvidiaDevicePlugin.DEFAULTS,
        GpuSizing.PHYSICAL));
    return new DisruptionController(AutoscalerSettings.DEFAULTS.withSpotToSpotConsolidation(true), p)
        .poll(view, new SplittableRandom(7));
  }

  static NodePoolTemplate template(NodePool pool, List<InstanceType> types) {
    return ProvisioningModel.of(List.of(pool), new InstanceCatalog(types), List.of(), NvidiaDevicePlugin.DEFAULTS,
        GpuSizing.PHYSICAL).template(pool.name()).orElseThrow();
  }

  private static void spotToSpot(List<UpstreamCase> c) {
    // Upstream: 18 spot types priced 1.0, 1.1, ... in order, the 17th forced to 0.001, the candidate on the
    // 18th (the dearest). The cut is taken from the 17 cheaper types, cheapest first.
    for (int minValues : new int[] {16, 10}) {
      String it = minValues > SpotToSpot.MIN_INSTANCE_TYPES
          ? "spot to spot consolidation should consider the max of default and minimum number of instanceTypeOptions "
              + "from minValues in requirement for truncation if minimum number of instanceTypeOptions from minValues "
              + "in requirement is greater than 15."
          : "spot to spot consolidation should consider the default for truncation if minimum number of "
              + "instanceTypeOptions from minValues in requirement is less than 15.";
      c.add(UpstreamCase.of("consolidation", CONSOLIDATION, it, () -> {
        List<InstanceType> types = spotTypes(18, i -> i == 16 ? 0.001 : 1.0 + i * 0.1);
        NodePool pool = spotPool(types, OptionalInt.of(minValues));
        List<InstanceType> cheaper = new ArrayList<>(types.subList(0, 17));
        cheaper.sort(Comparator.comparingDouble(t -> t.offerings().getFirst().pricePerHour()));
        List<InstanceType> kept = SpotToSpot.options(cheaper, template(pool, types), why -> { }).orElseThrow();
        assertThat(kept).hasSize(Math.max(SpotToSpot.MIN_INSTANCE_TYPES, minValues))
            .containsExactlyElementsOf(cheaper.subList(0, kept.size()))
            .contains(types.get(16)).doesNotContain(types.get(17));
      }));
    }
    c.add(UpstreamCase.of("consolidation", CONSOLIDATION, "spot to spot consolidation should order the instance types "
        + "by price before enforcing minimum flexibility.", () -> {
      List<InstanceType> types = spotTypes(18, i -> i == 16 ? 0.001 : 1.0 + i * 0.1);
      NodePool pool = spotPool(types, OptionalInt.empty());
      DisruptionCommand cmd = pollSpot(types, pool, spotNodeOf(pool, types.get(17))).orElseThrow();
      // The cheapest type, 17th by name, made the cut: the replacement is it.
      assertThat(cmd.replacements()).singleElement().satisfies(r -> assertThat(r.instanceType().name())
          .isEqualTo(types.get(16).name()));
    }));
    c.add(UpstreamCase.of("consolidation", CONSOLIDATION, "cannot replace spot with spot if it is part of the 15 "
        + "cheapest instance types.", () -> {
      // Twenty spot types, the candidate on the second cheapest: one cheaper type, not fifteen.
      List<InstanceType> types = spotTypes(20, i -> i == 0 ? 0.001 : 1.0 + i * 0.1);
      NodePool pool = spotPool(types, OptionalInt.empty());
      assertThat(pollSpot(types, pool, spotNodeOf(pool, types.get(1)))).isEmpty();
    }));
  }
}
