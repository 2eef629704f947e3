package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.action.Action;
import io.gpufleet.autoscaler.action.RemovalReason;
import io.gpufleet.autoscaler.provisioning.Launcher;
import io.gpufleet.autoscaler.provisioning.PlannedClaim;
import io.gpufleet.autoscaler.provisioning.Provisioner;
import io.gpufleet.autoscaler.provisioning.ProvisioningPlan;
import io.gpufleet.autoscaler.requirement.ValueSet;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.autoscaler.termination.Termination;
import io.gpufleet.engine.workload.PodNames;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.cloud.Offering;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.DisruptionReason;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.time.KubeDuration;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * Karpenter's disruption controller (reference §1.5): each poll tries Emptiness, Drift, multi-node
 * and single-node consolidation in that order and stops at the first that finds something to do.
 * A decision waits the command validation delay, is checked again, then executes: candidates are
 * tainted, replacements launched, and the candidates deleted once every replacement is initialised.
 * Budgets (§1.6), {@code karpenter.sh/do-not-disrupt} and PDBs gate candidates throughout.
 */
public final class DisruptionController {

  private final AutoscalerSettings settings;
  private final Provisioner provisioner;
  /** Candidates of the last view seen, graceful and eventual: a memo, the same for the same view. */
  private ClusterView candidatesView;
  private List<Candidate> graceful;
  /** The slack bound of the last view seen: a memo, the same for the same view. */
  private ClusterView boundView;
  private SlackBound bound;

  public DisruptionController(AutoscalerSettings settings, Provisioner provisioner) {
    this.settings = settings;
    this.provisioner = provisioner;
  }

  /** The next disruption to propose, if any. */
  public Optional<DisruptionCommand> poll(ClusterView view, RandomGenerator random) {
    Optional<DisruptionCommand> c = emptiness(view, random);
    if (c.isEmpty()) {
      c = drift(view, random);
    }
    if (c.isEmpty()) {
      c = multiNode(view, random);
    }
    if (c.isEmpty()) {
      c = singleNode(view, random);
    }
    return c;
  }

  /**
   * What a poll's answer depends on beyond the cluster's contents: which candidates are past their
   * {@code consolidateAfter} and which budgets are active. The same key over the same cluster gives
   * the same answer, so a runtime may skip a poll that cannot change anything.
   */
  public Object quiescenceKey(ClusterView view) {
    List<String> consolidatable = new ArrayList<>();
    for (StateNode n : view.nodes()) {
      if (n.claim().isPresent() && view.nodePool(n.claim().get().nodePool()).map(p -> consolidatable(n, p,
          view.now())).orElse(false)) {
        consolidatable.add(n.name());
      }
    }
    List<Boolean> active = new ArrayList<>();
    for (NodePool p : view.nodePools()) {
      for (var b : p.disruption().budgets()) {
        active.add(b.isActive(view.now()));
      }
    }
    return List.of(consolidatable, active);
  }

  // ---- candidates ----

  /** Candidates for consolidation (consolidating NodePools, past consolidateAfter, not empty), memoised per view. */
  private List<Candidate> consolidating(ClusterView view) {
    if (candidatesView != view) {
      candidatesView = view;
      graceful = candidates(view, false, (n, p) -> p.disruption().consolidationPolicy()
          != ConsolidationPolicy.WHEN_EMPTY && !n.isEmpty() && consolidatable(n, p, view.now()));
    }
    return graceful;
  }

  /**
   * Nodes that may be disrupted now. With {@code eventual} (drift), a NodePool with a
   * {@code terminationGracePeriod} lets nodes whose pods block eviction be candidates anyway.
   */
  static List<Candidate> candidates(ClusterView view, boolean eventual) {
    return candidates(view, eventual, (n, p) -> true);
  }

  /**
   * Candidates among the nodes {@code worth} admits: each method only looks at nodes it could act on
   * (empty ones, drifted ones, nodes of consolidating NodePools), so the per-pod checks run only there.
   */
  static List<Candidate> candidates(ClusterView view, boolean eventual,
      java.util.function.BiPredicate<StateNode, NodePool> worth) {
    List<Candidate> out = new ArrayList<>();
    for (StateNode n : view.nodes()) {
      if (n.claim().isEmpty() || n.node().isEmpty() || n.markedForDeletion()) {
        continue;
      }
      NodeClaim c = n.claim().get();
      if (!c.isInitialized() || c.isDeleting()) {
        continue;
      }
      Optional<NodePool> pool = view.nodePool(c.nodePool());
      if (pool.isEmpty() || !worth.test(n, pool.get())) {
        continue;
      }
      if ("true".equals(n.annotations().get(KarpenterLabels.DO_NOT_DISRUPT).orElse(""))) {
        continue;
      }
      if (!n.labels().has(KarpenterLabels.CAPACITY_TYPE) || !n.labels().has("topology.kubernetes.io/zone")) {
        continue;
      }
      List<Pod> pods = n.reschedulablePods();
      boolean blocked = false;
      for (Pod p : pods) {
        if (Termination.doNotDisrupt(p) || view.pdbs().evictionBlocked(p).isPresent()) {
          blocked = true;
          break;
        }
      }
      if (blocked && !(eventual && pool.get().template().terminationGracePeriod().isPresent())) {
        continue;
      }
      out.add(new Candidate(n, c, pool.get(), pods, c.pricePerHour(), 1.0 + pods.size()));
    }
    return out;
  }

  /**
   * {@code Consolidatable} (reference §1.3): initialised, {@code consolidateAfter} not Never, and at
   * least {@code consolidateAfter} since the last pod event (or initialisation).
   */
  static boolean consolidatable(StateNode n, NodePool pool, Instant now) {
    Optional<Duration> after = pool.disruption().consolidateAfter();
    if (after.isEmpty() || n.claim().isEmpty() || !n.claim().get().isInitialized()) {
      return false;
    }
    Instant since = n.lastPodEvent();
    Instant init = n.claim().get().initialized().get();
    if (init.isAfter(since)) {
      since = init;
    }
    return !now.isBefore(since.plus(after.get()));
  }

  /** Takes candidates in order while their NodePool's budget for the reason lasts. */
  private static List<Candidate> withinBudgets(List<Candidate> candidates, ClusterView view, DisruptionReason reason) {
    Map<String, Integer> allowed = new HashMap<>(DisruptionBudgets.allowed(view, reason));
    List<Candidate> out = new ArrayList<>();
    for (Candidate c : candidates) {
      int left = allowed.getOrDefault(c.pool().name(), 0);
      if (left > 0) {
        out.add(c);
        if (left != DisruptionBudgets.UNLIMITED) {
          allowed.put(c.pool().name(), left - 1);
        }
      }
    }
    return out;
  }

  // ---- methods ----

  Optional<DisruptionCommand> emptiness(ClusterView view, RandomGenerator random) {
    List<Candidate> empty = candidates(view, false, (n, p) -> n.isEmpty() && consolidatable(n, p, view.now()));
    empty.sort(Comparator.comparing(Candidate::name));
    List<Candidate> chosen = withinBudgets(empty, view, DisruptionReason.EMPTY);
    if (chosen.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(command(DisruptionCommand.Method.EMPTINESS, DisruptionReason.EMPTY, chosen, List.of(), view,
        random));
  }

  Optional<DisruptionCommand> drift(ClusterView view, RandomGenerator random) {
    List<Candidate> drifted = new ArrayList<>(candidates(view, true, (n, p) -> n.claim().get().drifted()
        .isPresent()));
    drifted.sort(Comparator.comparing(Candidate::name));
    List<Candidate> chosen = withinBudgets(drifted, view, DisruptionReason.DRIFTED);
    List<Candidate> empty = chosen.stream().filter(Candidate::isEmpty).toList();
    if (!empty.isEmpty()) {
      return Optional.of(command(DisruptionCommand.Method.DRIFT, DisruptionReason.DRIFTED, empty, List.of(), view,
          random));
    }
    for (Candidate c : chosen) {
      Optional<List<NodeClaim>> replacements = simulate(List.of(c), view, false, random);
      if (replacements.isPresent()) {
        return Optional.of(command(DisruptionCommand.Method.DRIFT, DisruptionReason.DRIFTED, List.of(c),
            replacements.get(), view, random));
      }
    }
    return Optional.empty();
  }

  /** Candidates that consolidation (not emptiness) may act on, most worth removing first. */
  private List<Candidate> consolidationCandidates(ClusterView view) {
    List<Candidate> out = new ArrayList<>(consolidating(view));
    // Price per unit of disruption, highest first (reference §1.5), then name for a stable order.
    out.sort(Comparator.comparingDouble((Candidate c) -> c.price() / c.disruptionCost()).reversed()
        .thenComparing(Candidate::name));
    return withinBudgets(out, view, DisruptionReason.UNDERUTILIZED);
  }

  Optional<DisruptionCommand> multiNode(ClusterView view, RandomGenerator random) {
    List<Candidate> candidates = consolidationCandidates(view);
    if (candidates.size() < 2) {
      return Optional.empty();
    }
    if (candidates.size() > settings.multiNodeMaxCandidates()) {
      candidates = candidates.subList(0, settings.multiNodeMaxCandidates());
    }
    // Binary search over the prefix length for the largest set that can go (multinodeconsolidation.go).
    int lo = 1;
    int hi = candidates.size();
    List<Candidate> best = null;
    List<NodeClaim> bestReplacements = null;
    while (lo <= hi) {
      int mid = (lo + hi) / 2;
      List<Candidate> prefix = candidates.subList(0, mid);
      Optional<List<NodeClaim>> r = simulate(prefix, view, true, random);
      if (r.isPresent()) {
        best = List.copyOf(prefix);
        bestReplacements = r.get();
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    if (best == null || best.size() < 2) {
      return Optional.empty();
    }
    return Optional.of(command(DisruptionCommand.Method.MULTI_NODE_CONSOLIDATION, DisruptionReason.UNDERUTILIZED, best,
        bestReplacements, view, random));
  }

  Optional<DisruptionCommand> singleNode(ClusterView view, RandomGenerator random) {
    for (Candidate c : consolidationCandidates(view)) {
      Optional<List<NodeClaim>> r = simulate(List.of(c), view, true, random);
      if (r.isPresent()) {
        return Optional.of(command(DisruptionCommand.Method.SINGLE_NODE_CONSOLIDATION, DisruptionReason.UNDERUTILIZED,
            List.of(c), r.get(), view, random));
      }
    }
    return Optional.empty();
  }

  /**
   * Reschedules the candidates' pods on the rest of the cluster plus new NodeClaims. Empty when a pod
   * would not fit; otherwise the replacements (none: delete). For consolidation at most one
   * replacement is allowed and it must be strictly cheaper than the candidates together; a
   * replacement of an instance type being removed must be cheaper than that candidate; spot
   * candidates are not replaced by spot without the SpotToSpotConsolidation gate (reference §1.5).
   */
  Optional<List<NodeClaim>> simulate(List<Candidate> candidates, ClusterView view, boolean consolidation,
      RandomGenerator random) {
    if (consolidation && !slack(view).mayConsolidate(candidates)) {
      return Optional.empty();
    }
    Set<String> leaving = new HashSet<>();
    List<Pod> pods = new ArrayList<>();
    double price = 0;
    boolean allSpot = true;
    for (Candidate c : candidates) {
      leaving.add(c.node().name());
      pods.addAll(c.reschedulable());
      price += c.price();
      allSpot &= c.claim().offering().capacityType() == CapacityType.SPOT;
    }
    List<StateNode> rest = new ArrayList<>();
    for (StateNode n : view.nodes()) {
      if (!leaving.contains(n.name())) {
        rest.add(n);
      }
    }
    ProvisioningPlan plan = provisioner.solve(pods, rest, view.daemonSets(), view.offerings(), view.now());
    if (!plan.allScheduled()) {
      return Optional.empty();
    }
    if (plan.newClaims().isEmpty()) {
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
    if (plan.newClaims().size() > 1) {
      return Optional.empty(); // "Can't remove without creating N candidates"
    }
    PlannedClaim p = plan.newClaims().getFirst();
    var requirements = p.requirements();
    if (allSpot && !settings.spotToSpotConsolidation()) {
      requirements = requirements.with(KarpenterLabels.CAPACITY_TYPE, ValueSet.notIn(List.of("spot")));
    }
    final double budget = price;
    final var reqs = requirements;
    List<InstanceType> cheaper = new ArrayList<>();
    for (InstanceType t : p.instanceTypes()) {
      double cheapest = cheapestPrice(t, reqs, view);
      if (!(cheapest < budget)) {
        continue;
      }
      boolean sameTypeNotCheaper = false;
      for (Candidate c : candidates) {
        if (c.claim().instanceType().name().equals(t.name()) && !(cheapest < c.price())) {
          sameTypeNotCheaper = true;
        }
      }
      if (!sameTypeNotCheaper) {
        cheaper.add(t);
      }
    }
    if (cheaper.isEmpty()) {
      return Optional.empty();
    }
    PlannedClaim narrowed = new PlannedClaim(p.template(), p.pods(), reqs, cheaper, p.requests());
    Optional<NodeClaim> replacement = Launcher.launch(narrowed, view.offerings(), view.now(), random);
    if (replacement.isEmpty() || !(replacement.get().pricePerHour() < budget)) {
      return Optional.empty();
    }
    return Optional.of(List.of(replacement.get()));
  }

  private SlackBound slack(ClusterView view) {
    if (boundView != view) {
      bound = SlackBound.of(view, provisioner.model());
      boundView = view;
    }
    return bound;
  }

  private static double cheapestPrice(InstanceType t, io.gpufleet.autoscaler.requirement.Requirements reqs,
      ClusterView view) {
    var zones = reqs.get("topology.kubernetes.io/zone");
    var capacity = reqs.get(KarpenterLabels.CAPACITY_TYPE);
    double best = Double.MAX_VALUE;
    for (Offering o : t.offerings()) {
      if (zones.map(z -> z.admits(o.zone())).orElse(true)
          && capacity.map(c -> c.admits(o.capacityType().wireName())).orElse(true)
          && view.offerings().isAvailable(t.name(), o, view.now())) {
        best = Math.min(best, o.pricePerHour());
      }
    }
    return best;
  }

  private static DisruptionCommand command(DisruptionCommand.Method method, DisruptionReason reason,
      List<Candidate> candidates, List<NodeClaim> replacements, ClusterView view, RandomGenerator random) {
    double price = candidates.stream().mapToDouble(Candidate::price).sum();
    double replacementPrice = replacements.stream().mapToDouble(NodeClaim::pricePerHour).sum();
    return new DisruptionCommand("disruption-" + PodNames.suffix(random, 8), method, reason,
        candidates.stream().map(Candidate::name).toList(), replacements, price, replacementPrice, view.now());
  }

  // ---- validation and execution ----

  /**
   * The command checked again after the validation delay (reference §1.5): its candidates must
   * still be candidates within budget, and the same method must still reach the same kind of
   * decision on them. Returns the command to execute (with replacements planned afresh) or why not.
   */
  public Validation validate(DisruptionCommand command, ClusterView view, RandomGenerator random) {
    boolean eventual = command.method() == DisruptionCommand.Method.DRIFT;
    Map<String, Candidate> byName = new HashMap<>();
    for (Candidate c : candidates(view, eventual)) {
      byName.put(c.name(), c);
    }
    List<Candidate> cands = new ArrayList<>();
    for (String name : command.candidates()) {
      Candidate c = byName.get(name);
      if (c == null) {
        return new Validation.Abandon(name + " is no longer a disruption candidate");
      }
      cands.add(c);
    }
    if (withinBudgets(cands, view, command.reason()).size() != cands.size()) {
      return new Validation.Abandon("disruption budget no longer allows it");
    }
    switch (command.method()) {
      case EMPTINESS -> {
        for (Candidate c : cands) {
          if (!c.isEmpty() || !consolidatable(c.node(), c.pool(), view.now())) {
            return new Validation.Abandon(c.name() + " is no longer empty");
          }
        }
        return new Validation.Execute(command);
      }
      case DRIFT -> {
        if (cands.stream().allMatch(Candidate::isEmpty)) {
          return new Validation.Execute(command);
        }
        Optional<List<NodeClaim>> r = simulate(cands, view, false, random);
        return r.<Validation>map(rs -> new Validation.Execute(withReplacements(command, rs)))
            .orElse(new Validation.Abandon("pods no longer reschedule"));
      }
      case MULTI_NODE_CONSOLIDATION, SINGLE_NODE_CONSOLIDATION -> {
        for (Candidate c : cands) {
          if (c.isEmpty() || !consolidatable(c.node(), c.pool(), view.now())) {
            return new Validation.Abandon(c.name() + " is no longer consolidatable");
          }
        }
        Optional<List<NodeClaim>> r = simulate(cands, view, true, random);
        if (r.isEmpty() || r.get().isEmpty() != command.isDelete()) {
          return new Validation.Abandon("the consolidation decision changed");
        }
        return new Validation.Execute(withReplacements(command, r.get()));
      }
    }
    throw new IllegalStateException();
  }

  private static DisruptionCommand withReplacements(DisruptionCommand c, List<NodeClaim> replacements) {
    return new DisruptionCommand(c.id(), c.method(), c.reason(), c.candidates(), replacements, c.candidatePrice(),
        replacements.stream().mapToDouble(NodeClaim::pricePerHour).sum(), c.decided());
  }

  /** The outcome of re-checking a command. */
  public sealed interface Validation {
    record Execute(DisruptionCommand command) implements Validation {}

    record Abandon(String reason) implements Validation {}
  }

  /**
   * Moves an executing command on (reference §1.5): once every replacement is initialised the
   * candidates are deleted; a replacement that vanished, or a wait past the replacement timeout,
   * abandons the command and lifts the candidates' taint.
   */
  public List<Action> progress(InFlightDisruption inFlight, ClusterView view) {
    DisruptionCommand c = inFlight.command();
    boolean allReady = true;
    for (NodeClaim r : c.replacements()) {
      Optional<StateNode> n = view.node(r.name());
      if (n.isEmpty() || n.get().claim().map(NodeClaim::isDeleting).orElse(true)) {
        return abandon(c, view, "replacement " + r.name() + " failed");
      }
      allReady &= n.get().isInitialized();
    }
    if (allReady) {
      List<Action> out = new ArrayList<>();
      RemovalReason reason = switch (c.reason()) {
        case EMPTY -> RemovalReason.EMPTY;
        case UNDERUTILIZED -> RemovalReason.UNDERUTILIZED;
        case DRIFTED -> RemovalReason.DRIFTED;
      };
      for (String name : c.candidates()) {
        out.add(new Action.DeleteNodeClaim(name, reason));
      }
      return out;
    }
    if (!view.now().isBefore(inFlight.executed().plus(settings.replacementTimeout()))) {
      return abandon(c, view, "replacements not initialized within "
          + KubeDuration.format(settings.replacementTimeout()));
    }
    return List.of();
  }

  private static List<Action> abandon(DisruptionCommand c, ClusterView view, String why) {
    List<Action> out = new ArrayList<>();
    for (String name : c.candidates()) {
      view.node(name).flatMap(StateNode::node).ifPresent(n -> out.add(
          new Action.UntaintNode(n.name(), KarpenterLabels.DISRUPTED)));
    }
    out.add(new Action.AbandonDisruption(c.id(), why));
    return out;
  }
}
