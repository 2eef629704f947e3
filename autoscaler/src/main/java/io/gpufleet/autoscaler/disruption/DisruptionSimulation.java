package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.provisioning.Launcher;
import io.gpufleet.autoscaler.provisioning.OfferingFilter;
import io.gpufleet.autoscaler.provisioning.PlannedClaim;
import io.gpufleet.autoscaler.provisioning.Provisioner;
import io.gpufleet.autoscaler.provisioning.SimulatedRound;
import io.gpufleet.autoscaler.requirement.Requirements;
import io.gpufleet.autoscaler.requirement.ValueSet;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.autoscaler.termination.CurrentlyReschedulable;
import io.gpufleet.autoscaler.termination.DoNotDisrupt;
import io.gpufleet.engine.workload.PodNames;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.karpenter.DisruptionReason;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.pod.Pod;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;

/**
 * What every disruption method shares: rescheduling the candidates' pods on the rest of the
 * cluster ({@code K:pkg/controllers/disruption/helpers.go} SimulateScheduling), consolidation's
 * price rules for a replacement ({@code consolidation.go} computeConsolidation), and building the
 * command. One instance per controller: it memoises the slack bound of the last view.
 */
final class DisruptionSimulation {


  private final AutoscalerSettings settings;
  private final Provisioner provisioner;
  /** The slack bound, brought to each view asked about: a memo of the model's. */
  private SlackBound bound;
  /** The nodes per NodePool that the disruption budgets read, brought to each view asked about. */
  private final PoolCounts pools = new PoolCounts();
  /** The last list of candidates {@link #sorted} ranked, and its ranking. */
  private List<Candidate> sortedFrom;
  private List<Candidate> sortedOut;
  /**
   * What every simulation over {@link #sharedView} reschedules beside its candidates' pods: the pending
   * pods, then those of the nodes being deleted ({@link #movingPods}), as one list object for the round's queue.
   */
  private ClusterView sharedView;
  private List<Pod> shared;
  private List<Pod> movingPods;
  /** The names of the nodes being deleted in {@link #sharedView}. */
  private Set<String> deletedNames;
  /**
   * The single-candidate consolidations that failed, or found the candidate could simply go, over the
   * inputs they still hold for, by the candidate's state node ({@link #consolidate}, {@link #carry}).
   */
  private final Map<StateNode, Outcome> known = new IdentityHashMap<>();
  private ClusterView knownView;
  /** Whether a round stops once its refusal for a pod on an uninitialised node is settled; off only in tests. */
  boolean settleEarly = true;
  /** How many rounds stopped so: for tests. */
  int settled;
  /** How many of {@link #consolidate}'s answers were simulated rather than kept: for tests. */
  private int simulated;

  /**
   * One candidate's answer: why it was refused, or null when it may be deleted without a replacement;
   * and the calls its simulation made of the stream. {@code recheck}: kept across a change of other
   * nodes that could not change its round, whose slack bound may say no first now.
   */
  private record Outcome(String why, int[] draws, boolean recheck, Landing landing) {}

  /**
   * Where the round of a single candidate placed its own pods ({@code own}), by key in {@code onExisting}.
   * Only for a round whose first pass placed every pod it tried, so that each pod made one scan of the
   * nodes in the round's order and took the first with room. Read only when a changed node could take
   * one of the pods: most kept answers are never asked.
   */
  private record Landing(List<Pod> own, Map<String, String> onExisting) {
    /**
     * The node {@code p} went to; null when it went to none, was not among the round's pods, or its key
     * is not its own alone among them ({@code sharedKeys}: the keys of the round's other pods, or null
     * when two of those share one).
     */
    String hostOf(Pod p, Set<String> sharedKeys) {
      if (sharedKeys == null) {
        return null;
      }
      boolean found = false;
      String key = p.key();
      for (Pod o : own) {
        if (o == p) {
          found = true;
        } else if (o.key().equals(key)) {
          return null;
        }
      }
      return found && !sharedKeys.contains(key) ? onExisting.get(key) : null;
    }
  }

  /** The landing of the last round {@link #simulate} ran for one candidate, or null. */
  private Landing lastLanding;

  /** What {@link SlackBound} refuses with: the first check, before any round or draw. */
  static final String NO_ROOM = "its pods fit on no other node, nor on one cheaper new node";

  DisruptionSimulation(AutoscalerSettings settings, Provisioner provisioner) {
    this.settings = settings;
    this.provisioner = provisioner;
  }

  AutoscalerSettings settings() {
    return settings;
  }

  /**
   * Reschedules the candidates' pods on the rest of the cluster plus new NodeClaims. Empty when a pod
   * would not fit; otherwise the replacements (none: delete). For consolidation at most one
   * replacement is allowed, launched from the types whose worst launch price is below the
   * candidates' together ({@code consolidation.go} computeConsolidation); with several candidates,
   * multi-node consolidation's same-type filter applies too; spot candidates are not replaced by
   * spot without the SpotToSpotConsolidation gate (reference §1.5). No reason for a refusal is read,
   * so the round stops as soon as a refusal is certain, whichever it is ({@code ProvisioningRound.Settled}).
   */
  Optional<List<NodeClaim>> simulate(List<Candidate> candidates, ClusterView view, boolean consolidation,
      RandomGenerator random) {
    return simulate(candidates, view, consolidation, random, why -> { }, false);
  }

  /**
   * As above, telling {@code why} the reason when the answer is empty, in the words of Karpenter's
   * {@code Unconsolidatable} events where it has them ({@code consolidation.go}).
   */
  Optional<List<NodeClaim>> simulate(List<Candidate> candidates, ClusterView view, boolean consolidation,
      RandomGenerator random, Consumer<String> why) {
    return simulate(candidates, view, consolidation, random, why, true);
  }

  private Optional<List<NodeClaim>> simulate(List<Candidate> candidates, ClusterView view, boolean consolidation,
      RandomGenerator random, Consumer<String> why, boolean reasonRead) {
    lastLanding = null;
    if (consolidation && !slack(view).mayConsolidate(candidates)) {
      why.accept(NO_ROOM);
      return Optional.empty();
    }
    Set<String> leaving = new HashSet<>();
    List<Pod> pods = new ArrayList<>();
    double price = 0;
    boolean allSpot = true;
    for (Candidate c : candidates) {
      leaving.add(c.node().name());
      // Only pods that can move now: a candidate whose pods do-not-disrupt or a fully blocking PDB holds
      // (eventual disruption with a termination grace period) is deleted without a replacement for them
      // ({@code K:pkg/controllers/disruption/helpers.go} SimulateScheduling: pdbs.IsCurrentlyReschedulable).
      pods.addAll(CurrentlyReschedulable.filter(c.node(), c.reschedulable(), view.pdbs(), view.now()));
      price += c.price();
      allSpot &= c.claim().offering().capacityType() == CapacityType.SPOT;
    }
    // Karpenter schedules the pending pods and the pods of nodes already being deleted together with the
    // candidates' ({@code K:pkg/controllers/disruption/helpers.go} SimulateScheduling): capacity booting
    // for a pending pod is not free room. Only the pending pods may fail to schedule
    // (AllNonPendingPodsScheduled), and no candidate's pod may rely on a node that is not initialised
    // (UninitializedNodeError); pods of deleting nodes may, their replacement being on its way.
    if (sharedView != view) {
      movingPods = moving(view, Set.of());
      List<Pod> all = new ArrayList<>(view.pendingPods());
      all.addAll(movingPods);
      shared = Collections.unmodifiableList(all);
      deletedNames = new HashSet<>();
      for (StateNode n : view.nodes()) {
        if (n.markedForDeletion()) {
          deletedNames.add(n.name());
        }
      }
      sharedView = view;
    }
    List<Pod> sharedPods = shared;
    List<Pod> moving = movingPods;
    if (!Collections.disjoint(leaving, deletedNames)) { // a node being deleted among the candidates: not shared
      sharedPods = new ArrayList<>(view.pendingPods());
      moving = moving(view, leaving);
      sharedPods.addAll(moving);
    }
    List<Pod> mustSchedule = new ArrayList<>(moving);
    mustSchedule.addAll(pods);
    // The rest of the cluster, as one round over every node less the candidates: each candidate's
    // round shares the nodes' order and offers, and the shared pods' queue order
    // ({@code Provisioner.simulateWithout}).
    // The round stops once the candidates' pods and the moving ones are placed with one of the
    // candidates' on a node not initialised: the refusal below is then settled (ProvisioningRound.Settled).
    Predicate<String> uninitialized = host -> !view.node(host).map(StateNode::isInitialized).orElse(true);
    // Without the reason, a round also stops at its second new claim, which a consolidation refuses.
    SimulatedRound plan = provisioner.simulateWithout(sharedPods, pods, view.nodes(), leaving, view.daemonSets(),
        view.offerings(), view.now(), moving, settleEarly ? uninitialized : null, reasonRead,
        consolidation ? 2 : Integer.MAX_VALUE);
    settled += plan.settled() ? 1 : 0;
    if (!reasonRead && plan.settled()) {
      return Optional.empty(); // a refusal, though the round stopped before telling which
    }
    if (reasonRead && candidates.size() == 1 && !plan.failedFirstPass() && sharedPods == shared) {
      lastLanding = new Landing(pods, plan.onExisting());
    }
    for (Pod p : mustSchedule) {
      if (plan.errors().containsKey(p.key())) {
        why.accept("pod " + p.key() + " would not schedule: " + plan.errors().get(p.key()));
        return Optional.empty();
      }
    }
    for (Pod p : pods) {
      String host = plan.onExisting().get(p.key());
      if (host != null && uninitialized.test(host)) {
        why.accept("pod " + p.key() + " would schedule against uninitialized node " + host);
        return Optional.empty();
      }
    }
    if (plan.claimCount() == 0) {
      return Optional.of(List.of());
    }
    if (!consolidation) {
      List<NodeClaim> out = new ArrayList<>();
      for (PlannedClaim p : plan.newClaims()) {
        Optional<NodeClaim> c = Launcher.launch(p, view.offerings(), view.now(), random);
        if (c.isEmpty()) {
          return Optional.empty();
        }
        out.add(c.get());
      }
      return Optional.of(out);
    }
    if (plan.claimCount() > 1) {
      why.accept("Can't remove without creating " + plan.claimCount() + " candidates");
      return Optional.empty();
    }
    Requirements reqs = plan.firstRequirements();
    // All-spot candidates whose replacement may be spot go the spot-to-spot way, never to on-demand
    // ({@code K:pkg/controllers/disruption/consolidation.go} computeSpotToSpotConsolidation).
    boolean spotToSpot = allSpot && admits(reqs, "spot");
    if (spotToSpot) {
      if (!settings.spotToSpotConsolidation()) {
        why.accept("SpotToSpotConsolidation is disabled, can't replace a spot node with a spot node");
        return Optional.empty(); // the claim's instance types not yet ordered: none is read
      }
      reqs = reqs.with(KarpenterLabels.CAPACITY_TYPE, ValueSet.in("spot"));
    }
    PlannedClaim p = plan.newClaims().getFirst();
    // Only types whose worst launch price is below what the candidates cost together stay
    // (RemoveInstanceTypeOptionsByPriceAndMinValues), and they must still span the NodePool's minValues.
    List<InstanceType> cheaper = cheaperThan(p.instanceTypes(), reqs, price, view);
    if (cheaper.isEmpty() || !p.template().minValuesSatisfiedBy(cheaper)) {
      why.accept(cheaper.isEmpty() ? "Can't replace with a cheaper node"
          : "Filtering by price: minValues requirement is not met");
      return Optional.empty();
    }
    if (!spotToSpot && admits(reqs, "spot") && admits(reqs, "on-demand")) {
      // Priced as spot, so launched as spot: an on-demand fallback could cost more than the candidates.
      reqs = reqs.with(KarpenterLabels.CAPACITY_TYPE, ValueSet.in("spot"));
    }
    if (spotToSpot && candidates.size() == 1) {
      // Ordered by price as spot before the cut, as RemoveInstanceTypeOptionsByPriceAndMinValues orders them.
      OfferingFilter spot = OfferingFilter.of(reqs);
      List<InstanceType> byPrice = new ArrayList<>(cheaper);
      byPrice.sort(Comparator.comparingDouble(t -> spot.cheapestAvailable(t, view.offerings(), view.now())));
      Optional<List<InstanceType>> options = SpotToSpot.options(byPrice, p.template(), why);
      if (options.isEmpty()) {
        return Optional.empty();
      }
      cheaper = options.get();
    }
    if (candidates.size() > 1) {
      cheaper = withoutSameType(cheaper, candidates, reqs, view);
      if (cheaper.isEmpty() || !p.template().minValuesSatisfiedBy(cheaper)) {
        why.accept("Can't replace with a cheaper node");
        return Optional.empty();
      }
    }
    PlannedClaim narrowed = new PlannedClaim(p.template(), p.pods(), reqs, cheaper, p.requests(), p.draDrivers());
    Optional<NodeClaim> replacement = Launcher.launch(narrowed, view.offerings(), view.now(), random);
    if (replacement.isEmpty() || !(replacement.get().pricePerHour() < price)) {
      why.accept("Can't replace with a cheaper node");
      return Optional.empty();
    }
    return Optional.of(List.of(replacement.get()));
  }

  private static boolean admits(Requirements reqs, String capacityType) {
    return reqs.get(KarpenterLabels.CAPACITY_TYPE).map(v -> v.admits(capacityType)).orElse(true);
  }

  /** The types whose worst launch price under {@code reqs} is below {@code maxPrice}, in their order. */
  private static List<InstanceType> cheaperThan(List<InstanceType> types, Requirements reqs, double maxPrice,
      ClusterView view) {
    OfferingFilter offerings = OfferingFilter.of(reqs);
    List<InstanceType> out = new ArrayList<>();
    for (InstanceType t : types) {
      if (offerings.worstLaunchPrice(t, view.offerings(), view.now()) < maxPrice) {
        out.add(t);
      }
    }
    return out;
  }

  /**
   * Multi-node consolidation's {@code filterOutSameInstanceType} ({@code K:pkg/controllers/disruption/
   * multinodeconsolidation.go}): when a type being removed is among the replacement's options, every
   * option priced at or above the cheapest such candidate goes. Replacing [A, A] by one A is deleting
   * one A with more pods moved; that deletion is what consolidation should find instead.
   */
  private static List<InstanceType> withoutSameType(List<InstanceType> options, List<Candidate> candidates,
      Requirements reqs, ClusterView view) {
    Set<String> names = new HashSet<>();
    options.forEach(t -> names.add(t.name()));
    double maxPrice = Double.MAX_VALUE;
    for (Candidate c : candidates) {
      if (names.contains(c.claim().instanceType().name())) {
        maxPrice = Math.min(maxPrice, c.price());
      }
    }
    return cheaperThan(options, reqs, maxPrice, view);
  }

  /**
   * As {@code simulate(List.of(c), view, true, random, why)}, telling {@code why} only when the answer
   * is empty. Upstream's single-node consolidation simulates every candidate again at each poll, and
   * the explanation of the nodes consolidation leaves asks the same; over the same inputs
   * ({@link #sameInputs}) a candidate's answer is the same, so a failure is kept until the inputs
   * change and given again, the stream moved on by the calls the simulation made of it
   * ({@link Draws}), which keeps every later draw as it was. A deletion is kept too (the explanation
   * asks again about every node consolidation may take, until it does); a replacement is not, being
   * named from the stream as it is then. Over other inputs, {@link #carry} keeps what stays true.
   */
  Optional<List<NodeClaim>> consolidate(Candidate c, ClusterView view, RandomGenerator random, Consumer<String> why) {
    if (view != knownView) {
      carry(knownView, view);
      knownView = view;
    }
    Outcome kept = known.get(c.node());
    if (kept != null && kept.recheck()) {
      // The round would answer as before; the slack bound, asked first, may now refuse instead.
      kept = slack(view).mayConsolidate(List.of(c)) ? new Outcome(kept.why(), kept.draws(), false, kept.landing())
          : new Outcome(NO_ROOM, new int[0], false, null);
      known.put(c.node(), kept);
    }
    if (kept != null) {
      Draws.replay(kept.draws(), random);
      if (kept.why() == null) {
        return Optional.of(List.of());
      }
      why.accept(kept.why());
      return Optional.empty();
    }
    simulated++;
    StringBuilder said = new StringBuilder();
    Draws draws = new Draws(random);
    Optional<List<NodeClaim>> r = simulate(List.of(c), view, true, draws, said::append);
    if (r.isEmpty()) {
      known.put(c.node(), new Outcome(said.toString(), draws.calls(), false, lastLanding));
      why.accept(said.toString());
    } else if (r.get().isEmpty()) {
      known.put(c.node(), new Outcome(null, draws.calls(), false, lastLanding));
    }
    return r;
  }

  /**
   * {@link Consolidation#sorted}, kept for the last list of candidates: multi- and single-node
   * consolidation rank the same list object of a poll. The candidate memo's lists hand over the ranking
   * it follows from view to view ({@link CandidateMemo.Listed}); any other list is sorted.
   */
  List<Candidate> sorted(List<Candidate> candidates) {
    if (candidates != sortedFrom) {
      sortedOut = candidates instanceof CandidateMemo.Listed l ? l.ranked()
          : Collections.unmodifiableList(Consolidation.sorted(candidates));
      sortedFrom = candidates;
    }
    return sortedOut;
  }

  /** How many answers {@link #consolidate} simulated. */
  int simulated() {
    return simulated;
  }

  /**
   * Whether a simulation over {@code after} reads what it read over {@code before}, the time aside:
   * the same state nodes (immutable values, so the same objects hold the same nodes and pods),
   * pending pods, DaemonSets, NodePools, catalogue and PDB status; the same offerings out of stock,
   * none of them back in stock between the two times; no do-not-disrupt duration ending meanwhile on
   * a node being deleted (whose pods the simulation moves as they can move now); and no DRA, whose
   * rounds read claims kept outside the view. A candidate's own pods need no such check: a candidate
   * has no active do-not-disrupt pod at either time. Then a simulation of the same candidates gives
   * the same answer over both.
   */
  boolean sameInputs(ClusterView before, ClusterView after) {
    return sameInputsBesideNodes(before, after) && Provisioner.sameObjects(before.nodes(), after.nodes());
  }

  /** {@link #sameInputs} but for the state nodes, which {@link #carry} compares node by node. */
  private boolean sameInputsBesideNodes(ClusterView before, ClusterView after) {
    if (before == null || !provisioner.model().dra().ignores()) {
      return false;
    }
    if (!Provisioner.sameObjects(before.pendingPods(), after.pendingPods())
        || !Provisioner.sameObjects(before.daemonSets(), after.daemonSets())
        || !Provisioner.sameObjects(before.nodePools(), after.nodePools())
        || before.catalog() != after.catalog() || !before.pdbs().entries().equals(after.pdbs().entries())
        || !before.offerings().equals(after.offerings())) {
      return false;
    }
    for (var until : after.offerings().unavailableUntil().values()) {
      if (before.now().isBefore(until) && !after.now().isBefore(until)) {
        return false; // back in stock between the two
      }
    }
    for (StateNode n : after.nodes()) {
      if (n.markedForDeletion()) {
        var ends = DoNotDisrupt.nextExpiry(n, before.now());
        if (ends.isPresent() && !after.now().isBefore(ends.get())) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Keeps the answers of {@code before} that {@code after} gives again. Over the same inputs
   * ({@link #sameInputs}) all of them. When only some state nodes changed (came, went or were
   * replaced), a candidate's round is the same as long as no changed node, before or after, could
   * take any pod of the round ({@link Provisioner#mayTake}): the pending pods, those of nodes being
   * deleted, or the candidate's, unless the round placed that candidate's pod on an unchanged node
   * that comes before the changed one in the round's order (its first pass placing every pod, so the
   * pod's one scan stopped there; {@link Landing}). Such a node is never among the nodes a pod may go
   * to (RoundNodes.hosts), or is reached by no pod it could take, the other nodes keep their order
   * (initialised, then by name) and their room, and new NodeClaims read no node while no NodePool has
   * limits; so every placement, planned claim, message and draw is as it was. Nodes being deleted are no capacity; the pods that move off them
   * must be the same, in the same order. The slack bound sums the room of all nodes, so a kept answer
   * asks it again ({@link Outcome#recheck}); a refusal by the bound itself is dropped. Upstream keeps
   * no such memo (its ConsolidationState only skips a whole poll of an unchanged cluster); this is the
   * twin's shortcut, checked against fresh simulations by AnswerCarryTest.
   */
  private void carry(ClusterView before, ClusterView after) {
    if (known.isEmpty()) {
      return;
    }
    if (!sameInputsBesideNodes(before, after)) {
      known.clear();
      return;
    }
    if (Provisioner.sameObjects(before.nodes(), after.nodes())) {
      return;
    }
    for (var t : provisioner.model().templates()) {
      if (!t.pool().limits().isEmpty()) {
        known.clear(); // new NodeClaims read every node's claim through the limits
        return;
      }
    }
    Map<StateNode, Boolean> old = new IdentityHashMap<>();
    for (StateNode n : before.nodes()) {
      old.put(n, Boolean.TRUE);
    }
    Set<StateNode> stayed = Collections.newSetFromMap(new IdentityHashMap<>());
    List<StateNode> changed = new ArrayList<>();
    for (StateNode n : after.nodes()) {
      if (old.remove(n) != null) {
        stayed.add(n);
      } else {
        changed.add(n);
      }
    }
    changed.addAll(old.keySet());
    // The pods of nodes being deleted move in every round, in the nodes' order: the same pods, or no carry.
    List<Pod> moving = moving(after, Set.of());
    if (!Provisioner.sameObjects(moving(before, Set.of()), moving)) {
      known.clear();
      return;
    }
    List<Pod> shared = new ArrayList<>(after.pendingPods());
    shared.addAll(moving);
    Set<String> changedNames = new HashSet<>();
    List<Predicate<Pod>> rooms = new ArrayList<>(changed.size());
    for (StateNode x : changed) {
      Predicate<Pod> room = provisioner.mayTake(x, after.daemonSets());
      if (takesAny(room, shared)) {
        known.clear();
        return;
      }
      rooms.add(room);
      changedNames.add(x.name());
    }
    Keys keys = new Keys(shared);
    var it = known.entrySet().iterator();
    while (it.hasNext()) {
      var e = it.next();
      StateNode k = e.getKey();
      boolean keep = stayed.contains(k) && !changedNames.contains(k.name()) && !NO_ROOM.equals(e.getValue().why());
      for (int i = 0; keep && i < rooms.size(); i++) {
        keep = !takesAnyFirst(rooms.get(i), changed.get(i), k.pods(), e.getValue().landing(), keys, after,
            changedNames);
      }
      if (keep) {
        e.setValue(new Outcome(e.getValue().why(), e.getValue().draws(), true, e.getValue().landing()));
      } else {
        it.remove();
      }
    }
  }

  /**
   * Whether the changed node {@code x} (as it was or is) could have taken one of a candidate's pods in its
   * round: one it has room for, unless the round placed that pod on an unchanged node that comes before
   * {@code x} in the round's order (initialised nodes by name, then in-flight ones by name), whose scan
   * then stopped before reaching {@code x}. Every other pod of the round fits {@code x} neither before nor
   * after ({@link #carry}), so every scan goes as it went and so does each placement, one by one.
   */
  private static boolean takesAnyFirst(Predicate<Pod> room, StateNode x, List<Pod> pods, Landing landing, Keys keys,
      ClusterView after, Set<String> changedNames) {
    for (Pod p : pods) {
      if (room.test(p) && !(landing != null && landedBefore(landing.hostOf(p, keys.get()), x, after, changedNames))) {
        return true;
      }
    }
    return false;
  }

  /** The keys of the shared pods of every round, made when first asked; null when two share one. */
  private static final class Keys {
    private final List<Pod> shared;
    private Set<String> keys;
    private boolean made;

    Keys(List<Pod> shared) {
      this.shared = shared;
    }

    Set<String> get() {
      if (!made) {
        made = true;
        keys = new HashSet<>();
        for (Pod p : shared) {
          if (!keys.add(p.key())) {
            keys = null;
            break;
          }
        }
      }
      return keys;
    }
  }

  /** Whether the node named {@code host}, unchanged, comes before {@code x} in a round's order. */
  private static boolean landedBefore(String host, StateNode x, ClusterView after, Set<String> changedNames) {
    if (host == null || changedNames.contains(host)) {
      return false;
    }
    StateNode y = after.node(host).orElse(null);
    if (y == null || y.markedForDeletion()) {
      return false;
    }
    if (y.isInitialized() != x.isInitialized()) {
      return y.isInitialized();
    }
    return host.compareTo(x.name()) < 0;
  }

  private static boolean takesAny(Predicate<Pod> room, List<Pod> pods) {
    for (Pod p : pods) {
      if (room.test(p)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The pods a simulation over {@code view} moves off the nodes being deleted, those {@code leaving}
   * (its candidates) aside, in the view's order.
   */
  private static List<Pod> moving(ClusterView view, Set<String> leaving) {
    List<Pod> out = new ArrayList<>();
    for (StateNode n : view.nodes()) {
      if (n.markedForDeletion() && !leaving.contains(n.name())) {
        out.addAll(CurrentlyReschedulable.pods(n, view.pdbs(), view.now()));
      }
    }
    return out;
  }

  private SlackBound slack(ClusterView view) {
    bound = SlackBound.of(view, provisioner.model(), bound);
    return bound;
  }

  /** {@link DisruptionBudgets#allowed} over {@code view}, from the nodes per NodePool followed from view to view. */
  Map<String, Integer> budgets(ClusterView view, DisruptionReason reason) {
    return pools.allowed(view, reason);
  }

  /** A command for {@code candidates}, its id drawn from {@code random}. */
  static DisruptionCommand command(DisruptionCommand.Method method, DisruptionReason reason,
      List<Candidate> candidates, List<NodeClaim> replacements, ClusterView view, RandomGenerator random) {
    double price = candidates.stream().mapToDouble(Candidate::price).sum();
    double replacementPrice = replacements.stream().mapToDouble(NodeClaim::pricePerHour).sum();
    return new DisruptionCommand("disruption-" + PodNames.suffix(random, 8), method, reason,
        candidates.stream().map(Candidate::name).toList(), replacements, price, replacementPrice, view.now(), Map.of());
  }

  /** The command with replacements planned afresh at validation. */
  static DisruptionCommand withReplacements(DisruptionCommand c, List<NodeClaim> replacements) {
    return new DisruptionCommand(c.id(), c.method(), c.reason(), c.candidates(), replacements, c.candidatePrice(),
        replacements.stream().mapToDouble(NodeClaim::pricePerHour).sum(), c.decided(), c.approvals());
  }
}
