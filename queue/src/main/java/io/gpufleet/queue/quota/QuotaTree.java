package io.gpufleet.queue.quota;

import io.gpufleet.queue.api.ClusterQueue;
import io.gpufleet.queue.api.Cohort;
import io.gpufleet.queue.api.FairSharing;
import io.gpufleet.queue.api.FlavorQuotas;
import io.gpufleet.queue.api.ResourceGroup;
import io.gpufleet.queue.api.ResourceQuota;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * The quota tree of one scheduling snapshot ({@code pkg/cache/scheduler/resource_node.go}): cohorts
 * over ClusterQueues, each node with its quotas, its subtree's quota (children's quota past their
 * lending limits added to the parent) and its usage (the part of children's usage past their local
 * quota). Usage changes as a cycle reserves quota; build a new tree for a new snapshot.
 */
public final class QuotaTree {

  /** A node of the tree: a ClusterQueue (a leaf) or a cohort. */
  private static final class Node {
    final String name;
    final boolean clusterQueue;
    Node parent;
    final List<Node> children = new ArrayList<>();
    final Map<FlavorResource, ResourceQuotaValues> quotas;
    final Map<FlavorResource, Long> subtreeQuota = new TreeMap<>();
    final Map<FlavorResource, Long> usage = new TreeMap<>();
    /** {@code fairWeight}: {@code spec.fairSharing.weight}, 1 when unset. */
    final double weight;

    Node(String name, boolean clusterQueue, Map<FlavorResource, ResourceQuotaValues> quotas, double weight) {
      this.name = name;
      this.clusterQueue = clusterQueue;
      this.quotas = quotas;
      this.weight = weight;
    }

    long subtree(FlavorResource fr) {
      return subtreeQuota.getOrDefault(fr, 0L);
    }

    long used(FlavorResource fr) {
      return usage.getOrDefault(fr, 0L);
    }

    ResourceQuotaValues quota(FlavorResource fr) {
      return quotas.getOrDefault(fr, ResourceQuotaValues.NONE);
    }

    /** {@code localQuota}: what the node keeps from its parent, its subtree quota past its lending limit. */
    long localQuota(FlavorResource fr) {
      OptionalLong ll = quota(fr).lendingLimit();
      return ll.isPresent() ? Math.max(0, Amounts.sub(subtree(fr), ll.getAsLong())) : 0;
    }
  }

  private final Map<String, Node> clusterQueues = new LinkedHashMap<>();
  private final Map<String, Node> cohorts = new LinkedHashMap<>();

  private QuotaTree() {}

  /**
   * The tree of these ClusterQueues and cohorts; a cohort a ClusterQueue or cohort names without an
   * object of its own exists implicitly, without quota. A cycle of parents is refused.
   */
  public static QuotaTree of(List<ClusterQueue> queues, List<Cohort> cohortObjects) {
    QuotaTree t = new QuotaTree();
    for (Cohort c : cohortObjects) {
      t.cohorts.put(c.name(), new Node(c.name(), false, quotas(c.resourceGroups()), c.fairSharing().weightValue()));
    }
    for (Cohort c : cohortObjects) {
      c.parent().ifPresent(p -> t.link(t.cohort(p), t.cohorts.get(c.name())));
    }
    for (ClusterQueue cq : queues) {
      Node n = new Node(cq.name(), true, quotas(cq.resourceGroups()), cq.fairSharing().weightValue());
      t.clusterQueues.put(cq.name(), n);
      cq.cohort().ifPresent(c -> t.link(t.cohort(c), n));
    }
    Set<Node> roots = new HashSet<>();
    for (Node c : t.cohorts.values()) {
      roots.add(t.root(c));
    }
    for (Node r : roots) {
      update(r);
    }
    for (Node cq : t.clusterQueues.values()) {
      if (cq.parent == null) {
        update(cq);
      }
    }
    return t;
  }

  private Node cohort(String name) {
    return cohorts.computeIfAbsent(name, n -> new Node(n, false, Map.of(), FairSharing.DEFAULT.weightValue()));
  }

  private void link(Node parent, Node child) {
    child.parent = parent;
    parent.children.add(child);
  }

  private Node root(Node n) {
    Set<Node> seen = new HashSet<>();
    while (n.parent != null) {
      if (!seen.add(n)) {
        throw new IllegalArgumentException("cohort " + n.name + " is in a cycle of parents");
      }
      n = n.parent;
    }
    return n;
  }

  /** {@code createResourceQuotas}. */
  private static Map<FlavorResource, ResourceQuotaValues> quotas(List<ResourceGroup> groups) {
    Map<FlavorResource, ResourceQuotaValues> out = new TreeMap<>();
    for (ResourceGroup g : groups) {
      for (FlavorQuotas f : g.flavors()) {
        for (ResourceQuota q : f.resources()) {
          OptionalLong bl = q.borrowingLimit().map(v -> OptionalLong.of(Amounts.of(q.name(), v)))
              .orElse(OptionalLong.empty());
          OptionalLong ll = q.lendingLimit().map(v -> OptionalLong.of(Amounts.of(q.name(), v)))
              .orElse(OptionalLong.empty());
          out.put(new FlavorResource(f.name(), q.name()),
              new ResourceQuotaValues(Amounts.of(q.name(), q.nominalQuota()), bl, ll));
        }
      }
    }
    return out;
  }

  /** {@code updateCohortResourceNode} / {@code updateClusterQueueResourceNode} and {@code accumulateFromChild}. */
  private static void update(Node n) {
    n.subtreeQuota.clear();
    if (!n.clusterQueue) {
      n.usage.clear();
    }
    n.quotas.forEach((fr, q) -> n.subtreeQuota.put(fr, q.nominal()));
    for (Node child : n.children) {
      update(child);
      child.subtreeQuota.forEach((fr, q) ->
          n.subtreeQuota.merge(fr, Amounts.sub(q, child.localQuota(fr)), Amounts::add));
      child.usage.forEach((fr, u) ->
          n.usage.merge(fr, Math.max(0, Amounts.sub(u, child.localQuota(fr))), Amounts::add));
    }
  }

  private Node cq(String name) {
    Node n = clusterQueues.get(name);
    if (n == null) {
      throw new IllegalArgumentException("no ClusterQueue " + name);
    }
    return n;
  }

  public boolean hasClusterQueue(String name) {
    return clusterQueues.containsKey(name);
  }

  /** The cohort a ClusterQueue is in, if any. */
  public Optional<String> cohortOf(String clusterQueue) {
    Node p = cq(clusterQueue).parent;
    return p == null ? Optional.empty() : Optional.of(p.name);
  }

  /** The root of a ClusterQueue's cohort tree (itself when it has no cohort). */
  public String rootOf(String clusterQueue) {
    return root(cq(clusterQueue)).name;
  }

  /** {@code buildCQPath}: {@code /root/.../cohort/cq}. */
  public String path(String clusterQueue) {
    StringBuilder b = new StringBuilder();
    for (Node n = cq(clusterQueue); n != null; n = n.parent) {
      b.insert(0, "/" + n.name);
    }
    return b.toString();
  }

  public ResourceQuotaValues quota(String clusterQueue, FlavorResource fr) {
    return cq(clusterQueue).quota(fr);
  }

  public long usage(String clusterQueue, FlavorResource fr) {
    return cq(clusterQueue).used(fr);
  }

  /** {@code LocalAvailable}: what the node keeps unused of its own, not counting its parent. */
  private static long localAvailable(Node n, FlavorResource fr) {
    return Math.max(0, Amounts.sub(n.localQuota(fr), n.used(fr)));
  }

  private static long available(Node n, FlavorResource fr) {
    if (n.parent == null) {
      return Amounts.sub(n.subtree(fr), n.used(fr));
    }
    long parentAvailable = available(n.parent, fr);
    OptionalLong bl = n.quota(fr).borrowingLimit();
    if (bl.isPresent()) {
      long lq = n.localQuota(fr);
      long storedInParent = Amounts.sub(n.subtree(fr), lq);
      long usedInParent = Math.max(0, Amounts.sub(n.used(fr), lq));
      long withMaxFromParent = Amounts.add(Amounts.sub(storedInParent, usedInParent), bl.getAsLong());
      parentAvailable = Math.min(withMaxFromParent, parentAvailable);
    }
    return Amounts.add(localAvailable(n, fr), parentAvailable);
  }

  /**
   * {@code ClusterQueueSnapshot.Available}: what the ClusterQueue can use now, its own unused quota
   * and what it may borrow, 0 when it or its cohort is in debt.
   */
  public long available(String clusterQueue, FlavorResource fr) {
    return Math.max(0, available(cq(clusterQueue), fr));
  }

  private static long potentialAvailable(Node n, FlavorResource fr) {
    if (n.parent == null) {
      return n.subtree(fr);
    }
    long avail = Amounts.add(n.localQuota(fr), potentialAvailable(n.parent, fr));
    OptionalLong bl = n.quota(fr).borrowingLimit();
    if (bl.isPresent()) {
      avail = Math.min(Amounts.add(n.subtree(fr), bl.getAsLong()), avail);
    }
    return avail;
  }

  /** {@code PotentialAvailable}: the largest request the ClusterQueue could ever admit. */
  public long potentialAvailable(String clusterQueue, FlavorResource fr) {
    return potentialAvailable(cq(clusterQueue), fr);
  }

  private static void addUsage(Node n, FlavorResource fr, long val) {
    long local = localAvailable(n, fr);
    n.usage.merge(fr, val, Amounts::add);
    if (n.parent != null && val > local) {
      addUsage(n.parent, fr, Amounts.sub(val, local));
    }
  }

  private static void removeUsage(Node n, FlavorResource fr, long val) {
    long storedInParent = Amounts.sub(n.used(fr), n.localQuota(fr));
    n.usage.put(fr, Amounts.sub(n.used(fr), val));
    if (storedInParent <= 0 || n.parent == null) {
      return;
    }
    removeUsage(n.parent, fr, Math.min(val, storedInParent));
  }

  /** Charges a workload's usage to a ClusterQueue and, past its local quota, to its cohorts. */
  public void addUsage(String clusterQueue, Map<FlavorResource, Long> usage) {
    Node n = cq(clusterQueue);
    usage.forEach((fr, v) -> addUsage(n, fr, v));
  }

  public void removeUsage(String clusterQueue, Map<FlavorResource, Long> usage) {
    Node n = cq(clusterQueue);
    usage.forEach((fr, v) -> removeUsage(n, fr, v));
  }

  /** {@code ClusterQueueSnapshot.Fits}: every flavor-resource of the usage within what is available now. */
  public boolean fits(String clusterQueue, Map<FlavorResource, Long> usage) {
    for (var e : usage.entrySet()) {
      if (available(clusterQueue, e.getKey()) < e.getValue()) {
        return false;
      }
    }
    return true;
  }

  private static boolean borrowingWith(Node n, FlavorResource fr, long val) {
    long limit = n.clusterQueue ? n.quota(fr).nominal() : n.subtree(fr);
    return limit < Amounts.add(n.used(fr), val);
  }

  private static int height(Node cohort) {
    int h = Math.min((int) cohort.children.stream().count(), 1);
    for (Node c : cohort.children) {
      if (!c.clusterQueue) {
        h = Math.max(h, height(c) + 1);
      }
    }
    return h;
  }

  /**
   * How far up the tree a ClusterQueue must borrow to take {@code val} more, and whether that
   * subtree is smaller than the whole tree ({@code classical.FindHeightOfLowestSubtreeThatFits}):
   * 0 when it fits in its own nominal quota.
   */
  public HeightFit heightOfLowestSubtreeThatFits(String clusterQueue, FlavorResource fr, long val) {
    Node c = cq(clusterQueue);
    if (!borrowingWith(c, fr, val) || c.parent == null) {
      return new HeightFit(0, c.parent != null);
    }
    long remaining = Amounts.sub(val, localAvailable(c, fr));
    for (Node t = c.parent; t != null; t = t.parent) {
      if (!borrowingWith(t, fr, remaining)) {
        return new HeightFit(height(t), t.parent != null);
      }
      remaining = Amounts.sub(remaining, localAvailable(t, fr));
    }
    return new HeightFit(height(root(c)), false);
  }

  /** The borrowing height and whether a smaller subtree than the whole tree could reclaim. */
  public record HeightFit(int height, boolean mayReclaimInHierarchy) {}
  // ---- what preemption across the cohort asks of the tree (classical/hierarchical_preemption.go) ----

  private Node cohortNode(String name) {
    Node n = cohorts.get(name);
    if (n == null) {
      throw new IllegalArgumentException("no cohort " + name);
    }
    return n;
  }

  /** The cohorts above a ClusterQueue, its parent first ({@code PathParentToRoot}). */
  public List<String> cohortsAbove(String clusterQueue) {
    List<String> out = new ArrayList<>();
    for (Node n = cq(clusterQueue).parent; n != null; n = n.parent) {
      out.add(n.name);
    }
    return out;
  }

  public List<String> childCohorts(String cohort) {
    return cohortNode(cohort).children.stream().filter(c -> !c.clusterQueue).map(c -> c.name).toList();
  }

  public List<String> childClusterQueues(String cohort) {
    return cohortNode(cohort).children.stream().filter(c -> c.clusterQueue).map(c -> c.name).toList();
  }

  private static boolean withinNominal(Node n, Set<FlavorResource> frs) {
    for (FlavorResource fr : frs) {
      if (n.subtree(fr) < n.used(fr)) {
        return false;
      }
    }
    return true;
  }

  /** {@code IsWithinNominalInResources} of a ClusterQueue: its usage within its quota for each. */
  public boolean clusterQueueWithinNominal(String clusterQueue, Set<FlavorResource> frs) {
    return withinNominal(cq(clusterQueue), frs);
  }

  /** {@code IsWithinNominalInResources} of a cohort: its usage within its subtree's quota for each. */
  public boolean cohortWithinNominal(String cohort, Set<FlavorResource> frs) {
    return withinNominal(cohortNode(cohort), frs);
  }

  /** {@code QuantitiesFitInQuota}: whether the requests fit the node's subtree quota, and what is left past its local quota. */
  public record Fit(boolean fits, Map<FlavorResource, Long> remaining) {}

  private static Fit quantitiesFit(Node n, Map<FlavorResource, Long> requests) {
    boolean fits = true;
    Map<FlavorResource, Long> remaining = new TreeMap<>();
    for (var e : requests.entrySet()) {
      if (n.subtree(e.getKey()) < Amounts.add(n.used(e.getKey()), e.getValue())) {
        fits = false;
      }
      remaining.put(e.getKey(), Math.max(0, Amounts.sub(e.getValue(), localAvailable(n, e.getKey()))));
    }
    return new Fit(fits, remaining);
  }

  public Fit clusterQueueQuantitiesFit(String clusterQueue, Map<FlavorResource, Long> requests) {
    return quantitiesFit(cq(clusterQueue), requests);
  }

  public Fit cohortQuantitiesFit(String cohort, Map<FlavorResource, Long> requests) {
    return quantitiesFit(cohortNode(cohort), requests);
  }

  /** {@code ClusterQueueSnapshot.BorrowingWith}: past its nominal quota with {@code val} more. */
  public boolean borrowingWith(String clusterQueue, FlavorResource fr, long val) {
    return borrowingWith(cq(clusterQueue), fr, val);
  }

  // ---- fair sharing (pkg/cache/scheduler/fair_sharing.go) ----

  /**
   * {@code dominantResourceShare}: for each resource, what the node uses above its subtree quota in
   * all flavors (with {@code request} added), over what its parent could lend it
   * ({@code calculateLendable}), times 1000; the largest, the first resource by name on a tie. A
   * node without a parent has no share.
   */
  private static DominantResourceShare share(Node n, Map<FlavorResource, Long> request) {
    if (n.parent == null) {
      return DominantResourceShare.zero(n.weight);
    }
    Map<String, Long> borrowing = new TreeMap<>();
    List<FlavorResource> borrowed = new ArrayList<>();
    n.subtreeQuota.forEach((fr, quota) -> {
      long amount = Amounts.sub(Amounts.add(request.getOrDefault(fr, 0L), n.used(fr)), quota);
      if (amount > 0) {
        borrowing.merge(fr.resource().toString(), amount, Amounts::add);
        borrowed.add(fr);
      }
    });
    if (borrowing.isEmpty()) {
      return DominantResourceShare.zero(n.weight);
    }
    Map<String, Long> lendable = lendable(n.parent);
    double ratio = 0;
    String dominant = "";
    for (var e : borrowing.entrySet()) {
      long lr = lendable.getOrDefault(e.getKey(), 0L);
      if (lr > 0) {
        double r = (double) e.getValue() * 1000.0 / (double) lr;
        if (r > ratio || r == ratio && e.getKey().compareTo(dominant) < 0) {
          ratio = r;
          dominant = e.getKey();
        }
      }
    }
    return new DominantResourceShare(n.weight, ratio, dominant, true, borrowed);
  }

  /** {@code calculateLendable}: per resource, what the node could use at most, summed over the flavors of the whole tree. */
  private static Map<String, Long> lendable(Node n) {
    Node root = n;
    while (root.parent != null) {
      root = root.parent;
    }
    Map<String, Long> out = new TreeMap<>();
    for (FlavorResource fr : root.subtreeQuota.keySet()) {
      out.merge(fr.resource().toString(), potentialAvailable(n, fr), Amounts::add);
    }
    return out;
  }

  /** {@code ClusterQueueSnapshot.DominantResourceShare}. */
  public DominantResourceShare clusterQueueShare(String clusterQueue) {
    return share(cq(clusterQueue), Map.of());
  }

  /** The share the ClusterQueue would have with {@code request} more ({@code dominantResourceShare(cq, wlReq)}). */
  public DominantResourceShare clusterQueueShare(String clusterQueue, Map<FlavorResource, Long> request) {
    return share(cq(clusterQueue), request);
  }

  /** {@code CohortSnapshot.DominantResourceShare}. */
  public DominantResourceShare cohortShare(String cohort) {
    return share(cohortNode(cohort), Map.of());
  }

  public DominantResourceShare cohortShare(String cohort, Map<FlavorResource, Long> request) {
    return share(cohortNode(cohort), request);
  }

  /** Every cohort, those ClusterQueues name without an object included. */
  public List<String> cohortNames() {
    return List.copyOf(cohorts.keySet());
  }

  public List<String> clusterQueueNames() {
    return List.copyOf(clusterQueues.keySet());
  }

  /** {@code SubtreeClusterQueues}: the ClusterQueues under a cohort, at any depth. */
  public List<String> subtreeClusterQueues(String cohort) {
    List<String> out = new ArrayList<>();
    collectClusterQueues(cohortNode(cohort), out);
    return out;
  }

  private static void collectClusterQueues(Node n, List<String> out) {
    for (Node c : n.children) {
      if (c.clusterQueue) {
        out.add(c.name);
      } else {
        collectClusterQueues(c, out);
      }
    }
  }
}
