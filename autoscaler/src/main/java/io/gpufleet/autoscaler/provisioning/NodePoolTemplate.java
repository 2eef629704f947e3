package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.autoscaler.AutoscalerSettings.GpuSizing;
import io.gpufleet.autoscaler.gpu.GpuAdvertiser;
import io.gpufleet.autoscaler.requirement.Requirements;
import io.gpufleet.autoscaler.requirement.ValueSet;
import io.gpufleet.engine.scheduler.ResourceVector;
import io.gpufleet.engine.workload.PodFactory;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceLabels;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.cloud.Offering;
import io.gpufleet.model.karpenter.AutoMode;
import io.gpufleet.model.karpenter.EC2NodeClass;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodeClassRef;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.pod.PodRequests;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.model.taint.Tolerations;
import io.gpufleet.model.workload.Workload;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * A NodePool prepared for provisioning: its requirements (the NodePool's, its template labels as
 * {@code In}, and {@code karpenter.sh/nodepool In [name]}), its taints, the instance types it may
 * launch in price order, and the DaemonSet overhead each would carry (reference §1.4).
 */
public final class NodePoolTemplate {

  private final NodePool pool;
  private final Requirements requirements;
  private final List<TypeOption> types;
  private final ResourceList overhead;
  private final int overheadPods;
  private final MinValues minValues;

  NodePoolTemplate(NodePool pool, Requirements requirements, List<TypeOption> types, ResourceList overhead,
      int overheadPods) {
    this.pool = pool;
    this.requirements = requirements;
    this.types = List.copyOf(types);
    this.overhead = overhead;
    this.overheadPods = overheadPods;
    this.minValues = MinValues.of(pool);
  }

  /** The NodePool's {@code minValues}, which every NodeClaim's remaining instance types must span. */
  MinValues minValues() {
    return minValues;
  }

  /**
   * Whether {@code kept}, a subset of this NodePool's types, still spans its {@code minValues}: what
   * consolidation's price filter must leave ({@code K:pkg/controllers/provisioning/scheduling/nodeclaim.go}
   * RemoveInstanceTypeOptionsByPriceAndMinValues).
   */
  public boolean minValuesSatisfiedBy(List<InstanceType> kept) {
    if (minValues.isEmpty()) {
      return true;
    }
    Set<String> names = new TreeSet<>();
    kept.forEach(t -> names.add(t.name()));
    return minValues.satisfiedBy(types.stream().filter(o -> names.contains(o.type().name())).toList());
  }

  /** How many of {@code ordered} (cheapest first), from the first, it takes to span the NodePool's minValues. */
  public int minTypesForMinValues(List<InstanceType> ordered) {
    if (minValues.isEmpty()) {
      return 0;
    }
    Map<String, TypeOption> byName = new HashMap<>();
    types.forEach(o -> byName.put(o.type().name(), o));
    return minValues.neededPrefix(ordered.stream().map(t -> byName.get(t.name())).filter(Objects::nonNull)
        .toList());
  }

  public NodePool pool() {
    return pool;
  }

  public String name() {
    return pool.name();
  }

  public Requirements requirements() {
    return requirements;
  }

  List<TypeOption> types() {
    return types;
  }

  /** The DaemonSet requests every new node of this NodePool carries, as Karpenter's messages quote it. */
  public ResourceList overhead() {
    return overhead;
  }

  /** The labels a pod may ask for that this NodePool need not define ({@link AutoMode#wellKnown}). */
  public Set<String> wellKnown() {
    return AutoMode.wellKnown(pool.template().nodeClassRef(), Requirements.WELL_KNOWN);
  }

  int overheadPods() {
    return overheadPods;
  }

  public List<InstanceType> instanceTypes() {
    return types.stream().map(TypeOption::type).toList();
  }

  /** Builds the template of one NodePool over a catalogue. */
  static NodePoolTemplate of(NodePool pool, InstanceCatalog catalog, List<Workload.DaemonSet> daemonSets,
      GpuAdvertiser advertiser, GpuSizing sizing, NodeOverlays overlays,
      EC2NodeClass nodeClass) {
    List<Requirement> selectors = new ArrayList<>();
    for (NodePoolRequirement r : pool.template().requirements()) {
      selectors.add(r.toSelectorRequirement());
    }
    Requirements reqs = Requirements.ofSelector(selectors)
        .and(Requirements.ofLabels(pool.template().labels()))
        .with(KarpenterLabels.NODEPOOL, ValueSet.in(pool.name()));
    List<Daemon> daemons = daemons(daemonSets, pool.template().taints());
    NodeClassRef ref = pool.template().nodeClassRef();
    Set<String> wellKnown = AutoMode.wellKnown(ref, Requirements.WELL_KNOWN);
    ResourceList templateOverhead = ResourceList.EMPTY;
    int templatePods = 0;
    for (Daemon d : daemons) {
      if (reqs.incompatibility(d.requirements, wellKnown).isEmpty()) {
        templateOverhead = templateOverhead.plus(d.requests);
        templatePods++;
      }
    }
    List<TypeOption> options = new ArrayList<>();
    for (InstanceType listed : catalog.types()) {
      InstanceType t = overlays.apply(pool.name(), nodeClass.apply(listed));
      Requirements typeReqs = requirementsOf(t, ref);
      if (!typeReqs.intersects(reqs)) {
        continue;
      }
      ResourceList over = ResourceList.EMPTY;
      int overPods = 0;
      Requirements both = reqs.and(typeReqs);
      for (Daemon d : daemons) {
        if (both.incompatibility(d.requirements, wellKnown).isEmpty()) {
          over = over.plus(d.requests);
          overPods++;
        }
      }
      // As the node will be labelled: the node class label picks a node class's own device plugin config.
      Labels nodeLabels = AutoMode.instanceLabels(t, ref).withAll(pool.template().labels())
          .with(ref.labelKey(), ref.name());
      // Capacity an overlay adds is what Karpenter sees, whatever the sizing extension would count.
      ResourceList alloc = overlays.withCapacity(pool.name(), t.name(), effectiveAllocatable(t, nodeLabels, advertiser,
          sizing));
      double cheapest = t.offerings().stream().mapToDouble(Offering::pricePerHour).min().orElse(Double.MAX_VALUE);
      options.add(new TypeOption(t, typeReqs, ResourceVector.of(alloc), t.maxPods(), ResourceVector.of(over), overPods,
          overlays.withCapacity(pool.name(), t.name(), t.capacity()), cheapest));
    }
    options.sort(Comparator.comparingDouble(TypeOption::cheapestPrice).thenComparing(o -> o.type().name()));
    return new NodePoolTemplate(pool, reqs, options, templateOverhead, templatePods);
  }

  /**
   * What a node of this type leaves to pods. Karpenter counts the type's physical GPUs; with
   * {@link GpuSizing#ADVERTISED} gpufleet counts what the device plugin will advertise under the
   * config the node's labels pick (time-slicing replicas, renamed resources).
   */
  public static ResourceList effectiveAllocatable(InstanceType t, Labels nodeLabels, GpuAdvertiser advertiser,
      GpuSizing sizing) {
    if (sizing == GpuSizing.PHYSICAL || t.gpu().isEmpty()) {
      return t.allocatable();
    }
    ResourceList base = t.allocatable().without(ResourceName.NVIDIA_GPU);
    return base.plus(advertiser.advertise(nodeLabels, t.gpu()).resources());
  }

  /**
   * An instance type's labels as requirements, with its zones and capacity types (reference §1.2); for
   * an EKS Auto Mode node class, with Auto Mode's instance labels ({@link AutoMode#instanceLabels}).
   */
  static Requirements requirementsOf(InstanceType t, NodeClassRef ref) {
    Requirements r = Requirements.ofLabels(AutoMode.instanceLabels(t, ref));
    if (t.gpu().isEmpty()) {
      for (String k : AutoMode.isAutoMode(ref) ? AutoMode.GPU_KEYS : List.of(InstanceLabels.INSTANCE_GPU_NAME,
          InstanceLabels.INSTANCE_GPU_MANUFACTURER, InstanceLabels.INSTANCE_GPU_COUNT,
          InstanceLabels.INSTANCE_GPU_MEMORY)) {
        r = r.with(k, ValueSet.doesNotExist());
      }
    }
    Set<String> zones = new TreeSet<>();
    Set<String> capacityTypes = new TreeSet<>();
    for (Offering o : t.offerings()) {
      zones.add(o.zone());
      capacityTypes.add(o.capacityType().wireName());
    }
    return r.with(InstanceLabels.ZONE, ValueSet.in(zones)).with(KarpenterLabels.CAPACITY_TYPE,
        ValueSet.in(capacityTypes));
  }

  /** A daemon pod as overhead: its requests and its node requirements. */
  record Daemon(ResourceList requests, Requirements requirements) {}

  /** The daemon pods that tolerate these taints (startup taints need not be tolerated, reference §1.1). */
  static List<Daemon> daemons(List<Workload.DaemonSet> daemonSets, List<Taint> taints) {
    List<Daemon> out = new ArrayList<>();
    for (Workload.DaemonSet ds : daemonSets) {
      PodSpec spec = ds.template().spec();
      List<Toleration> tolerations = new ArrayList<>(spec.tolerations());
      tolerations.addAll(PodFactory.DAEMON_TOLERATIONS);
      boolean tolerated = true;
      for (Taint t : taints) {
        if (t.effect().blocksScheduling() && !Tolerations.tolerates(tolerations, t)) {
          tolerated = false;
          break;
        }
      }
      if (tolerated) {
        out.add(new Daemon(PodRequests.of(spec), PodRequirements.of(spec).getFirst()));
      }
    }
    return out;
  }
}
