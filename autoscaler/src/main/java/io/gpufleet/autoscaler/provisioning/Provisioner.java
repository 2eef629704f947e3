package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.autoscaler.requirement.Requirements;
import io.gpufleet.autoscaler.requirement.ValueSet;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.engine.scheduler.ResourceVector;
import io.gpufleet.engine.workload.PodFactory;
import io.gpufleet.model.cloud.InstanceLabels;
import io.gpufleet.model.cloud.Offering;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodRequests;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.Tolerations;
import io.gpufleet.model.workload.Workload;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Karpenter's provisioning simulation (reference §1.4, {@code K:pkg/controllers/provisioning/scheduling}):
 * pods, largest CPU then memory request first, go to (1) existing and in-flight nodes, initialised
 * ones first, (2) NodeClaims already planned in this round, fewest pods first, (3) a new NodeClaim
 * from the first NodePool, in weight order, that tolerates them, meets their requirements, stays
 * within its limits and still has an instance type (with the DaemonSet overhead) and an offering
 * for them. A pod that fits nowhere is retried while others keep finding places. Pure: it plans,
 * the caller launches.
 */
public final class Provisioner {

  private final ProvisioningModel model;

  public Provisioner(ProvisioningModel model) {
    this.model = model;
  }

  public ProvisioningModel model() {
    return model;
  }

  /**
   * Plans capacity for {@code pods}.
   *
   * @param nodes every node and NodeClaim Karpenter tracks; those marked for deletion are not
   *     capacity, but their claims still count against NodePool limits
   * @param daemonSets DaemonSets whose pods will land on in-flight nodes
   */
  public ProvisioningPlan solve(List<Pod> pods, List<StateNode> nodes, List<Workload.DaemonSet> daemonSets,
      OfferingAvailability offerings, Instant now) {
    Round round = new Round(nodes, daemonSets, offerings, now);
    return round.run(pods);
  }

  /** Largest CPU request first, then memory; ties keep the given order (reference §1.4 queue.go). */
  static List<Pod> queueOrder(List<Pod> pods, Map<PodSpec, ResourceVector> requests) {
    List<Pod> sorted = new ArrayList<>(pods);
    sorted.sort(Comparator.<Pod>comparingLong(p -> requests.get(p.spec()).milliCpu()).reversed()
        .thenComparing(Comparator.<Pod>comparingLong(p -> requests.get(p.spec()).memory()).reversed()));
    return sorted;
  }

  /** One provisioning round: its existing capacity, its planned claims and its limit budget. */
  private final class Round {
    private final List<Existing> existing = new ArrayList<>();
    private final TreeSet<Planned> planned = new TreeSet<>(
        Comparator.comparingInt((Planned p) -> p.pods.size()).thenComparingInt(p -> p.sequence));
    private final List<Planned> plannedInOrder = new ArrayList<>();
    private final Map<String, Remaining> remaining = new HashMap<>();
    private final OfferingAvailability offerings;
    private final Instant now;
    private final Map<PodSpec, ResourceVector> requests = new IdentityHashMap<>();
    private final Map<PodSpec, List<Requirements>> requirements = new IdentityHashMap<>();
    private int sequence;

    Round(List<StateNode> nodes, List<Workload.DaemonSet> daemonSets, OfferingAvailability offerings, Instant now) {
      this.offerings = offerings;
      this.now = now;
      for (NodePoolTemplate t : model.templates()) {
        if (!t.pool().limits().isEmpty()) {
          remaining.put(t.name(), new Remaining(t.pool().limits()));
        }
      }
      List<Existing> initialised = new ArrayList<>();
      List<Existing> inFlight = new ArrayList<>();
      for (StateNode n : nodes) {
        n.claim().ifPresent(c -> {
          Remaining r = remaining.get(c.nodePool());
          if (r != null) {
            r.subtract(c.instanceType().capacity());
          }
        });
        if (n.markedForDeletion()) {
          continue;
        }
        Existing e = new Existing(n, daemonSets);
        (n.isInitialized() ? initialised : inFlight).add(e);
      }
      initialised.sort(Comparator.comparing(e -> e.node.name()));
      inFlight.sort(Comparator.comparing(e -> e.node.name()));
      existing.addAll(initialised);
      existing.addAll(inFlight);
    }

    ProvisioningPlan run(List<Pod> pods) {
      for (Pod p : pods) {
        requests.computeIfAbsent(p.spec(), s -> ResourceVector.of(PodRequests.of(s)));
        requirements.computeIfAbsent(p.spec(), PodRequirements::of);
      }
      Map<String, String> onExisting = new LinkedHashMap<>();
      Map<String, String> errors = new LinkedHashMap<>();
      List<Pod> queue = queueOrder(pods, requests);
      while (!queue.isEmpty()) {
        List<Pod> failed = new ArrayList<>();
        boolean progress = false;
        for (Pod pod : queue) {
          String error = place(pod, onExisting);
          if (error == null) {
            errors.remove(pod.key());
            progress = true;
          } else {
            errors.put(pod.key(), error);
            failed.add(pod);
          }
        }
        if (!progress || failed.size() == queue.size()) {
          break;
        }
        queue = failed;
      }
      List<PlannedClaim> claims = new ArrayList<>();
      for (Planned p : plannedInOrder) {
        claims.add(p.toPlannedClaim());
      }
      return new ProvisioningPlan(claims, onExisting, errors);
    }

    /** Places one pod; returns null, or Karpenter's message when nothing can host it. */
    private String place(Pod pod, Map<String, String> onExisting) {
      ResourceVector req = requests.get(pod.spec());
      for (Existing e : existing) {
        if (e.tryAdd(pod, req)) {
          onExisting.put(pod.key(), e.node.name());
          return null;
        }
      }
      List<Requirements> variants = requirements.get(pod.spec());
      String error = null;
      for (Requirements podReqs : variants) {
        for (Planned p : planned) {
          if (p.tryAdd(pod, req, podReqs)) {
            planned.remove(p);
            p.commit();
            planned.add(p);
            return null;
          }
        }
        error = newClaim(pod, req, podReqs);
        if (error == null) {
          return null;
        }
      }
      return error;
    }

    private String newClaim(Pod pod, ResourceVector req, Requirements podReqs) {
      List<String> errors = new ArrayList<>();
      for (NodePoolTemplate t : model.templates()) {
        List<TypeOption> types = t.types();
        Remaining limit = remaining.get(t.name());
        if (limit != null) {
          if (limit.nodesExhausted()) {
            errors.add(SchedulingMessages.nodeLimitsExhausted(t.name()));
            continue;
          }
          types = limit.filter(types);
          if (types.isEmpty()) {
            errors.add(SchedulingMessages.limitsExceeded(t.name()));
            continue;
          }
        }
        Taint untolerated = untolerated(t.pool().template().taints(), pod);
        if (untolerated != null) {
          errors.add(SchedulingMessages.untolerated(untolerated));
          continue;
        }
        var incompatible = t.requirements().incompatibility(podReqs, Requirements.WELL_KNOWN);
        if (incompatible.isPresent()) {
          errors.add(SchedulingMessages.incompatibleRequirements(incompatible.get()));
          continue;
        }
        Requirements merged = t.requirements().and(podReqs);
        Planned p = new Planned(t, merged, types, sequence++);
        String why = p.tryFirst(pod, req);
        if (why != null) {
          ResourceList total = t.overhead().plus(PodRequests.of(pod.spec()));
          errors.add(SchedulingMessages.noInstanceType(t.name(), t.overhead(), t.overheadPods(), why, merged.toString(),
              total, t.overheadPods() + 1L));
          continue;
        }
        p.commit();
        planned.add(p);
        plannedInOrder.add(p);
        if (limit != null) {
          limit.subtractMax(p.options);
        }
        return null;
      }
      return errors.isEmpty() ? "Failed to schedule pod, no nodepools found" : SchedulingMessages.failed(errors);
    }

    private boolean hasOffering(TypeOption o, Requirements reqs) {
      ValueSet zones = reqs.get(InstanceLabels.ZONE).orElse(null);
      ValueSet capacity = reqs.get(KarpenterLabels.CAPACITY_TYPE).orElse(null);
      for (Offering off : o.type().offerings()) {
        if ((zones == null || zones.admits(off.zone()))
            && (capacity == null || capacity.admits(off.capacityType().wireName()))
            && offerings.isAvailable(o.type().name(), off, now)) {
          return true;
        }
      }
      return false;
    }

    /** A NodeClaim being planned in this round. */
    private final class Planned {
      final NodePoolTemplate template;
      final int sequence;
      final List<Pod> pods = new ArrayList<>();
      Requirements requirements;
      List<TypeOption> options;
      ResourceVector podRequests = ResourceVector.ZERO;
      Headroom headroom;
      // The outcome of the last tryAdd, applied by commit().
      private Pod candidate;
      private Requirements nextRequirements;
      private List<TypeOption> nextOptions;
      private ResourceVector nextRequests;

      Planned(NodePoolTemplate template, Requirements requirements, List<TypeOption> options, int sequence) {
        this.template = template;
        this.requirements = requirements;
        this.options = options;
        this.sequence = sequence;
      }

      /** Filters every option for the first pod; returns why none is left, or null. */
      String tryFirst(Pod pod, ResourceVector req) {
        boolean reqMet = false;
        boolean fits = false;
        boolean offering = false;
        boolean reqFits = false;
        boolean reqOffering = false;
        boolean fitsOffering = false;
        List<TypeOption> kept = new ArrayList<>();
        for (TypeOption o : options) {
          boolean c = o.requirements().intersects(requirements);
          boolean f = o.fits(req, 1);
          boolean h = hasOffering(o, requirements);
          reqMet |= c;
          fits |= f;
          offering |= h;
          reqFits |= c && f && !h;
          reqOffering |= c && h && !f;
          fitsOffering |= f && h && !c;
          if (c && f && h) {
            kept.add(o);
          }
        }
        if (kept.isEmpty()) {
          return SchedulingMessages.failureReason(reqMet, fits, offering, reqFits, reqOffering, fitsOffering);
        }
        stage(pod, requirements, kept, req);
        return null;
      }

      boolean tryAdd(Pod pod, ResourceVector req, Requirements podReqs) {
        if (!headroom.admits(req, pods.size() + 1)) {
          return false;
        }
        if (untolerated(template.pool().template().taints(), pod) != null) {
          return false;
        }
        if (requirements.incompatibility(podReqs, Requirements.WELL_KNOWN).isPresent()) {
          return false;
        }
        Requirements merged = requirements.and(podReqs);
        boolean sameReqs = merged.equals(requirements);
        ResourceVector next = podRequests.plus(req);
        List<TypeOption> kept = new ArrayList<>(options.size());
        for (TypeOption o : options) {
          if (o.fits(next, pods.size() + 1)
              && (sameReqs || (o.requirements().intersects(merged) && hasOffering(o, merged)))) {
            kept.add(o);
          }
        }
        if (kept.isEmpty()) {
          return false;
        }
        candidate = pod;
        nextRequirements = sameReqs ? requirements : merged;
        nextOptions = kept;
        nextRequests = next;
        return true;
      }

      private void stage(Pod pod, Requirements reqs, List<TypeOption> kept, ResourceVector req) {
        candidate = pod;
        nextRequirements = reqs;
        nextOptions = kept;
        nextRequests = podRequests.plus(req);
      }

      void commit() {
        pods.add(candidate);
        requirements = nextRequirements;
        options = nextOptions;
        podRequests = nextRequests;
        headroom = Headroom.of(options, podRequests);
        candidate = null;
      }

      PlannedClaim toPlannedClaim() {
        List<TypeOption> sorted = new ArrayList<>(options);
        Map<TypeOption, Double> price = new HashMap<>();
        for (TypeOption o : sorted) {
          price.put(o, cheapestAvailable(o));
        }
        sorted.sort(Comparator.<TypeOption>comparingDouble(price::get).thenComparing(o -> o.type().name()));
        ResourceList total = ResourceList.EMPTY;
        for (Pod p : pods) {
          total = total.plus(PodRequests.of(p.spec()));
        }
        return new PlannedClaim(template, pods, requirements, sorted.stream().map(TypeOption::type).toList(), total);
      }

      private double cheapestAvailable(TypeOption o) {
        ValueSet zones = requirements.get(InstanceLabels.ZONE).orElse(null);
        ValueSet capacity = requirements.get(KarpenterLabels.CAPACITY_TYPE).orElse(null);
        double best = Double.MAX_VALUE;
        for (Offering off : o.type().offerings()) {
          if ((zones == null || zones.admits(off.zone()))
              && (capacity == null || capacity.admits(off.capacityType().wireName()))
              && offerings.isAvailable(o.type().name(), off, now)) {
            best = Math.min(best, off.pricePerHour());
          }
        }
        return best;
      }
    }

    /** An existing or in-flight node with what is left on it in this round. */
    private final class Existing {
      final StateNode node;
      final Labels labels;
      final List<Taint> taints;
      ResourceVector free;
      long freePods;

      Existing(StateNode node, List<Workload.DaemonSet> daemonSets) {
        this.node = node;
        this.labels = node.labels();
        this.taints = node.schedulingTaints();
        ResourceList alloc = allocatable(node);
        ResourceVector used = ResourceVector.ZERO;
        long podCount = 0;
        java.util.Set<String> daemonsHere = new java.util.HashSet<>();
        for (Pod p : node.pods()) {
          used = used.plus(ResourceVector.of(PodRequests.of(p.spec())));
          podCount++;
          p.meta().owner().filter(o -> o.kind().equals("DaemonSet")).ifPresent(o -> daemonsHere.add(o.name()));
        }
        if (!node.isInitialized()) {
          // Daemon pods that will land once the node is up (Karpenter counts them for in-flight nodes).
          Node shape = Node.of(node.name(), labels, taints, alloc);
          for (Workload.DaemonSet ds : daemonSets) {
            if (!daemonsHere.contains(ds.name()) && PodFactory.shouldRunOn(ds, shape)) {
              used = used.plus(ResourceVector.of(PodRequests.of(ds.template().spec())));
              podCount++;
            }
          }
        }
        ResourceVector a = ResourceVector.of(alloc);
        this.free = a.minus(used);
        this.freePods = alloc.getOrZero(ResourceName.PODS).value() - podCount;
      }

      boolean tryAdd(Pod pod, ResourceVector req) {
        if (freePods < 1 || !Fit.fits(req, 1, free, freePods)) {
          return false;
        }
        if (untolerated(taints, pod) != null) {
          return false;
        }
        PodSpec spec = pod.spec();
        if (!labels.containsAll(spec.nodeSelector()) || !spec.nodeAffinity().requiredMatches(node.name(), labels)) {
          return false;
        }
        free = free.minus(req);
        freePods--;
        return true;
      }
    }

    /** What a node not yet initialised will offer: its claim's instance type, sized as the model sizes it. */
    private ResourceList allocatable(StateNode n) {
      if (n.isInitialized() && n.node().isPresent()) {
        return n.node().get().allocatable();
      }
      if (n.claim().isEmpty()) {
        return n.node().map(Node::allocatable).orElse(ResourceList.EMPTY);
      }
      NodeClaim c = n.claim().get();
      return NodePoolTemplate.effectiveAllocatable(c.instanceType(), c.labels(), model.advertiser(), model.sizing());
    }
  }

  /** The first NoSchedule/NoExecute taint the pod does not tolerate, or null. */
  static Taint untolerated(List<Taint> taints, Pod pod) {
    return Tolerations.firstUntoleratedBlocking(taints, pod.spec().tolerations()).orElse(null);
  }

  /** A NodePool's limits less what its NodeClaims (and those planned in this round) may use. */
  private static final class Remaining {
    private final Map<ResourceName, Long> left = new HashMap<>();

    Remaining(ResourceList limits) {
      limits.quantities().forEach((k, v) -> left.put(k, units(k, v)));
    }

    private static long units(ResourceName name, Quantity q) {
      return name.equals(ResourceName.CPU) ? q.milliValue() : q.value();
    }

    void subtract(ResourceList capacity) {
      for (var e : left.entrySet()) {
        if (e.getKey().name().equals("nodes")) {
          e.setValue(e.getValue() - 1);
        } else {
          e.setValue(e.getValue() - units(e.getKey(), capacity.getOrZero(e.getKey())));
        }
      }
    }

    boolean nodesExhausted() {
      Long nodes = left.get(ResourceName.of("nodes"));
      return nodes != null && nodes <= 0;
    }

    /** Instance types whose capacity fits in what is left ({@code filterByRemainingResources}). */
    List<TypeOption> filter(List<TypeOption> types) {
      List<TypeOption> out = new ArrayList<>(types.size());
      for (TypeOption o : types) {
        boolean ok = true;
        for (var e : left.entrySet()) {
          if (e.getKey().name().equals("nodes")) {
            continue;
          }
          if (units(e.getKey(), o.capacity().getOrZero(e.getKey())) > e.getValue()) {
            ok = false;
            break;
          }
        }
        if (ok) {
          out.add(o);
        }
      }
      return out;
    }

    /**
     * Subtracts the largest capacity among the claim's options: until launched, a claim that could
     * become an 8-GPU box counts as one ({@code subtractMax}, reference §1.1).
     */
    void subtractMax(List<TypeOption> options) {
      for (var e : left.entrySet()) {
        if (e.getKey().name().equals("nodes")) {
          e.setValue(e.getValue() - 1);
          continue;
        }
        long max = 0;
        for (TypeOption o : options) {
          max = Math.max(max, units(e.getKey(), o.capacity().getOrZero(e.getKey())));
        }
        e.setValue(e.getValue() - max);
      }
    }
  }
}
