package io.gpufleet.queue.tas;

import io.gpufleet.model.affinity.NodeSelector;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.model.taint.Tolerations;
import io.gpufleet.queue.api.ResourceFlavor;
import io.gpufleet.queue.api.Topology;
import io.gpufleet.queue.api.TopologyAssignment;
import io.gpufleet.queue.api.TopologyRequest;
import io.gpufleet.queue.quota.Amounts;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One TAS flavor's topology for one scheduling cycle, as Kueue's {@code TASFlavorSnapshot}
 * ({@code pkg/cache/scheduler/tas_flavor_snapshot.go}, {@code tas_topology_tree.go}): the domains
 * of each level built from the flavor's Ready, schedulable nodes that carry its node labels and
 * every level's label; each leaf's free capacity (allocatable less the pods TAS did not place) and
 * the usage of the workloads TAS placed. {@link #assign} is {@code findTopologyAssignment} for a
 * pod set without slices or leaders: count the pods each domain fits, find the lowest level at or
 * above the requested one with a domain that fits them all (BestFit: the tightest such domain;
 * required stops there, preferred climbs), then go down level by level using as few domains as
 * possible, and list the leaves. Unconstrained pod sets (and implied ones) use LeastFreeCapacity, as
 * TASProfileMixed (beta, on) has it. Node selector, required node affinity and taints filter nodes
 * only when {@code kubernetes.io/hostname} is the lowest level, as upstream.
 */
public final class TasFlavorSnapshot {

  private final String topologyName;
  private final List<String> levels;
  private final boolean lowestIsNode;
  private final List<Toleration> flavorTolerations;
  /** Leaves by domain ID, in ID order. */
  private final SortedMap<String, Domain> leaves = new TreeMap<>();
  private final List<SortedMap<String, Domain>> perLevel = new ArrayList<>();
  private final List<Domain> roots = new ArrayList<>();

  /** A topology domain; counts are scratch state of one {@link #assign} call. */
  private static final class Domain {
    final String id;
    final List<String> levelValues;
    Domain parent;
    final List<Domain> children = new ArrayList<>();
    // leaf only
    Node node;
    final SortedMap<ResourceName, Long> free = new TreeMap<>();
    final SortedMap<ResourceName, Long> tasUsage = new TreeMap<>();
    int podCount;

    Domain(String id, List<String> levelValues) {
      this.id = id;
      this.levelValues = List.copyOf(levelValues);
    }
  }

  /** An assignment, or the reason there is none ({@code FailureReason}). */
  public record Outcome(Optional<TopologyAssignment> assignment, String failure) {
    static Outcome failed(String reason) {
      return new Outcome(Optional.empty(), reason);
    }

    public boolean placed() {
      return failure.isEmpty();
    }
  }

  public TasFlavorSnapshot(ResourceFlavor flavor, Topology topology, List<TopologyNode> nodes) {
    this.topologyName = topology.name();
    this.levels = topology.levels();
    this.lowestIsNode = topology.lowestLevelIsNode();
    this.flavorTolerations = flavor.tolerations();
    for (int i = 0; i < levels.size(); i++) {
      perLevel.add(new TreeMap<>());
    }
    for (TopologyNode tn : nodes) {
      Node n = tn.node();
      // nodesCache.find: schedulable and Ready, with the flavor's labels and every level's label.
      if (!tn.ready() || n.unschedulable() || !n.labels().containsAll(flavor.nodeLabels())
          || !levels.stream().allMatch(n.labels()::has)) {
        continue;
      }
      List<String> values = levels.stream().map(l -> n.labels().get(l).orElseThrow()).toList();
      String id = lowestIsNode ? values.getLast() : domainId(values);
      Domain leaf = leaves.get(id);
      if (leaf == null) {
        leaf = new Domain(id, values);
        if (lowestIsNode) {
          leaf.node = n;
        }
        leaves.put(id, leaf);
        perLevel.get(levels.size() - 1).put(id, leaf);
        link(leaf);
      }
      for (var e : n.allocatable().quantities().entrySet()) {
        leaf.free.merge(e.getKey(), Amounts.requestValue(e.getKey(), e.getValue()), Long::sum);
      }
      Domain l = leaf;
      tn.nonTasUsage().forEach((r, v) -> l.free.merge(r, -v, Long::sum));
    }
  }

  /** {@code utiltas.DomainID}: the level values joined by commas. */
  public static String domainId(List<String> values) {
    return String.join(",", values);
  }

  /** {@code initializeHelper}: creates the parents of a domain up to a root. */
  private void link(Domain d) {
    if (d.levelValues.size() == 1) {
      roots.add(d);
      return;
    }
    List<String> parentValues = d.levelValues.subList(0, d.levelValues.size() - 1);
    String pid = domainId(parentValues);
    Domain parent = perLevel.get(parentValues.size() - 1).get(pid);
    if (parent == null) {
      parent = new Domain(pid, parentValues);
      perLevel.get(parentValues.size() - 1).put(pid, parent);
      link(parent);
    }
    d.parent = parent;
    parent.children.add(d);
  }

  public String topologyName() {
    return topologyName;
  }

  public List<String> levels() {
    return levels;
  }

  /** {@code addTASUsage}: a placed workload's usage on a leaf; a leaf gone (node deleted, not Ready) is skipped. */
  public void addUsage(String domainId, Map<ResourceName, Long> usage) {
    Domain leaf = leaves.get(domainId);
    if (leaf != null) {
      usage.forEach((r, v) -> leaf.tasUsage.merge(r, v, Long::sum));
    }
  }

  /** {@code removeTASUsage}. */
  public void removeUsage(String domainId, Map<ResourceName, Long> usage) {
    Domain leaf = leaves.get(domainId);
    if (leaf != null) {
      usage.forEach((r, v) -> leaf.tasUsage.merge(r, -v, Long::sum));
    }
  }

  /** {@code HasLevel}: the request names a level of this topology (unconstrained: always). */
  public boolean hasLevel(Optional<TopologyRequest> request) {
    return levelKey(request, false).map(levels::contains).orElse(false);
  }

  private Optional<String> levelKey(Optional<TopologyRequest> request, boolean implied) {
    if (request.isPresent()) {
      TopologyRequest r = request.get();
      if (r.required().isPresent()) {
        return r.required();
      }
      if (r.preferred().isPresent()) {
        return r.preferred();
      }
      if (r.unconstrained()) {
        return Optional.of(levels.getLast());
      }
    }
    return implied ? Optional.of(levels.getLast()) : Optional.empty();
  }

  /** A pod's requests with the one {@code pods} it takes ({@code resources.OnePodRequest}). */
  static SortedMap<ResourceName, Long> withOnePod(SortedMap<ResourceName, Long> single) {
    SortedMap<ResourceName, Long> out = new TreeMap<>(single);
    out.merge(ResourceName.PODS, 1L, Long::sum);
    return out;
  }

  /** A pod's requests in Kueue's units ({@code NewRequestsFromPodSpec} over the twin's effective requests). */
  public static SortedMap<ResourceName, Long> units(Map<ResourceName, Quantity> requests) {
    SortedMap<ResourceName, Long> out = new TreeMap<>();
    requests.forEach((r, q) -> out.put(r, Amounts.requestValue(r, q)));
    return out;
  }

  /**
   * {@code Fits}: whether every domain of a placement still has room for its pods, with this
   * cycle's placements counted.
   */
  public boolean fits(TopologyAssignment assignment, SortedMap<ResourceName, Long> singlePod) {
    SortedMap<ResourceName, Long> requests = withOnePod(singlePod);
    for (TopologyAssignment.Domain d : assignment.domains()) {
      Domain leaf = leaves.get(domainId(d.values()));
      if (leaf == null || countIn(requests, remaining(leaf, false)).count < d.count()) {
        return false;
      }
    }
    return true;
  }

  /** Per leaf, the usage of a placement: each pod's requests and one {@code pods}, times the count. */
  public static SortedMap<String, SortedMap<ResourceName, Long>> usage(TopologyAssignment a,
      SortedMap<ResourceName, Long> singlePod) {
    SortedMap<String, SortedMap<ResourceName, Long>> out = new TreeMap<>();
    for (TopologyAssignment.Domain d : a.domains()) {
      SortedMap<ResourceName, Long> u = out.computeIfAbsent(domainId(d.values()), k -> new TreeMap<>());
      withOnePod(singlePod).forEach((r, v) -> u.merge(r, v * d.count(), Long::sum));
    }
    return out;
  }

  private static SortedMap<ResourceName, Long> remaining(Domain leaf, boolean simulateEmpty) {
    SortedMap<ResourceName, Long> out = new TreeMap<>(leaf.free);
    if (!simulateEmpty) {
      leaf.tasUsage.forEach((r, v) -> out.merge(r, -v, Long::sum));
    }
    return out;
  }

  private record Count(int count, Optional<ResourceName> limiting) {}

  /** {@code CountInWithLimitingResource}: how many times the requests fit; ties go to the first name. */
  private static Count countIn(SortedMap<ResourceName, Long> requests, SortedMap<ResourceName, Long> capacity) {
    Integer result = null;
    ResourceName limiting = null;
    for (var e : requests.entrySet()) {
      long cap = capacity.getOrDefault(e.getKey(), 0L);
      int count = e.getValue() == 0 ? Integer.MAX_VALUE
          : (int) Math.max(0, Math.min(cap / e.getValue(), Integer.MAX_VALUE));
      if (result == null || count < result) {
        result = count;
        limiting = e.getKey();
      }
    }
    return new Count(result == null ? 0 : result, Optional.ofNullable(limiting));
  }

  /** {@code tasExclusionStats}: why nodes were left out, for the NoFit message. */
  private static final class Exclusions {
    int totalNodes;
    int nodeSelector;
    int affinity;
    final SortedMap<String, Integer> taints = new TreeMap<>();
    final SortedMap<String, Integer> resources = new TreeMap<>();

    boolean any() {
      return nodeSelector > 0 || affinity > 0 || !taints.isEmpty() || !resources.isEmpty();
    }

    /** {@code formatReasons}: each reason, sorted, joined by ", ". */
    String format() {
      List<String> reasons = new ArrayList<>();
      if (nodeSelector > 0) {
        reasons.add("nodeSelector: " + nodeSelector);
      }
      if (affinity > 0) {
        reasons.add("affinity: " + affinity);
      }
      taints.forEach((t, n) -> reasons.add("taint \"" + t + "\": " + n));
      resources.forEach((r, n) -> reasons.add("resource \"" + r + "\": " + n));
      return String.join(", ", reasons.stream().sorted().toList());
    }
  }

  /**
   * {@code findTopologyAssignment} for {@code count} pods of {@code singlePod} requests (without
   * {@code pods}), with {@code assumed} usage of the workload's earlier pod sets per leaf; with
   * {@code simulateEmpty}, as if every TAS workload were gone.
   */
  public Outcome assign(Optional<TopologyRequest> request, boolean implied, int count,
      SortedMap<ResourceName, Long> singlePod, PodSpec template, Map<String, SortedMap<ResourceName, Long>> assumed,
      boolean simulateEmpty) {
    Optional<String> key = levelKey(request, implied);
    if (key.isEmpty()) {
      return Outcome.failed("topology level not specified");
    }
    int requested = levels.indexOf(key.get());
    if (requested < 0) {
      return Outcome.failed("no requested topology level: " + key.get());
    }
    boolean required = request.flatMap(TopologyRequest::required).isPresent();
    boolean unconstrained = request.map(TopologyRequest::unconstrained).orElse(false) || implied;
    SortedMap<ResourceName, Long> requests = withOnePod(singlePod);
    Exclusions stats = new Exclusions();
    fillInCounts(requests, template, assumed, simulateEmpty, stats);
    Fit fit = findLevelWithFitDomains(requested, count, required, unconstrained, stats);
    if (fit.failure != null) {
      return Outcome.failed(fit.failure);
    }
    List<Domain> current = updateCountsToMinimum(fit.domains, count, unconstrained);
    for (int level = fit.level; level < levels.size() - 1; level++) {
      List<Domain> lower = new ArrayList<>();
      current.forEach(d -> lower.addAll(d.children));
      current = updateCountsToMinimum(sorted(lower, unconstrained), count, unconstrained);
    }
    return new Outcome(Optional.of(buildAssignment(current)), "");
  }

  /** {@code fillInCounts}: each leaf's pod count, then the sums up the tree. */
  private void fillInCounts(SortedMap<ResourceName, Long> requests, PodSpec template,
      Map<String, SortedMap<ResourceName, Long>> assumed, boolean simulateEmpty, Exclusions stats) {
    perLevel.forEach(l -> l.values().forEach(d -> d.podCount = 0));
    List<Toleration> tolerations = new ArrayList<>(template.tolerations());
    tolerations.addAll(flavorTolerations);
    Optional<NodeSelector> affinity = template.nodeAffinity().required();
    for (Domain leaf : leaves.values()) {
      stats.totalNodes++;
      if (lowestIsNode) {
        // defaultSimulatorSnapshot.FindFeasibleNodes: taints, then node selector, then required affinity.
        Taint t = Tolerations.firstUntoleratedBlockingOrNull(leaf.node.taints(), tolerations);
        if (t != null) {
          stats.taints.merge(t.toString(), 1, Integer::sum);
          continue;
        }
        if (!leaf.node.labels().containsAll(template.nodeSelector())) {
          stats.nodeSelector++;
          continue;
        }
        if (affinity.isPresent() && !affinity.get().matches(leaf.node.name(), leaf.node.labels())) {
          stats.affinity++;
          continue;
        }
      }
      SortedMap<ResourceName, Long> rem = remaining(leaf, simulateEmpty);
      SortedMap<ResourceName, Long> mine = assumed.get(leaf.id);
      if (mine != null) {
        mine.forEach((r, v) -> rem.merge(r, -v, Long::sum));
      }
      Count c = countIn(requests, rem);
      leaf.podCount = c.count;
      if (c.count == 0 && c.limiting.isPresent()) {
        stats.resources.merge(c.limiting.get().toString(), 1, Integer::sum);
      }
    }
    roots.forEach(TasFlavorSnapshot::sumUp);
  }

  private static void sumUp(Domain d) {
    if (d.children.isEmpty()) {
      return;
    }
    long sum = 0;
    for (Domain c : d.children) {
      sumUp(c);
      sum += c.podCount;
    }
    d.podCount = (int) Math.min(sum, Integer.MAX_VALUE);
  }

  private record Fit(int level, List<Domain> domains, String failure) {}

  /** {@code findLevelWithFitDomains}. */
  private Fit findLevelWithFitDomains(int level, int count, boolean required, boolean unconstrained,
      Exclusions stats) {
    List<Domain> sorted = sorted(new ArrayList<>(perLevel.get(level).values()), unconstrained);
    if (sorted.isEmpty()) {
      return new Fit(0, List.of(), "no topology domains at level: " + levels.get(level));
    }
    Domain top = sorted.getFirst();
    if (!unconstrained && top.podCount >= count) {
      top = bestFit(sorted, count);
    }
    if (unconstrained) {
      // LeastFreeCapacity: the first domain, least free first, that fits them all.
      for (Domain d : sorted) {
        if (d.podCount >= count) {
          return new Fit(level, List.of(d), null);
        }
      }
      if (required) {
        return new Fit(0, List.of(), notFit(sorted.getLast().podCount, count, stats));
      }
    }
    if (top.podCount < count) {
      if (required) {
        return new Fit(0, List.of(), notFit(top.podCount, count, stats));
      }
      if (level > 0 && !unconstrained) {
        return findLevelWithFitDomains(level - 1, count, required, unconstrained, stats);
      }
      List<Domain> results = new ArrayList<>();
      long remaining = count;
      List<Domain> rest = sorted(sorted, unconstrained);
      for (int i = 0; remaining > 0 && i < rest.size(); i++) {
        Domain d = rest.get(i);
        if (!unconstrained && d.podCount >= remaining) {
          d = bestFit(rest.subList(i, rest.size()), remaining);
        }
        results.add(d);
        remaining -= d.podCount;
      }
      if (remaining > 0) {
        return new Fit(0, List.of(), notFit((int) (count - remaining), count, stats));
      }
      return new Fit(level, results, null);
    }
    return new Fit(level, List.of(top), null);
  }

  /** {@code findBestFitDomainBy}: the first domain with the smallest count that still fits, else the first. */
  private static Domain bestFit(List<Domain> domains, long needed) {
    Domain best = domains.getFirst();
    long bestCount = Integer.MAX_VALUE;
    boolean found = false;
    for (Domain d : domains) {
      if (d.podCount >= needed && d.podCount < bestCount) {
        best = d;
        bestCount = d.podCount;
        found = true;
      }
    }
    return found ? best : domains.getFirst();
  }

  /** {@code updateCountsToMinimumGeneric} without leaders, slices of one pod. */
  private List<Domain> updateCountsToMinimum(List<Domain> domains, int count, boolean unconstrained) {
    List<Domain> result = new ArrayList<>();
    long remaining = count;
    for (int i = 0; i < domains.size(); i++) {
      Domain d = domains.get(i);
      if (!unconstrained && d.podCount >= remaining) {
        d = bestFit(domains.subList(i, domains.size()), remaining);
      }
      if (d.podCount >= remaining) {
        d.podCount = (int) remaining;
        result.add(d);
        return result;
      }
      remaining -= d.podCount;
      result.add(d);
    }
    // Upstream logs "code assumptions violated" and returns no domains.
    return List.of();
  }

  /**
   * {@code sortedDomains}: BestFit by pod count descending, LeastFreeCapacity ascending; then by the
   * level values.
   */
  private List<Domain> sorted(List<Domain> domains, boolean unconstrained) {
    Comparator<Domain> byCount = unconstrained ? Comparator.comparingInt(d -> d.podCount)
        : Comparator.<Domain>comparingInt(d -> d.podCount).reversed();
    List<Domain> out = new ArrayList<>(domains);
    out.sort(byCount.thenComparing(this::compareLevelValues));
    return out;
  }

  /** {@code compareDomainLevelValues}: siblings under one node-level parent by hostname, else lexicographically. */
  private int compareLevelValues(Domain a, Domain b) {
    if (lowestIsNode && a.parent == b.parent) {
      return a.levelValues.getLast().compareTo(b.levelValues.getLast());
    }
    for (int i = 0; i < Math.min(a.levelValues.size(), b.levelValues.size()); i++) {
      int c = a.levelValues.get(i).compareTo(b.levelValues.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.levelValues.size(), b.levelValues.size());
  }

  /** {@code buildAssignment}: the leaves in level-value order; only hostnames when that is the lowest level. */
  private TopologyAssignment buildAssignment(List<Domain> domains) {
    List<Domain> ordered = new ArrayList<>(domains);
    ordered.sort(this::compareLevelValues);
    int from = lowestIsNode ? levels.size() - 1 : 0;
    List<TopologyAssignment.Domain> out = new ArrayList<>();
    for (Domain d : ordered) {
      if (d.podCount == 0) {
        continue;
      }
      out.add(new TopologyAssignment.Domain(d.levelValues.subList(from, d.levelValues.size()), d.podCount));
    }
    return new TopologyAssignment(levels.subList(from, levels.size()), out);
  }

  /** {@code notFitMessage}, pods as the unit (no slices). */
  private String notFit(int fit, int total, Exclusions stats) {
    String m = fit == 0
        ? "topology \"" + topologyName + "\" doesn't allow to fit any of " + total + " pod(s)"
        : "topology \"" + topologyName + "\" allows to fit only " + fit + " out of " + total + " pod(s)";
    return stats.any() ? m + ". Total nodes: " + stats.totalNodes + "; excluded: " + stats.format() : m;
  }
}
