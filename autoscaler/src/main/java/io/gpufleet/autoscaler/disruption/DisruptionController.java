package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.action.Action;
import io.gpufleet.autoscaler.action.RemovalReason;
import io.gpufleet.autoscaler.provisioning.Provisioner;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.time.KubeDuration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.random.RandomGenerator;

/**
 * Karpenter's disruption controller (reference §1.5): each poll tries its methods in order
 * (emptiness, drift, multi-node and single-node consolidation) and stops at the first that finds
 * something to do. A decision waits the command validation delay, is checked again by the method
 * that made it, then executes: candidates are tainted, replacements launched, and the candidates
 * deleted once every replacement is initialised. Budgets (§1.6), {@code karpenter.sh/do-not-disrupt}
 * and PDBs gate candidates throughout.
 *
 * <p>Expiry is not among the methods: since Karpenter v1 it is the NodeClaim expiration controller's
 * forceful deletion, outside budgets ({@code K:pkg/controllers/nodeclaim/expiration/controller.go}),
 * modelled in {@code lifecycle}.
 */
public final class DisruptionController {

  /** Every node Karpenter manages passes: validation asks again about the command's own candidates. */
  private static final DisruptionMethod.Filter ANY = (n, p, now) -> true;

  private final AutoscalerSettings settings;
  private final DisruptionSimulation simulation;
  /** The registry, in the order the controller tries them ({@code K:pkg/controllers/disruption/controller.go}). */
  private final List<DisruptionMethod> methods;
  private final SingleNodeConsolidation single;
  /** Candidates per filter for the last view seen: a memo, the same for the same view. */
  private ClusterView candidatesView;
  private final Map<DisruptionMethod.Filter, List<Candidate>> candidates = new IdentityHashMap<>();
  /** Each node's candidate answer, kept while what it read is unchanged. */
  private final CandidateMemo memo = new CandidateMemo();

  public DisruptionController(AutoscalerSettings settings, Provisioner provisioner) {
    this.settings = settings;
    this.simulation = new DisruptionSimulation(settings, provisioner);
    this.single = new SingleNodeConsolidation(simulation);
    this.methods = List.of(new Emptiness(), new Drift(simulation), new MultiNodeConsolidation(simulation), single);
  }

  /** The methods, in the order each poll tries them. */
  public List<DisruptionMethod> methods() {
    return methods;
  }

  /** The next disruption to propose, if any: the first method's command. */
  public Optional<DisruptionCommand> poll(ClusterView view, RandomGenerator random) {
    for (DisruptionMethod m : methods) {
      Optional<DisruptionCommand> c = m.computeCommand(candidates(view, m), view, random);
      if (c.isPresent()) {
        return c;
      }
    }
    return Optional.empty();
  }

  /**
   * Why consolidation leaves each node of a NodePool it manages, by NodeClaim name, as Karpenter's
   * events say it: {@code DisruptionBlocked} with the candidate filter's reason (a do-not-disrupt
   * pod or node, a PDB, ...); {@code Unconsolidatable} with the NodePool's own setting, as consolidation's {@code ShouldDisrupt}
   * says it ({@code K:pkg/controllers/disruption/consolidation.go}: {@code NodePool %q has consolidation
   * disabled} when {@code consolidateAfter} is Never, {@code NodePool %q has non-empty consolidation
   * disabled} under WhenEmpty); the Underutilized budget; or what the single-node simulation found.
   * Empty nodes are left to emptiness (upstream also says the policy sentence for them, which would
   * only repeat that emptiness will take them), unless {@code consolidateAfter} is Never. A node still
   * inside its {@code consolidateAfter} is left out: waiting is not a refusal.
   *
   * <p>A candidate the single-node search, or an earlier explanation, found could not go over the same
   * inputs is not simulated again ({@link DisruptionSimulation#consolidate}). Simulations here draw
   * from a stream of their own, so asking changes nothing a later poll draws.
   */
  public SortedMap<String, ConsolidationRefusal> unconsolidatable(ClusterView view) {
    SortedMap<String, ConsolidationRefusal> out = new TreeMap<>();
    // Single-node consolidation skips a candidate only while its NodePool's budget is used up.
    Map<String, Integer> allowed = DisruptionBudgets.allowed(view, single.reason());
    Map<String, Candidate> inBudget = new HashMap<>();
    for (Candidate c : candidates(view, single)) {
      if (SingleNodeConsolidation.withinBudget(c, allowed)) {
        inBudget.put(c.name(), c);
      }
    }
    RandomGenerator own = new SplittableRandom(0);
    for (StateNode n : view.nodes()) {
      Optional<NodePool> pool = n.claim().flatMap(c -> view.nodePool(c.nodePool()));
      if (pool.isEmpty()) {
        continue;
      }
      Optional<String> disabled = Consolidation.disabledBy(pool.get());
      if (n.isEmpty() && (disabled.isEmpty() || pool.get().disruption().consolidateAfter().isPresent())) {
        continue;
      }
      String name = n.claim().get().name();
      // The candidate checks first: upstream asks ShouldDisrupt only of a node that is a candidate.
      Optional<String> rejected = memo.rejection(n, view, false, ANY);
      if (rejected.isPresent()) {
        out.put(name, ConsolidationRefusal.blocked(rejected.get()));
        continue;
      }
      if (disabled.isPresent()) {
        out.put(name, ConsolidationRefusal.unconsolidatable(disabled.get()));
        continue;
      }
      if (!Candidates.consolidatable(n, pool.get(), view.now())) {
        continue;
      }
      Candidate c = inBudget.get(name);
      if (c == null) {
        out.put(name, ConsolidationRefusal.unconsolidatable(
            "the NodePool's disruption budget for Underutilized allows no more disruptions now"));
        continue;
      }
      StringBuilder why = new StringBuilder();
      if (simulation.consolidate(c, view, own, why::append).isEmpty()) {
        out.put(name, ConsolidationRefusal.unconsolidatable(why.toString()));
      }
    }
    return out;
  }

  /**
   * What a poll's answer depends on beyond the cluster's contents: which candidates are past their
   * {@code consolidateAfter} and which budgets are active. The same key over the same cluster gives
   * the same answer, so a runtime may skip a poll that cannot change anything.
   */
  public Object quiescenceKey(ClusterView view) {
    List<String> consolidatable = new ArrayList<>();
    for (StateNode n : view.nodes()) {
      if (n.claim().isPresent() && view.nodePool(n.claim().get().nodePool()).map(p -> Candidates.consolidatable(n, p,
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

  /** The candidates {@code m}'s filter admits, gathered once per view for methods that share a filter. */
  private List<Candidate> candidates(ClusterView view, DisruptionMethod m) {
    if (candidatesView != view) {
      candidatesView = view;
      candidates.clear();
    }
    return candidates.computeIfAbsent(m.filter(),
        f -> Collections.unmodifiableList(memo.of(view, m.eventual(), f)));
  }

  // ---- validation and execution ----

  /**
   * The command checked again after the validation delay (reference §1.5): its candidates must
   * still be candidates within budget, and the method that made it must still reach the same kind
   * of decision on them. Returns the command to execute (with replacements planned afresh) or why not.
   */
  public Validation validate(DisruptionCommand command, ClusterView view, RandomGenerator random) {
    DisruptionMethod method = method(command.method());
    Map<String, Candidate> byName = new HashMap<>();
    for (Candidate c : memo.of(view, method.eventual(), ANY)) {
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
    if (Candidates.withinBudgets(cands, view, command.reason()).size() != cands.size()) {
      return new Validation.Abandon("disruption budget no longer allows it");
    }
    return method.validate(command, cands, view, random);
  }

  private DisruptionMethod method(DisruptionCommand.Method kind) {
    for (DisruptionMethod m : methods) {
      if (m.kind() == kind) {
        return m;
      }
    }
    throw new IllegalArgumentException("no disruption method " + kind);
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
