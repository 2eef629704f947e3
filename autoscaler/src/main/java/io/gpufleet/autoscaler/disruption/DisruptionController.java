package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.action.Action;
import io.gpufleet.autoscaler.action.RemovalReason;
import io.gpufleet.autoscaler.provisioning.Provisioner;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.time.KubeDuration;
import io.gpufleet.model.workload.DisruptionBudget;
import io.gpufleet.model.workload.PodDisruptionBudget;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
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
  private static final NodeFacts.Filter ANY = (f, now) -> true;

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
    this.methods = List.of(new Emptiness(simulation), new Drift(simulation), new MultiNodeConsolidation(simulation),
        single);
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
    refresh(view);
    return Collections.unmodifiableSortedMap(new TreeMap<>(refusals));
  }

  /**
   * What changed in {@link #unconsolidatable} since the last call of this method: the refusals that
   * may differ (in name order; some may be as they were), the claims that lost theirs, and whether
   * this is the first call ({@code complete}: every refusal is given, and any other claim has none).
   * A runtime that records each change then costs what changed, not a comparison of every node.
   */
  public RefusalChanges unconsolidatableChanges(ClusterView view) {
    refresh(view);
    RefusalChanges out;
    if (!journalStarted) {
      journalStarted = true;
      out = new RefusalChanges(Collections.unmodifiableSortedMap(new TreeMap<>(refusals)), Set.of(), true);
    } else {
      SortedMap<String, ConsolidationRefusal> changed = new TreeMap<>();
      Set<String> gone = new TreeSet<>();
      for (String name : changedNames) {
        ConsolidationRefusal r = refusals.get(name);
        if (r == null) {
          gone.add(name);
        } else {
          changed.put(name, r);
        }
      }
      out = new RefusalChanges(Collections.unmodifiableSortedMap(changed), Collections.unmodifiableSet(gone), false);
    }
    changedNames.clear();
    return out;
  }

  /** See {@link #unconsolidatableChanges}. */
  public record RefusalChanges(SortedMap<String, ConsolidationRefusal> changed, Set<String> gone, boolean complete) {}

  /** Every node's refusal as {@link #unconsolidatable} says it, by NodeClaim name, kept across views. */
  private final TreeMap<String, ConsolidationRefusal> refusals = new TreeMap<>();
  /** The facts {@link #refusals} was last brought to, in view order; each one's refusal there is its {@code shown}. */
  private NodeFacts[] shownRows = new NodeFacts[0];
  private final Set<String> changedNames = new TreeSet<>();
  private boolean journalStarted;

  /**
   * Brings {@link #refusals} to {@code view}. A node's refusal up to the NodePool's setting reads only
   * its facts and its kept candidate answer, so it is kept while that answer is the same object; what
   * reads the budget, the time or the simulation is worked out each time, as before.
   *
   * <p>Only the rows whose refusal may differ from the one shown are visited (issue 33 item 7: most
   * quiet polls follow a change of a few nodes or of one PDB's status): rows that came since the last
   * refresh, rows whose refusal reads more than their facts and answer ({@link #unsettled}), and rows
   * whose answer read a PDB that came to block or to allow since ({@link #readers}). Any other row's
   * answer still holds ({@link CandidateMemo#answer} keeps it while no PDB it read switched and no
   * duration it saw ended), so its refusal is the one shown. They are visited in row order, as a
   * refresh of every row would, so simulations draw from the refresh's stream in the same order.
   */
  private void refresh(ClusterView view) {
    NodeFacts[] rows = memo.rows(view);
    CandidateMemo.Changes changes = memo.drain();
    Lazy lazy = new Lazy();
    if (changes.full() || !indexed) {
      for (NodeFacts f : shownRows) {
        unshow(f);
      }
      readers.clear();
      unsettled.clear();
      registered = 0;
      for (NodeFacts f : rows) {
        f.indexed = null;
        visit(f, view, lazy);
      }
      indexed = true;
    } else {
      for (NodeFacts f : changes.left()) {
        unsettled.remove(f);
        unshow(f);
      }
      long stamp = ++visitStamp;
      List<NodeFacts> due = new ArrayList<>();
      for (NodeFacts f : changes.added()) {
        queue(f, stamp, due);
      }
      for (NodeFacts f : unsettled) {
        queue(f, stamp, due);
      }
      for (PodDisruptionBudget b : changes.flips()) {
        List<NodeFacts> read = readers.remove(b);
        if (read != null) {
          registered -= read.size();
          for (NodeFacts f : read) {
            f.indexed = null; // registered again under every PDB its answer reads, once visited
            queue(f, stamp, due);
          }
        }
      }
      due.sort(Comparator.comparingInt(f -> f.at));
      for (NodeFacts f : due) {
        visit(f, view, lazy);
      }
    }
    shownRows = rows;
    if (registered > 4 * rows.length + 64) { // stale registrations: rebuilt from the rows' answers
      readers.clear();
      registered = 0;
      for (NodeFacts f : rows) {
        if (f.indexed != null) {
          register(f, f.indexed);
        }
      }
    }
  }

  /** Whether {@link #readers} and {@link #unsettled} describe {@link #shownRows}. */
  private boolean indexed;
  /** The rows of {@link #shownRows} whose refusal reads the time, budgets or a simulation, or whose answer a duration ends. */
  private final Set<NodeFacts> unsettled = Collections.newSetFromMap(new IdentityHashMap<>());
  /** The rows whose shown refusal came from an answer that read each PDB; some may be stale (left, or answered since). */
  private final IdentityHashMap<PodDisruptionBudget, List<NodeFacts>> readers = new IdentityHashMap<>();
  private int registered;
  private long visitStamp;
  /** How many rows refreshes visited, for tests of what a refresh costs. */
  long visits;

  /**
   * Drops the shown refusal of a row that left the rows: its claim's entry goes, unless a new state
   * node of the claim puts one back when visited.
   */
  private void unshow(NodeFacts f) {
    if (!memo.listed(f) && f.shown != null) {
      f.shown = null;
      refusals.remove(f.claimName());
      changed(f.claimName());
    }
  }

  private void queue(NodeFacts f, long stamp, List<NodeFacts> due) {
    if (f.queued != stamp && memo.listed(f)) {
      f.queued = stamp;
      due.add(f);
    }
  }

  /** Works out a row's refusal, brings the kept map to it, and notes what it read for the next refresh. */
  private void visit(NodeFacts f, ClusterView view, Lazy lazy) {
    visits++;
    ConsolidationRefusal r = refusal(f, view, lazy);
    CandidateMemo.Answer from = f.refusalRead;
    if (f.unsettled || (from != null && from.until != null)) {
      unsettled.add(f);
    } else {
      unsettled.remove(f);
      if (from != null && f.indexed != from) {
        register(f, from);
      }
    }
    ConsolidationRefusal was = f.shown;
    if (r == was || (r != null && r.equals(was))) {
      return;
    }
    String name = f.claimName();
    f.shown = r;
    if (r == null) {
      refusals.remove(name);
    } else {
      refusals.put(name, r);
    }
    changed(name);
  }

  private void register(NodeFacts f, CandidateMemo.Answer from) {
    f.indexed = from;
    for (DisruptionBudget e : from.read) {
      readers.computeIfAbsent(e.pdb(), b -> new ArrayList<>()).add(f);
      registered++;
    }
  }

  /** Notes a claim whose refusal changed, for the next {@link #unconsolidatableChanges} (none before the first). */
  private void changed(String name) {
    if (journalStarted) {
      changedNames.add(name);
    }
  }

  /** What a refresh works out at most once, and only if a node needs it: budgets, candidates, a draw stream. */
  private final class Lazy {
    Map<String, Candidate> inBudget;
    RandomGenerator own;

    Map<String, Candidate> inBudget(ClusterView view) {
      if (inBudget == null) {
        // Single-node consolidation skips a candidate only while its NodePool's budget is used up.
        Map<String, Integer> allowed = simulation.budgets(view, single.reason());
        inBudget = new HashMap<>();
        for (Candidate c : candidates(view, single)) {
          if (SingleNodeConsolidation.withinBudget(c, allowed)) {
            inBudget.put(c.name(), c);
          }
        }
      }
      return inBudget;
    }
  }

  /** One node's refusal, as {@link #unconsolidatable} describes it; null when consolidation does not refuse it. */
  private ConsolidationRefusal refusal(NodeFacts f, ClusterView view, Lazy lazy) {
    f.refusalRead = null; // reads only the facts
    f.unsettled = false;
    NodePool pool = f.pool;
    if (pool == null) {
      return null;
    }
    if (f.empty && (f.consolidationDisabled().isEmpty() || pool.disruption().consolidateAfter().isPresent())) {
      return null;
    }
    // The candidate checks first: upstream asks ShouldDisrupt only of a node that is a candidate.
    CandidateMemo.Answer from = f.unmanaged.isPresent() ? null : memo.answer(f, view, false);
    f.refusalRead = from;
    Optional<String> rejected = from == null ? f.unmanaged : from.blocked;
    Optional<String> disabled = f.consolidationDisabled();
    if (rejected.isPresent() || disabled.isPresent()) {
      if (f.refusal == null || f.refusalFrom != from) {
        f.refusal = rejected.isPresent() ? ConsolidationRefusal.blocked(rejected.get())
            : ConsolidationRefusal.unconsolidatable(disabled.get());
        f.refusalFrom = from;
      }
      return f.refusal;
    }
    f.unsettled = true; // the time, the budget or a simulation
    if (!f.consolidatableBy(view.now())) {
      return null;
    }
    Candidate c = lazy.inBudget(view).get(f.claimName());
    if (c == null) {
      return ConsolidationRefusal.unconsolidatable(
          "the NodePool's disruption budget for Underutilized allows no more disruptions now");
    }
    if (lazy.own == null) {
      lazy.own = new SplittableRandom(0);
    }
    StringBuilder why = new StringBuilder();
    if (simulation.consolidate(c, view, lazy.own, why::append).isEmpty()) {
      return ConsolidationRefusal.unconsolidatable(why.toString());
    }
    return null;
  }

  /**
   * When the answer of a poll over an unchanged cluster may next change, before {@code limit}: a
   * node's {@code consolidateAfter} or a pod's duration-based do-not-disrupt running out, for nodes
   * of NodePools that consolidate; {@code limit} when neither comes sooner.
   */
  public Instant nextConsolidatableChange(ClusterView view, Instant limit) {
    return memo.nextChange(view, limit);
  }

  /**
   * What a poll's answer depends on beyond the cluster's contents: which candidates are past their
   * {@code consolidateAfter} and which budgets are active. The same key over the same cluster gives
   * the same answer, so a runtime may skip a poll that cannot change anything.
   */
  public Object quiescenceKey(ClusterView view) {
    List<String> consolidatable = new ArrayList<>();
    for (NodeFacts f : memo.rows(view)) {
      if (f.consolidatableBy(view.now())) {
        consolidatable.add(f.node.name());
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
        f -> memo.of(view, m.eventual(), f));
  }

  // ---- validation and execution ----

  /**
   * The command checked again after the validation delay (reference §1.5): its candidates must
   * still be candidates within budget, and the method that made it must still reach the same kind
   * of decision on them. Returns the command to execute (with replacements planned afresh) or why not.
   */
  public Validation validate(DisruptionCommand command, ClusterView view, RandomGenerator random) {
    DisruptionMethod method = method(command.method());
    // Only the command's nodes are asked: the same answers as listing every candidate and picking them.
    List<Candidate> cands = new ArrayList<>();
    for (String name : command.candidates()) {
      Optional<Candidate> found = memo.candidate(view, name, method.eventual(), ANY);
      if (found.isEmpty()) {
        return new Validation.Abandon(name + " is no longer a disruption candidate");
      }
      cands.add(found.get());
    }
    if (Candidates.withinBudgets(cands, () -> simulation.budgets(view, command.reason())).size() != cands.size()) {
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
