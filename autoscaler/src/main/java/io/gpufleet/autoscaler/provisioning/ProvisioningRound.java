package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.autoscaler.requirement.Requirements;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.engine.scheduler.ResourceVector;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintClasses;
import io.gpufleet.model.workload.Workload;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * One provisioning round: its existing capacity, its planned claims and its limit budget.
 *
 * <p>A consolidation round may go on from a kept state of another round ({@link #layerOn}, from
 * {@link SharedPrefix}): it reads that state's nodes, placements, failures and scans, which nothing
 * changes any more, and holds only its own changes on top, so that its cost is that of what it places,
 * not of the fleet or of the shared pods placed before it. A shortcut of the twin's, not a step of
 * Karpenter's: such a round plans what a copy of the state going on plans (SharedPrefixTest).
 */
final class ProvisioningRound {
  private final ProvisioningModel model;
  /** The fleet's nodes this round, by position in its order; made when a pod could go there. */
  private final RoundNodes fleet;
  /** The nodes this round made or changed; with {@link #parent}'s, read but not changed, under them. */
  private ExistingNodes existing = new ExistingNodes();
  /** The kept state this round goes on from ({@link #layerOn}), never changed; null where it holds all its own. */
  private ProvisioningRound parent;
  /** Whether this round's state is kept for others to read ({@link #keep}): nothing changes it then. */
  private boolean kept;
  /** The positions of the nodes this round leaves out. */
  private final BitSet gone = new BitSet();
  /** Fewest pods first: the order planned claims are tried in. One comparator, so that a copy of a set is linear. */
  private static final Comparator<DraftClaim> FEWEST_PODS =
      Comparator.comparingInt((DraftClaim p) -> p.pods.size()).thenComparingInt(p -> p.sequence);
  private TreeSet<DraftClaim> planned = new TreeSet<>(FEWEST_PODS);
  private List<DraftClaim> plannedInOrder = new ArrayList<>();
  /**
   * Whether {@link #planned} and {@link #plannedInOrder} are the kept state's this round goes on from
   * ({@link #layerOn}), read until the round changes its claims ({@link #ownClaims}): most rounds place
   * none of their pods on a claim, and a copy would cost each of them every claim of the shared start.
   */
  private boolean claimsShared;
  private final Map<String, RemainingLimits> remaining = new HashMap<>();
  private final OfferingAvailability offerings;
  private final Instant now;
  /** Each pod placed on an existing node so far, by key: the node's name; and each pod that failed, by key. */
  private Map<String, String> onExisting = new LinkedHashMap<>();
  private Map<String, String> errors = new LinkedHashMap<>();
  /**
   * The pass over the queue under way: the pods that failed in it so far ({@link #parent}'s first, read
   * only, then this round's), and whether one was placed.
   */
  private List<Pod> inheritedFailed = List.of();
  private List<Pod> firstFailed = new ArrayList<>();
  private boolean firstProgress;
  /** Whether a pass after the first is under way, and whether a pod failed in the first pass. */
  private boolean retrying;
  /**
   * Whether no key comes twice in the queue ({@link #keysOnce()}): the first pass then steps each pod once,
   * so a placed pod of it has no error of its own to clear. Clearing one that is not there cost a lookup in
   * the kept state's errors per step of a resumed round, a miss each time (issue 33 item 7).
   */
  private boolean keysOnce;
  private boolean failedFirst;
  /** The position of the node the last pod placed went to, or -1 (a claim, or no place). */
  private int placedAt = -1;
  /** The sequence number of the claim the last pod placed went to, or -1 (a node, or no place). */
  private int claimedOn = -1;
  private int sequence;
  /** Places made so far this round: the round's capacity changes only when a pod is placed. */
  private int placed;
  /**
   * The last failure of each pod spec, at the place count it failed at. A pod without DRA claims is
   * placed from its spec alone, so a pod of the same spec fails with the same message while nothing
   * was placed since. A shortcut of the twin's, not a step of Karpenter's: the answers are the ones
   * trying every pod gives (FailureReuseOracleTest). Off in the oracle test's reference path.
   */
  private Map<PodSpec, Failure> failures; // made at the first, as most rounds fail few specs
  private final boolean reuseFailures;
  /** The new claims' first answers kept across rounds, or null: computed in each round. */
  private final FirstClaims firsts;

  /**
   * For each list of hosts ({@link RoundNodes#hosts}, one list for the specs that ask the same room,
   * tolerations, node selector and required affinity), how far along it the last pod of those specs
   * without DRA claims looked: the hosts before are ones that could not take it, and cannot take another
   * pod asking the same later in the round, since a node's room only shrinks. The next such pod starts
   * there, whichever spec it has: a candidate's pods start past the nodes the pending pods of their shape
   * filled. A shortcut of the twin's like the failures above, off with them (FirstClaimsTest,
   * FailureReuseOracleTest, ScanReuseTest).
   */
  private Map<int[], Integer> scanned; // made at the first placement, as most rounds place few pods
  /** {@link #parent}'s failures and scans, read under this round's own. */
  private Map<PodSpec, Failure> inheritedFailures = Map.of();
  private Map<int[], Integer> inheritedScans = Map.of();
  /**
   * For each list of hosts (pods asking the same room, as {@link #scanned}), the sequence numbers of the
   * planned claims with no room left for such a pod ({@link DraftClaim#admits}): a claim's room only
   * shrinks as pods join it, so the next pod asking the same passes over them. A shortcut of the twin's
   * like the scans, off with them (ScanReuseTest, FailureReuseOracleTest).
   */
  private Map<int[], BitSet> full;
  private Map<int[], BitSet> inheritedFull = Map.of();

  /** The specs a round's own failures and scans are first sized for: most rounds go on from a kept state. */
  private static final int FEW_SPECS = 4;

  /** A failed placement: its message, at {@code placed}, and the draft sequence numbers it used. */
  private record Failure(int placed, String error, int sequences) {}
  // Karpenter's DRA allocator or gpufleet's DRA sizing; null while DRA pods are ignored, as Karpenter ignores them.
  private final DraRound dra;

  ProvisioningRound(ProvisioningModel model, List<StateNode> nodes, List<Workload.DaemonSet> daemonSets,
      OfferingAvailability offerings, Instant now) {
    this(model, nodes, daemonSets, offerings, now, new NodeBases());
  }

  ProvisioningRound(ProvisioningModel model, List<StateNode> nodes, List<Workload.DaemonSet> daemonSets,
      OfferingAvailability offerings, Instant now, NodeBases bases) {
    this(model, nodes, daemonSets, offerings, now, bases, true);
  }

  ProvisioningRound(ProvisioningModel model, List<StateNode> nodes, List<Workload.DaemonSet> daemonSets,
      OfferingAvailability offerings, Instant now, NodeBases bases, boolean reuseFailures) {
    this(model, new RoundNodes(model, nodes, model.dra().countedDaemons(daemonSets), bases), Set.of(), offerings, now,
        reuseFailures, null);
  }

  /**
   * A round over {@code fleet}'s nodes less those named in {@code leaving}: as a round built from
   * those nodes alone, whose claims still count against NodePool limits while the others' do not.
   */
  ProvisioningRound(ProvisioningModel model, RoundNodes fleet, Set<String> leaving, OfferingAvailability offerings,
      Instant now, boolean reuseFailures, FirstClaims firsts) {
    this.model = model;
    this.firsts = firsts;
    if (firsts != null) {
      firsts.begin(offerings, now);
    }
    this.fleet = fleet;
    this.reuseFailures = reuseFailures;
    this.offerings = offerings;
    this.now = now;
    for (NodePoolTemplate t : model.templates()) {
      if (!t.pool().limits().isEmpty()) {
        remaining.put(t.name(), new RemainingLimits(t.pool().limits()));
      }
    }
    // Every node but those left out; listed only where a round reads them all (DRA, NodePool limits).
    List<StateNode> nodes = fleet.nodes();
    if (!leaving.isEmpty() && (!model.dra().ignores() || !remaining.isEmpty())) {
      nodes = new ArrayList<>(nodes.size());
      for (StateNode n : fleet.nodes()) {
        if (!leaving.contains(n.name())) {
          nodes.add(n);
        }
      }
    }
    this.dra = model.dra().ignores() ? null : new DraRound(model.dra(), nodes);
    if (!remaining.isEmpty()) {
      for (StateNode n : nodes) {
        n.claim().ifPresent(c -> {
          RemainingLimits r = remaining.get(c.nodePool());
          if (r != null) {
            r.subtract(c.instanceType().capacity());
          }
        });
      }
    }
    for (String name : leaving) {
      for (int i : fleet.positionsOf(name)) {
        gone.set(i);
      }
    }
  }

  /** The node at this position of the fleet's order, as this round has left it: to read (see {@link #own}). */
  private ExistingNode existing(int i) {
    ExistingNode e = existing.get(i);
    if (e == null && parent != null) {
      e = parent.existing.get(i);
    }
    if (e == null) {
      e = new ExistingNode(fleet.entries().get(i));
      existing.put(i, e);
    }
    return e;
  }

  /** {@code e}, the node at position {@code i}, to change: the parent's is copied the first time. */
  private ExistingNode own(int i, ExistingNode e) {
    if (existing.get(i) != e) {
      e = e.copy();
      existing.put(i, e);
    }
    return e;
  }

  ProvisioningPlan run(List<Pod> pods) {
    placeFrom(Provisioner.queueOrder(pods, fleet::request), 0, null);
    return new ProvisioningPlan(plannedClaims(), onExisting, errors, dra == null ? Map.of() : dra.sized());
  }

  /**
   * As {@link #run} over pods already in queue order, the planned claims made only when asked: a
   * consolidation simulation that finds more than one needs only their number.
   */
  SimulatedRound simulate(List<Pod> queue, Settled settled) {
    return simulateFrom(queue, 0, settled);
  }

  /**
   * As {@link #simulate}, this round holding already what its first pass placed of the first {@code from}
   * pods of {@code queue} ({@link #adopt}): the pass goes on from there.
   */
  SimulatedRound simulateFrom(List<Pod> queue, int from, Settled settled) {
    return simulateFrom(queue, from, settled, null);
  }

  /**
   * As above; where {@code tail} (null: none) can count the new claims the pods from its start on would
   * bring without placing them, and the caller reads only how many claims there are once they are that
   * many ({@link Settled#countRead}), the round ends at the tail with that count.
   */
  SimulatedRound simulateFrom(List<Pod> queue, int from, Settled settled, Tail tail) {
    // A state gone on from may hold the claims that settle it already.
    boolean stopped = settled != null && settled.refusedWith(plannedInOrder.size());
    if (!stopped && tail != null && settled != null && tail.start() > from) {
      stopped = firstPass(queue, from, tail.start(), settled);
      from = tail.start();
      // Where one of its own pods is on a node it may not rely on, whether the round settles in the tail
      // depends on pods it watches that may have failed: those tails are placed.
      Tail.Counted counted = stopped || settled.onUnreliable ? null : tail.count(this);
      if (counted != null && settled.countRead(counted.claims())) {
        // The tail's pods all go to claims: a round refused at its next claims stops in the tail, where it
        // holds what it holds now.
        if (!settled.refusedWith(counted.claims())) {
          return new SimulatedRound(counted.claims(), counted.first(), () -> {
                throw new IllegalStateException("a round that counted its tail's claims planned none of them");
              }, Collections.unmodifiableMap(onExisting), Collections.unmodifiableMap(errors), failedFirst);
        }
        stopped = true;
      }
    }
    stopped = stopped || placeFrom(queue, from, settled);
    if (stopped) {
      return new SimulatedRound(Collections.unmodifiableMap(onExisting), Collections.unmodifiableMap(errors),
          failedFirst);
    }
    List<PlannedClaim> eager = dra == null ? null : plannedClaims(); // DRA's sizing is read as it is now
    return new SimulatedRound(plannedInOrder.size(),
        plannedInOrder.isEmpty() ? null : plannedInOrder.getFirst().requirements,
        eager != null ? () -> eager : this::plannedClaims,
        Collections.unmodifiableMap(onExisting), Collections.unmodifiableMap(errors), failedFirst);
  }

  /**
   * When a consolidation simulation's answer no longer depends on the rest of its round: once every pod
   * of {@code watched} (the candidates' pods and those of nodes being deleted, which must all schedule)
   * is placed, and a pod of {@code own} (the candidates') is on a node {@code unreliable} names (one not
   * initialised), the simulation refuses for that whatever the other pods do: a placed pod stays placed,
   * and neither the remaining pods' errors nor the new claims are read before that refusal.
   *
   * <p>A caller that reads only whether the simulation refuses, not why ({@code reasonRead} false: the
   * multi-node search, validation, drift), has its answer sooner: a pod of {@code own} on an unreliable node
   * settles a refusal whatever is left to place, and so does the {@code claimLimit}th new claim, where the
   * caller refuses that many (consolidation: more than one); a round never takes a claim back. Which of the
   * refusals the full round would have given, and its message, is then not known. Both are shortcuts of the
   * twin's, not steps of Karpenter's: the simulation answers as the full round's would (SettledRoundTest).
   */
  static final class Settled {
    /** The pods still to place, few: the candidates' and those of nodes being deleted. */
    private final List<Pod> watched;
    private final List<Pod> own;
    private final Predicate<String> unreliable;
    private final boolean reasonRead;
    private final int claimLimit;
    /** From how many new claims on the caller reads only their number, not the claims. */
    private final int countFrom;
    private boolean onUnreliable;

    Settled(List<Pod> mustPlace, List<Pod> own, Predicate<String> unreliable, boolean reasonRead, int claimLimit) {
      this.watched = new ArrayList<>(mustPlace.size() + own.size());
      this.watched.addAll(mustPlace);
      this.watched.addAll(own);
      this.own = own;
      this.unreliable = unreliable;
      this.reasonRead = reasonRead;
      this.claimLimit = reasonRead ? Integer.MAX_VALUE : claimLimit;
      this.countFrom = claimLimit;
    }

    /** Whether the caller reads only the number of new claims of a round that plans {@code claims}. */
    boolean countRead(int claims) {
      return claims >= countFrom;
    }

    /** Whether a round with this many new claims planned has its refusal settled. */
    boolean refusedWith(int claims) {
      return claims >= claimLimit;
    }

    /** The pods still to place that it watches, as they are now. */
    List<Pod> watched() {
      return List.copyOf(watched);
    }

    /** Notes a placement ({@code host} null: on a new claim); true once the answer is settled. */
    boolean placed(Pod pod, String host) {
      boolean was = false;
      for (int i = watched.size() - 1; i >= 0; i--) { // every entry of the pod, by identity
        if (watched.get(i) == pod) {
          watched.remove(i);
          was = true;
        }
      }
      if (!was) {
        return false;
      }
      if (host != null && !onUnreliable) {
        for (Pod p : own) {
          if (p == pod) {
            onUnreliable = unreliable.test(host);
            break;
          }
        }
      }
      return (watched.isEmpty() || !reasonRead) && onUnreliable;
    }
  }

  /**
   * Places the pods in queue order, retrying those that failed while others keep finding places; stops
   * early, returning true, once {@code settled} (null: never) says the answer is settled. The first pass
   * starts at {@code from}, the pods before it placed already.
   */
  private boolean placeFrom(List<Pod> queue, int from, Settled settled) {
    while (!queue.isEmpty()) {
      if (firstPass(queue, from, queue.size(), settled)) {
        return true;
      }
      if (!firstProgress || inheritedFailed.size() + firstFailed.size() == queue.size()) {
        break;
      }
      if (inheritedFailed.isEmpty()) {
        queue = firstFailed;
      } else {
        queue = new ArrayList<>(inheritedFailed);
        queue.addAll(firstFailed);
        inheritedFailed = List.of();
      }
      firstFailed = new ArrayList<>();
      firstProgress = false;
      retrying = true;
      from = 0;
    }
    return false;
  }

  /**
   * The pods a round's first pass places last, counted rather than placed ({@link SharedPrefix}): from
   * {@link #start} on; {@link #count} tells what the round would plan in all, or null when that is not known
   * and the pods are to be placed.
   */
  interface Tail {
    /** How many claims the round would plan in all, and the requirements its first would end with. */
    record Counted(int claims, Requirements first) {}

    int start();

    Counted count(ProvisioningRound round);
  }

  /** The claims planned so far, in the order they were made. */
  List<DraftClaim> claimsInOrder() {
    return Collections.unmodifiableList(plannedInOrder);
  }

  /** The node the pod with this key was placed on, or null. */
  String placedOn(String key) {
    return onExisting.get(key);
  }

  /** The sequence number of the claim the last pod of the first pass went to, or -1 ({@link #step}). */
  int claimedOn() {
    return claimedOn;
  }

  /** Whether one of {@code claims} would take {@code pod} as a planned claim takes it ({@link #place}); changes nothing. */
  boolean anyTakes(List<DraftClaim> claims, Pod pod) {
    ResourceVector req = fleet.request(pod.spec());
    for (Requirements podReqs : fleet.requirements(pod.spec())) {
      for (DraftClaim c : claims) {
        if (c.tryAdd(pod, req, podReqs, o -> true) != null) {
          return true;
        }
      }
    }
    return false;
  }

  /** Places the pods of a pass from {@code from} to {@code to}; true once {@code settled} (null: never) is. */
  private boolean firstPass(List<Pod> queue, int from, int to, Settled settled) {
    for (int q = from; q < to; q++) {
      Pod pod = queue.get(q);
      if (firstPassStep(pod) && settled != null
          && (settled.placed(pod, onExisting.get(pod.key())) || settled.refusedWith(plannedInOrder.size()))) {
        return true;
      }
    }
    return false;
  }

  /** Says that no key comes twice in the queue this round's first pass goes on with. */
  void keysOnce() {
    keysOnce = true;
  }

  /** Places the next pod of a pass: true when it was placed. */
  private boolean firstPassStep(Pod pod) {
    placedAt = -1;
    claimedOn = -1;
    String error = placeOrReuse(pod);
    if (error == null) {
      if (retrying || !keysOnce) { // a pod's first step in a queue of distinct keys has no error to clear
        errors.remove(pod.key());
      }
      firstProgress = true;
      return true;
    }
    errors.put(pod.key(), error);
    firstFailed.add(pod);
    failedFirst |= !retrying;
    return false;
  }

  /** What {@link #step} returns for a pod placed on a new or planned claim, and for one not placed. */
  static final int ON_CLAIM = -1;
  static final int NOT_PLACED = -2;

  /**
   * Places the next pod of the first pass ({@link SharedPrefix}); returns the position of the node it
   * went to, {@link #ON_CLAIM} or {@link #NOT_PLACED}.
   */
  int step(Pod pod) {
    if (kept) {
      throw new IllegalStateException("a kept round state changes no more");
    }
    if (firsts != null) {
      firsts.begin(offerings, now); // another round may have moved the kept answers on meanwhile
    }
    return firstPassStep(pod) ? Math.max(placedAt, ON_CLAIM) : NOT_PLACED;
  }

  /**
   * Takes {@code from}'s state as its own, a copy: {@code from} a round over the same fleet, offerings
   * and time without DRA or NodePool limits, holding all its state itself. Its nodes' room, its claims,
   * its placements and its first pass so far. The nodes this round leaves out stay out.
   */
  void adopt(ProvisioningRound from) {
    if (from.parent != null) {
      throw new IllegalArgumentException("a round going on from another is no state to copy");
    }
    ExistingNodes nodes = new ExistingNodes();
    from.existing.forEach((e, i) -> nodes.put(i, e.copy()));
    existing = nodes;
    onExisting = new LinkedHashMap<>(from.onExisting);
    errors = new LinkedHashMap<>(from.errors);
    firstFailed = new ArrayList<>(from.firstFailed);
    failures = from.failures == null ? null : new IdentityHashMap<>(from.failures);
    scanned = from.scanned == null ? null : new IdentityHashMap<>(from.scanned);
    full = null;
    if (from.full != null) {
      full = new IdentityHashMap<>(from.full.size());
      from.full.forEach((hosts, claims) -> full.put(hosts, (BitSet) claims.clone()));
    }
    takeRest(from);
  }

  /**
   * Goes on from {@code from}'s state, as {@link #adopt} would, without copying it: {@code from} (a kept
   * state, which nothing changes any more) is read under this round's own changes. This round must be new.
   */
  void layerOn(ProvisioningRound from) {
    if (!from.kept || from.parent != null || parent != null || placed > 0 || !planned.isEmpty()) {
      throw new IllegalArgumentException("a round goes on from a kept state holding all its own, once, when new");
    }
    parent = from;
    onExisting = new LayeredMap<>(from.onExisting);
    errors = new LayeredMap<>(from.errors);
    inheritedFailed = from.firstFailed;
    inheritedFailures = from.failures == null ? Map.of() : from.failures;
    inheritedScans = from.scanned == null ? Map.of() : from.scanned;
    inheritedFull = from.full == null ? Map.of() : from.full;
    takeRest(from);
  }

  /**
   * What {@link #adopt} and {@link #layerOn} take alike: the counts, and the claims, kept ones shared
   * (copied when this round changes one, {@link #own(DraftClaim)}), others copied.
   */
  private void takeRest(ProvisioningRound from) {
    if (from.kept) {
      plannedInOrder = from.plannedInOrder;
      planned = from.planned;
      claimsShared = true;
    } else {
      planned = new TreeSet<>(FEWEST_PODS);
      plannedInOrder = new ArrayList<>();
      claimsShared = false;
      Map<DraftClaim, DraftClaim> copies = new IdentityHashMap<>();
      for (DraftClaim d : from.plannedInOrder) {
        DraftClaim c = d.copy();
        copies.put(d, c);
        plannedInOrder.add(c);
      }
      for (DraftClaim d : from.planned) {
        planned.add(copies.get(d));
      }
    }
    firstProgress = from.firstProgress;
    retrying = from.retrying;
    failedFirst = from.failedFirst;
    sequence = from.sequence;
    placed = from.placed;
  }

  /**
   * Keeps this round's state for rounds to read ({@link #layerOn}) or copy: nothing changes it any more.
   * Its claims are marked so: a round placing a pod on one copies it first.
   */
  void keep() {
    kept = true;
    for (DraftClaim d : plannedInOrder) {
      d.keep();
    }
  }

  /** The claims' collections as this round's own to change, copied first where they are the kept state's. */
  private void ownClaims() {
    if (claimsShared) {
      planned = new TreeSet<>(planned);
      plannedInOrder = new ArrayList<>(plannedInOrder);
      claimsShared = false;
    }
  }

  /** {@code d}, one of this round's claims, to change: a kept one is replaced by a copy. */
  private DraftClaim own(DraftClaim d) {
    ownClaims();
    if (!d.kept()) {
      return d;
    }
    DraftClaim c = d.copy();
    plannedInOrder.set(plannedInOrder.indexOf(d), c);
    return c;
  }

  /** Whether this round may take another's state ({@link #adopt}): no DRA, no NodePool limits, the shortcuts on. */
  boolean adoptable() {
    return dra == null && remaining.isEmpty() && reuseFailures;
  }

  private List<PlannedClaim> plannedClaims() {
    List<PlannedClaim> claims = new ArrayList<>();
    for (DraftClaim p : plannedInOrder) {
      PlannedClaim planned = p.toPlannedClaim(fleet::requestList);
      claims.add(dra == null ? planned : planned.withDraDrivers(dra.drivers(p)));
    }
    return claims;
  }

  /**
   * {@link #place}, or the failure of an earlier pod of the same spec when nothing was placed since
   * (the draft sequence numbers its attempt used are used again, so later drafts keep their names).
   */
  private String placeOrReuse(Pod pod) {
    boolean reusable = reuseFailures && !DraProvisioning.hasDraRequirements(pod.spec());
    if (reusable) {
      Failure f = failures == null ? null : failures.get(pod.spec());
      if (f == null) {
        f = inheritedFailures.get(pod.spec());
      }
      if (f != null && f.placed() == placed) {
        sequence += f.sequences();
        return f.error();
      }
    }
    int before = sequence;
    String error = place(pod);
    if (error == null) {
      placed++;
    } else if (reusable) {
      if (failures == null) {
        failures = new IdentityHashMap<>(FEW_SPECS);
      }
      failures.put(pod.spec(), new Failure(placed, error, sequence - before));
    }
    return error;
  }

  /** Places one pod; returns null, or Karpenter's message when nothing can host it. */
  private String place(Pod pod) {
    boolean claims = DraProvisioning.hasDraRequirements(pod.spec());
    if (claims && dra == null) {
      return DraProvisioning.NOT_SUPPORTED;
    }
    DraRound.Need.Claims need = null;
    if (claims) {
      switch (dra.need(pod)) {
        case DraRound.Need.Refused r -> {
          return r.message();
        }
        case DraRound.Need.Claims c -> need = c;
      }
    }
    ResourceVector req = fleet.request(pod.spec());
    // Only the nodes whose offer takes the pod at all: the rest cannot take it later in the round either.
    TaintClasses.Tolerance tolerance = fleet.tolerance(pod.spec());
    int[] hosts = fleet.hosts(pod.spec());
    // A pod without DRA claims fits a node from its spec alone, and a node's room only shrinks within the
    // round: the hosts an earlier pod asking the same passed over cannot take this one either (see scanned).
    boolean resume = reuseFailures && need == null;
    if (resume && scanned == null) {
      scanned = new IdentityHashMap<>(FEW_SPECS);
    }
    int k = resume ? scannedTo(hosts) : 0;
    for (; k < hosts.length; k++) {
      int i = hosts[k];
      if (gone.get(i)) {
        continue;
      }
      ExistingNode e = existing(i);
      String name = e.node.name();
      if (need != null && (need.pinned().filter(p -> !p.equals(name)).isPresent()
          || !dra.fitsExisting(name, need.fresh()))) {
        continue;
      }
      if (e.takes(pod, req, tolerance)) {
        own(i, e).add(req);
        onExisting.put(pod.key(), name);
        placedAt = i;
        if (need != null) {
          dra.commitExisting(pod, name, need.fresh());
        }
        if (resume) {
          scanned.put(hosts, k);
        }
        return null;
      }
    }
    if (resume) {
      scanned.put(hosts, hosts.length);
    }
    List<Requirements> variants = fleet.requirements(pod.spec());
    String error = null;
    BitSet noRoom = resume ? fullFor(hosts) : null; // null: none known
    for (Requirements podReqs : variants) {
      for (DraftClaim p : planned) {
        if (need != null && need.pinned().filter(d -> !d.equals(p.draName())).isPresent()) {
          continue;
        }
        if (resume) {
          if (noRoom != null && noRoom.get(p.sequence)) {
            continue;
          }
          if (!p.admits(req)) {
            noRoom = full(hosts, p);
            continue;
          }
        }
        DraftClaim.Staged staged = p.tryAdd(pod, req, podReqs, draFit(p, need));
        if (staged != null) {
          ownClaims();
          planned.remove(p);
          DraftClaim mine = own(p);
          mine.commit(staged);
          planned.add(mine);
          claimedOn = mine.sequence;
          if (need != null) {
            dra.commitDraft(pod, mine.draName(), need.fresh());
          }
          return null;
        }
      }
      if (need != null && need.pinned().isPresent()) {
        // Its claim is allocated on a node or NodeClaim that cannot take it: a new one would not have the claim.
        return "Failed to schedule pod, its allocated ResourceClaim is on " + need.pinned().get()
            + ", which cannot take it";
      }
      error = newClaim(pod, req, podReqs, need);
      if (error == null) {
        return null;
      }
    }
    return error;
  }

  /** The planned claims with no room for a pod asking what these hosts were found for ({@link #full}), or null. */
  private BitSet fullFor(int[] hosts) {
    BitSet b = full == null ? null : full.get(hosts);
    if (b == null) {
      b = inheritedFull.get(hosts);
    }
    return b;
  }

  /** Notes that {@code claim} has no room for a pod asking what these hosts were found for; the set now. */
  private BitSet full(int[] hosts, DraftClaim claim) {
    if (full == null) {
      full = new IdentityHashMap<>(FEW_SPECS);
    }
    BitSet b = full.get(hosts);
    if (b == null) {
      BitSet under = inheritedFull.get(hosts);
      b = under == null ? new BitSet() : (BitSet) under.clone();
      full.put(hosts, b);
    }
    b.set(claim.sequence);
    return b;
  }

  /** How far along these hosts the last pod asking what they were found for looked ({@link #scanned}). */
  private int scannedTo(int[] hosts) {
    Integer k = scanned.get(hosts);
    if (k == null) {
      k = inheritedScans.get(hosts);
    }
    return k == null ? 0 : k;
  }

  /** What DRA sizing lets a draft keep: every type for a pod without claims. */
  private Predicate<TypeOption> draFit(DraftClaim draft, DraRound.Need.Claims need) {
    return need == null ? o -> true : o -> dra.fitsType(draft.draName(), draft.template.pool().template().labels(),
        o.type(), need.fresh());
  }

  private String newClaim(Pod pod, ResourceVector req, Requirements podReqs, DraRound.Need.Claims need) {
    List<String> errors = new ArrayList<>();
    List<NodePoolTemplate> templates = model.templates();
    for (int i = 0; i < templates.size(); i++) {
      NodePoolTemplate t = templates.get(i);
      List<TypeOption> types = t.types();
      RemainingLimits limit = remaining.get(t.name());
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
      int seq = sequence;
      List<TypeOption> options = types;
      FirstClaims.First f = firsts != null && limit == null && need == null
          ? firsts.get(i, templates.size(), pod.spec(), podReqs, () -> first(t, options, pod, req, podReqs, null, seq))
          : first(t, types, pod, req, podReqs, need, seq);
      if (f.drewSequence()) {
        sequence++;
      }
      if (f.error() != null) {
        errors.add(f.error());
        continue;
      }
      DraftClaim p = new DraftClaim(t, f.requirements(), types, seq, offerings, now);
      p.commit(p.first(pod, f.requirements(), f.options(), req));
      if (need != null) {
        dra.commitDraft(pod, p.draName(), need.fresh());
      }
      ownClaims();
      planned.add(p);
      plannedInOrder.add(p);
      claimedOn = p.sequence;
      if (limit != null) {
        limit.subtractMax(p.options);
      }
      return null;
    }
    return errors.isEmpty() ? "Failed to schedule pod, no nodepools found" : SchedulingMessages.failed(errors);
  }

  /**
   * What a new claim of {@code t} over {@code types}, numbered {@code seq}, makes of the pod: Karpenter's
   * message for the NodePool, or the claim's requirements and options once the pod is on it. Changes
   * nothing of the round ({@link FirstClaims} keeps it for pods without DRA claims).
   */
  private FirstClaims.First first(NodePoolTemplate t, List<TypeOption> types, Pod pod, ResourceVector req,
      Requirements podReqs, DraRound.Need.Claims need, int seq) {
    Taint untolerated = Provisioner.untolerated(t.pool().template().taints(), pod);
    if (untolerated != null) {
      return new FirstClaims.First(SchedulingMessages.untolerated(untolerated), false, null, null);
    }
    var incompatible = t.requirements().incompatibility(podReqs, t.wellKnown());
    if (incompatible.isPresent()) {
      return new FirstClaims.First(SchedulingMessages.incompatibleRequirements(incompatible.get()), false, null, null);
    }
    boolean allocates = need != null && !need.fresh().isEmpty();
    boolean karpenters = model.dra().karpenters();
    if (allocates && !karpenters && !DraProvisioning.runsDraDriver(t.pool().template().labels())) {
      return new FirstClaims.First(SchedulingMessages.draDriverOff(t.name()), false, null, null);
    }
    Requirements merged = t.requirements().and(podReqs);
    DraftClaim p = new DraftClaim(t, merged, types, seq, offerings, now);
    // Karpenter allocates over every instance type of the NodeClaim before filtering them
    // (K:pkg/controllers/provisioning/scheduling/nodeclaim.go tryVolumeAlternative).
    if (allocates && karpenters && types.stream().noneMatch(draFit(p, need))) {
      return new FirstClaims.First(SchedulingMessages.DRA_NO_INSTANCE_TYPE, true, null, null);
    }
    String why = p.tryFirst(pod, req, draFit(p, need));
    if (why != null && karpenters && why.equals(SchedulingMessages.DRA_UNSATISFIED)) {
      return new FirstClaims.First(SchedulingMessages.DRA_NOT_BOTH, true, null, null);
    }
    if (why != null) {
      ResourceList total = t.overhead().plus(fleet.requestList(pod.spec()));
      return new FirstClaims.First(SchedulingMessages.noInstanceType(t.name(), t.overhead(), t.overheadPods(), why,
          merged.toString(), total, t.overheadPods() + 1L), true, null, null);
    }
    return new FirstClaims.First(null, true, merged, p.firstOptions());
  }
}
