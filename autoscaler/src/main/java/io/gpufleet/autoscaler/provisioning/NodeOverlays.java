package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.autoscaler.requirement.Requirements;
import io.gpufleet.autoscaler.requirement.ValueSet;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceLabels;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.cloud.Offering;
import io.gpufleet.model.karpenter.AutoMode;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodeOverlay;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The NodeOverlays in force, as Karpenter's overlay controller stores them ({@code
 * K:pkg/controllers/nodeoverlay/controller.go}, {@code store.go}) and its cloud-provider decorator
 * applies them to each NodePool's instance types: overlays in weight order (higher first, equal weights
 * by name, later name first); an overlay matches an instance type when its requirements are compatible
 * with the NodePool's name and template labels and the type's own, and its price applies to the
 * offerings they admit. The first overlay to set an offering's price, or a capacity resource, wins; an
 * overlay that would set one already set by an overlay of the same weight conflicts and is applied
 * nowhere. Prices and capacity change what the provisioner and consolidation see, not the bill.
 */
public final class NodeOverlays {

  public static final NodeOverlays NONE = new NodeOverlays(Map.of(), List.of());

  /** The changes to one instance type of one NodePool. */
  private static final class Update {
    final Map<String, String> priceByOffering = new HashMap<>(); // "spot/us-east-1a" -> price or adjustment
    final Map<String, Integer> priceWeight = new HashMap<>();
    final Map<ResourceName, Quantity> capacity = new TreeMap<>();
    Set<ResourceName> lowestWeightResources = Set.of();
    Integer capacityWeight;
    final Set<String> overlays = new LinkedHashSet<>();
  }

  private final Map<String, Map<String, Update>> updates; // pool -> type -> update
  private final List<String> conflicting;

  private NodeOverlays(Map<String, Map<String, Update>> updates, List<String> conflicting) {
    this.updates = updates;
    this.conflicting = List.copyOf(conflicting);
  }

  public static NodeOverlays of(List<NodeOverlay> overlays, List<NodePool> pools, InstanceCatalog catalog) {
    if (overlays.isEmpty()) {
      return NONE;
    }
    List<NodeOverlay> ordered = new ArrayList<>(overlays);
    ordered.sort(Comparator.comparingInt(NodeOverlay::weight).reversed()
        .thenComparing(NodeOverlay::name, Comparator.reverseOrder()));
    Map<String, Map<String, Update>> updates = new TreeMap<>();
    List<String> conflicting = new ArrayList<>();
    for (NodeOverlay o : ordered) {
      Requirements reqs = requirements(o);
      boolean conflict = false;
      for (NodePool p : pools) {
        for (InstanceType t : catalog.types()) {
          List<Offering> matched = matched(p, t, reqs);
          if (!matched.isEmpty() && conflicts(updates, p.name(), t.name(), matched, o)) {
            conflict = true;
          }
        }
      }
      if (conflict) {
        conflicting.add(o.name());
        continue;
      }
      for (NodePool p : pools) {
        for (InstanceType t : catalog.types()) {
          List<Offering> matched = matched(p, t, reqs);
          if (!matched.isEmpty()) {
            store(updates.computeIfAbsent(p.name(), k -> new TreeMap<>()).computeIfAbsent(t.name(), k -> new Update()),
                matched, o);
          }
        }
      }
    }
    return new NodeOverlays(updates, conflicting);
  }

  /** Overlays refused for a conflict with another of the same weight (Karpenter sets ValidationSucceeded False). */
  public List<String> conflicting() {
    return conflicting;
  }

  public boolean isEmpty() {
    return updates.isEmpty();
  }

  /** The overlays that changed this type for this NodePool, in the order applied. */
  public List<String> appliedTo(String nodePool, String type) {
    Update u = updates.getOrDefault(nodePool, Map.of()).get(type);
    return u == null ? List.of() : List.copyOf(u.overlays);
  }

  /** The type as the NodePool sees it: overlaid offering prices and allocatable extended resources. */
  public InstanceType apply(String nodePool, InstanceType t) {
    Update u = updates.getOrDefault(nodePool, Map.of()).get(t.name());
    if (u == null) {
      return t;
    }
    List<Offering> offerings = new ArrayList<>();
    for (Offering o : t.offerings()) {
      String change = u.priceByOffering.get(key(o));
      offerings.add(change == null ? o : o.withPrice(NodeOverlay.adjustedPrice(o.pricePerHour(), change)));
    }
    ResourceList alloc = withCapacity(nodePool, t.name(), t.allocatable());
    return new InstanceType(t.name(), t.architecture(), t.vcpu(), t.memoryMib(), t.gpu(), alloc, t.onDemandPrice(),
        offerings);
  }

  /** {@code resources} with the extended resources the overlays set for this type in place (ApplyCapacityOverlay). */
  public ResourceList withCapacity(String nodePool, String type, ResourceList resources) {
    Update u = updates.getOrDefault(nodePool, Map.of()).get(type);
    ResourceList out = resources;
    if (u != null) {
      for (var e : u.capacity.entrySet()) {
        out = out.with(e.getKey(), e.getValue());
      }
    }
    return out;
  }

  private static Requirements requirements(NodeOverlay o) {
    List<Requirement> selectors = new ArrayList<>();
    for (NodePoolRequirement r : o.requirements()) {
      selectors.add(r.toSelectorRequirement());
    }
    return Requirements.ofSelector(selectors);
  }

  /** getOverlaidOfferings: the type's offerings the overlay admits, if it matches the type in this NodePool. */
  private static List<Offering> matched(NodePool p, InstanceType t, Requirements overlay) {
    Requirements typeReqs = Requirements.ofLabels(p.template().labels()).and(NodePoolTemplate.requirementsOf(t, p.template().nodeClassRef()))
        .with(KarpenterLabels.NODEPOOL, ValueSet.in(p.name()));
    if (typeReqs.incompatibility(overlay, AutoMode.wellKnown(p.template().nodeClassRef(), Requirements.WELL_KNOWN)).isPresent()) {
      return List.of();
    }
    List<Offering> out = new ArrayList<>();
    for (Offering o : t.offerings()) {
      if (overlay.get(InstanceLabels.ZONE).map(v -> v.admits(o.zone())).orElse(true)
          && overlay.get(KarpenterLabels.CAPACITY_TYPE).map(v -> v.admits(o.capacityType().wireName())).orElse(true)) {
        out.add(o);
      }
    }
    return out;
  }

  private static boolean conflicts(Map<String, Map<String, Update>> updates, String pool, String type,
      List<Offering> offerings, NodeOverlay o) {
    Update u = updates.getOrDefault(pool, Map.of()).get(type);
    if (u == null) {
      return false;
    }
    if (o.changesPrice()) {
      for (Offering of : offerings) {
        Integer w = u.priceWeight.get(key(of));
        if (w != null && w == o.weight()) {
          return true;
        }
      }
    }
    if (!o.capacity().quantities().isEmpty() && u.capacityWeight != null && u.capacityWeight == o.weight()) {
      for (ResourceName n : o.capacity().quantities().keySet()) {
        if (u.lowestWeightResources.contains(n)) {
          return true;
        }
      }
    }
    return false;
  }

  private static void store(Update u, List<Offering> offerings, NodeOverlay o) {
    if (o.changesPrice()) {
      String change = o.priceChange().orElseThrow();
      for (Offering of : offerings) {
        u.priceByOffering.putIfAbsent(key(of), change);
        u.priceWeight.put(key(of), o.weight());
      }
      u.overlays.add(o.name());
    }
    if (!o.capacity().quantities().isEmpty()) {
      for (var e : o.capacity().quantities().entrySet()) {
        u.capacity.putIfAbsent(e.getKey(), e.getValue());
      }
      u.lowestWeightResources = Set.copyOf(o.capacity().quantities().keySet());
      u.capacityWeight = o.weight();
      u.overlays.add(o.name());
    }
  }

  private static String key(Offering o) {
    return o.capacityType().wireName() + "/" + o.zone();
  }
}
