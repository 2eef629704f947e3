package io.gpufleet.sim.controller;

import io.gpufleet.autoscaler.state.NodeLog;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.collect.PMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Karpenter's state nodes in the view's order, kept up to date by single changes: first a
 * NodeClaim's state node per NodeClaim in the claims map's iteration order, then the unmanaged nodes
 * by name; and each by node name and NodeClaim name. A change costs a binary search, an array shift
 * and a few map updates, not a pass over the fleet.
 *
 * <p>The claims map ({@link PMap}, a hash trie) iterates its keys by their mixed hash read five bits
 * at a time from the low end, so that order is the order of {@link #order(Object)}. Keys of one
 * mixed hash iterate in the order they were put, which a diff does not tell: a change to a NodeClaim
 * that shares its place with another puts that place's NodeClaims in the order the map gives them.
 * Two state nodes of one name make the list {@link #irregular()} until it is built again.
 *
 * <p>It also keeps which NodeClaims' state nodes are deleting ({@link #deleting()}), so that a
 * provisioning round finds the deleting nodes without a walk over the list: a shortcut of the
 * twin's, not a step of Karpenter's, exact because every state node enters and leaves the list
 * through {@link #reset} or {@link #apply}, which note it. ViewBuilderTest compares it with the walk.
 */
final class ViewNodes {

  private final List<StateNode> nodes = new ArrayList<>();
  /** How many of {@link #nodes} lead as NodeClaims' state nodes. */
  private int claimCount;
  /**
   * {@link #order} of each of the first {@link #claimCount} state nodes' NodeClaims: a search reads this
   * array instead of a state node, its claim and the name's hash at each step (cache misses on a large fleet).
   */
  private long[] orders = new long[64];
  private final Map<String, StateNode> byNodeName = new HashMap<>();
  private final Map<String, StateNode> byClaimName = new HashMap<>();
  /** {@link #byClaimName} as a persistent map, for a reader that follows it by its diffs. */
  private PMap<String, StateNode> claimNodes = PMap.empty();
  private PMap<String, StateNode> byName = PMap.empty();
  /** The NodeClaims of {@link #byClaimName} whose state nodes are deleting ({@link StateNode#isDeleting}). */
  private final Set<String> deleting = new HashSet<>();
  private boolean irregular;
  /** The immutable copy of {@link #nodes} last handed out, until they change. */
  private List<StateNode> frozen = List.of();
  /** Each change to {@link #nodes} as a splice, for readers that follow the list by them; a new chain at each reset. */
  private NodeLog log = NodeLog.start();

  /** The state nodes, in order (an immutable list, the same object while nothing changed). */
  List<StateNode> nodes() {
    if (frozen == null) {
      frozen = List.copyOf(nodes);
    }
    return frozen;
  }

  /**
   * Each state node by name and, where no node goes by it, by its NodeClaim's name, as the view's
   * {@code byName}: where two go by one name, the later.
   */
  PMap<String, StateNode> byName() {
    return byName;
  }

  /** The last entry of the chain of splices that made {@link #nodes()} ({@link NodeLog}). */
  NodeLog log() {
    return log;
  }

  /** Each NodeClaim's state node by the claim's name (one lineage from change to change). */
  PMap<String, StateNode> claimNodes() {
    return claimNodes;
  }

  /**
   * The NodeClaims whose state nodes are deleting ({@link StateNode#isDeleting}), kept with {@link
   * #ofClaim} as state nodes come and go; a NodeClaim's state node is the only kind that can be
   * deleting (an unmanaged node is never marked).
   */
  Set<String> deleting() {
    return Collections.unmodifiableSet(deleting);
  }

  /** Whether two state nodes share a name. */
  boolean irregular() {
    return irregular;
  }

  /** The state nodes of a build from scratch: the NodeClaims' in the claims map's order, then the unmanaged by name. */
  void reset(List<StateNode> claimNodes, List<StateNode> unmanaged) {
    nodes.clear();
    nodes.addAll(claimNodes);
    nodes.addAll(unmanaged);
    claimCount = claimNodes.size();
    orders = new long[Math.max(64, claimCount * 2)];
    for (int i = 0; i < claimCount; i++) {
      orders[i] = order(claimOf(i));
    }
    frozen = null;
    log = NodeLog.start();
    byNodeName.clear();
    byClaimName.clear();
    irregular = false;
    PMap<String, StateNode> names = PMap.empty();
    for (StateNode n : nodes) {
      irregular |= byNodeName.put(n.name(), n) != null;
      names = names.put(n.name(), n);
    }
    // A NodeClaim's own name finds its state node too, unless a node already goes by it.
    for (StateNode n : nodes) {
      if (n.claim().isPresent()) {
        String claim = n.claim().get().name();
        byClaimName.put(claim, n);
        if (names.get(claim) == null) {
          names = names.put(claim, n);
        }
      }
    }
    byName = names;
    deleting.clear();
    byClaimName.forEach((claim, n) -> {
      if (n.isDeleting()) {
        deleting.add(claim);
      }
    });
    // Put into the last map, not a new one: what did not change stays shared, and a diff skips it.
    PMap<String, StateNode> kept = this.claimNodes;
    for (String gone : kept.keys()) {
      if (!byClaimName.containsKey(gone)) {
        kept = kept.remove(gone);
      }
    }
    for (var e : byClaimName.entrySet()) {
      kept = kept.put(e.getKey(), e.getValue());
    }
    this.claimNodes = kept;
  }

  /** The state node of a NodeClaim, if the list holds one. */
  StateNode ofClaim(String claim) {
    return byClaimName.get(claim);
  }

  /**
   * Where a NodeClaim's state node is in the list, or -1: found by a binary search on its place in the
   * order (and a look along the few NodeClaims sharing that place), not a walk over the list.
   */
  int position(String claim) {
    long key = order(claim);
    for (int i = firstNotBefore(key); i < claimCount && orders[i] == key; i++) {
      if (claimOf(i).equals(claim)) {
        return i;
      }
    }
    return -1;
  }

  /** The state node of an unmanaged node, if the list holds one. */
  StateNode unmanaged(String name) {
    int at = unmanagedPosition(name);
    return at >= 0 ? nodes.get(at) : null;
  }

  /**
   * Applies one image's changes: each NodeClaim's state node replaced by its new one (null: gone), and
   * each unmanaged node's likewise. A changed NodeClaim that shares its place in the claims' order
   * with another puts the NodeClaims of that place in the order {@code claimOrder} (the image's claims
   * map) gives them. False when the result would be {@link #irregular()}: the list is then in no state
   * to use, and must be {@link #reset}.
   */
  boolean apply(Map<String, StateNode> claims, Map<String, StateNode> unmanaged, PMap<String, ?> claimOrder) {
    frozen = null;
    List<String> touched = new ArrayList<>();
    // Every old state node leaves the name maps before any new one enters, so a name passing from one
    // to another (a node registering for its claim) is no clash.
    for (String claim : claims.keySet()) {
      forget(byClaimName.get(claim), touched);
    }
    for (String name : unmanaged.keySet()) {
      forget(unmanaged(name), touched);
    }
    for (StateNode n : claims.values()) {
      if (n != null && !remember(n, touched)) {
        return false;
      }
    }
    for (StateNode n : unmanaged.values()) {
      if (n != null && !remember(n, touched)) {
        return false;
      }
    }
    for (Map.Entry<String, StateNode> e : claims.entrySet()) {
      int at = claimPosition(e.getKey());
      if (at == Integer.MIN_VALUE) {
        placeSharing(e.getKey(), claimOrder);
      } else {
        place(at, e.getValue(), true);
      }
    }
    for (Map.Entry<String, StateNode> e : unmanaged.entrySet()) {
      place(unmanagedPosition(e.getKey()), e.getValue(), false);
    }
    for (String k : touched) {
      StateNode n = byNodeName.get(k);
      if (n == null) {
        n = byClaimName.get(k);
      }
      byName = n == null ? byName.remove(k) : byName.put(k, n);
    }
    return true;
  }

  /**
   * The state nodes of the NodeClaims sharing {@code claim}'s place in the order, put in the order the
   * claims map iterates them (the order they were put in it): the map is asked for them, as its diff
   * does not tell that order (issue 33 item 7: on the large week, two claims of one hash rebuilt the
   * whole list on each change of either).
   */
  private void placeSharing(String claim, PMap<String, ?> claimOrder) {
    long key = order(claim);
    int lo = firstNotBefore(key);
    int end = lo;
    while (end < claimCount && orders[end] == key) {
      end++;
    }
    List<StateNode> group = new ArrayList<>();
    for (String k : claimOrder.keysSharingHash(claim)) {
      group.add(byClaimName.get(k)); // every NodeClaim of the image has its state node
    }
    nodes.subList(lo, end).clear();
    nodes.addAll(lo, group);
    shiftOrders(end, group.size() - (end - lo));
    Arrays.fill(orders, lo, lo + group.size(), key);
    log = log.splice(lo, end - lo, group);
  }

  /** Sets, inserts or removes (null) the state node at a binary search's answer. */
  private void place(int at, StateNode n, boolean claim) {
    if (at >= 0) {
      if (n == null) {
        nodes.remove(at);
        if (claim) {
          shiftOrders(at + 1, -1);
        }
        log = log.splice(at, 1, List.of());
      } else {
        nodes.set(at, n);
        log = log.splice(at, 1, List.of(n));
      }
    } else if (n != null) {
      nodes.add(-at - 1, n);
      if (claim) {
        shiftOrders(-at - 1, 1);
        orders[-at - 1] = order(n.claim().orElseThrow().name());
      }
      log = log.splice(-at - 1, 0, List.of(n));
    }
  }

  private void forget(StateNode n, List<String> touched) {
    if (n == null) {
      return;
    }
    byNodeName.remove(n.name(), n);
    touched.add(n.name());
    if (n.claim().isPresent()) {
      if (byClaimName.remove(n.claim().get().name(), n)) {
        claimNodes = claimNodes.remove(n.claim().get().name());
        deleting.remove(n.claim().get().name());
      }
      touched.add(n.claim().get().name());
    }
  }

  /** False when another state node goes by this one's name. */
  private boolean remember(StateNode n, List<String> touched) {
    if (byNodeName.putIfAbsent(n.name(), n) != null) {
      irregular = true;
      return false;
    }
    touched.add(n.name());
    if (n.claim().isPresent()) {
      byClaimName.put(n.claim().get().name(), n);
      claimNodes = claimNodes.put(n.claim().get().name(), n);
      if (n.isDeleting()) {
        deleting.add(n.claim().get().name());
      } else {
        deleting.remove(n.claim().get().name());
      }
      touched.add(n.claim().get().name());
    }
    return true;
  }

  private String claimOf(int i) {
    return nodes.get(i).claim().orElseThrow().name();
  }

  /**
   * Where a NodeClaim's state node is among the claims' ({@code >= 0}), or {@code -(insertion point) - 1};
   * {@link Integer#MIN_VALUE} when another NodeClaim shares (or shared) its place.
   */
  private int claimPosition(String claim) {
    long key = order(claim);
    int lo = firstNotBefore(key);
    if (lo == claimCount || orders[lo] != key) {
      return -lo - 1;
    }
    boolean alone = claimOf(lo).equals(claim) && (lo + 1 == claimCount || orders[lo + 1] != key);
    return alone ? lo : Integer.MIN_VALUE;
  }

  /**
   * Moves the orders from {@code from} on by {@code by} places (into room made, or over those dropped) and
   * the claim count with them.
   */
  private void shiftOrders(int from, int by) {
    if (claimCount + by > orders.length) {
      orders = Arrays.copyOf(orders, 2 * (claimCount + by));
    }
    System.arraycopy(orders, from, orders, from + by, claimCount - from);
    claimCount += by;
  }

  /** The first of the claims whose place in the order is not before {@code key}'s ({@link #claimCount} if none). */
  private int firstNotBefore(long key) {
    int lo = 0;
    int hi = claimCount;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (orders[mid] < key) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Where an unmanaged node is among the unmanaged ({@code >= 0}), or {@code -(insertion point) - 1}. */
  private int unmanagedPosition(String name) {
    int lo = claimCount;
    int hi = nodes.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = nodes.get(mid).name().compareTo(name);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -lo - 1;
  }

  /**
   * A key's place in a {@link PMap}'s iteration order: its mixed hash with the five-bit groups the
   * trie reads level by level (lowest first, the last of two bits) laid out most significant first.
   */
  static long order(Object key) {
    int h = key.hashCode();
    h ^= h >>> 16; // as PMap.hash
    long out = 0;
    for (int shift = 0; shift < 30; shift += 5) {
      out = out << 5 | (h >>> shift) & 31;
    }
    return out << 2 | (h >>> 30) & 3;
  }
}
