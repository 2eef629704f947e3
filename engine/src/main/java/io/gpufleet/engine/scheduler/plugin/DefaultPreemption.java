package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.FitError;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.model.pod.PreemptionPolicy;
import io.gpufleet.model.workload.DisruptionBudget;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * DefaultPreemption's PostFilter, as {@code pkg/scheduler/framework/preemption/preemption.go} and
 * {@code plugins/defaultpreemption/default_preemption.go} do it: on every node whose failure another
 * pod's removal could resolve, remove all pods of lower priority, check the pod then fits, and
 * reprieve victims while it still fits, those whose PodDisruptionBudget would be violated first, each
 * group from the most important down; among the candidates pick the node with the fewest PDB
 * violations, then the lowest highest-victim priority, then the lowest sum of priorities, then the
 * fewest victims, then the later start of the earliest highest-priority victim, then the first.
 * Without a candidate the message is {@code preemption: 0/N nodes are available: ...} with
 * upstream's per-node reasons. The budgets come from the {@link Budgets} given, read
 * once per preemption that finds a node with possible victims, as upstream lists them once per cycle.
 */
public final class DefaultPreemption implements PostFilterPlugin {

  /** Upstream's status for nodes whose failure preemption cannot resolve. */
  public static final String NOT_HELPFUL = "Preemption is not helpful for scheduling";
  /** Upstream's status for a node with no pod of lower priority. */
  public static final String NO_VICTIMS = "No preemption victims found for incoming pod";
  /** {@code PodEligibleToPreemptOthers}'s message for {@code preemptionPolicy: Never}. */
  public static final String NEVER = "not eligible due to preemptionPolicy=Never.";

  /** Where DefaultPreemption reads the budgets, once per preemption that finds possible victims. */
  @FunctionalInterface
  public interface Budgets {
    /** No budgets: what a profile without a PDB lister reads. */
    Budgets NONE = List::of;

    List<DisruptionBudget> list();
  }

  private final List<FilterPlugin> filters;
  private final Budgets budgets;

  public DefaultPreemption(List<FilterPlugin> filters) {
    this(filters, Budgets.NONE);
  }

  public DefaultPreemption(List<FilterPlugin> filters, Budgets budgets) {
    this.filters = List.copyOf(filters);
    this.budgets = budgets;
  }

  /** The same plugin re-running {@code filters}, reading the same budgets. */
  public DefaultPreemption over(List<FilterPlugin> filters) {
    return new DefaultPreemption(filters, budgets);
  }

  /** The same plugin reading the budgets from {@code budgets}. */
  public DefaultPreemption withBudgets(Budgets budgets) {
    return new DefaultPreemption(filters, budgets);
  }

  @Override
  public String pluginName() {
    return "DefaultPreemption";
  }

  /**
   * A node where preemption makes room: its victims, most important first, and how many of them
   * violate a PodDisruptionBudget ({@code extenderv1.Victims}' {@code NumPDBViolations}).
   */
  public record Candidate(String node, List<PodInfo> victims, int pdbViolations) {
    public Candidate {
      victims = List.copyOf(victims);
    }

    long highest() {
      return victims.stream().mapToLong(v -> v.pod().spec().priority()).max().orElse(Long.MIN_VALUE);
    }

    long sum() {
      // Upstream adds MaxInt32 + 1 to each priority so that negative priorities still count.
      return victims.stream().mapToLong(v -> v.pod().spec().priority() + (long) Integer.MAX_VALUE + 1).sum();
    }

    /**
     * pkg/scheduler/util GetEarliestPodStartTime: the earliest start among the victims of the highest
     * priority; a victim without a start time counts as starting now, later than any known one.
     */
    Optional<Instant> earliestStartOfHighest() {
      long top = highest();
      boolean seen = false;
      Optional<Instant> earliest = Optional.empty();
      for (PodInfo v : victims) {
        if (v.pod().spec().priority() == top && (!seen || before(v.startTime(), earliest))) {
          earliest = v.startTime();
          seen = true;
        }
      }
      return earliest;
    }
  }

  /** {@code a} before {@code b}, a missing time being "now" (GetPodStartTime), after every known one. */
  private static boolean before(Optional<Instant> a, Optional<Instant> b) {
    return a.isPresent() && (b.isEmpty() || a.get().isBefore(b.get()));
  }

  /**
   * pkg/scheduler/util MoreImportantPod: higher priority first, then the earlier start time; a pod
   * without one counts as starting now. Equal pods keep the order they were bound.
   */
  static final Comparator<PodInfo> MORE_IMPORTANT_FIRST = (a, b) -> {
    int byPriority = Integer.compare(b.pod().spec().priority(), a.pod().spec().priority());
    if (byPriority != 0) {
      return byPriority;
    }
    return before(a.startTime(), b.startTime()) ? -1 : before(b.startTime(), a.startTime()) ? 1 : 0;
  };

  @Override
  public Result postFilter(PodInfo pod, ClusterSnapshot snapshot, FitError error) {
    if (pod.pod().spec().preemptionPolicy() == PreemptionPolicy.NEVER) {
      return new Result(Optional.empty(), List.of(), "preemption: " + NEVER);
    }
    Map<String, Integer> reasons = new TreeMap<>();
    List<Candidate> candidates = dryRun(pod, snapshot, error, reasons);
    if (candidates.isEmpty()) {
      return new Result(Optional.empty(), List.of(),
          "preemption: " + FitError.ofCounts(snapshot.size(), reasons, "").message());
    }
    Candidate best = candidates.getFirst();
    for (Candidate c : candidates.subList(1, candidates.size())) {
      if (better(c, best)) {
        best = c;
      }
    }
    return new Result(Optional.of(best.node()), best.victims().stream().map(PodInfo::key).toList(), "");
  }

  /**
   * {@code DryRunPreemption} over every node whose failure another pod's removal could resolve, in
   * node order: the candidates, each with its victims ({@code SelectVictimsOnNode}).
   */
  public List<Candidate> dryRun(PodInfo pod, ClusterSnapshot snapshot, FitError error) {
    return dryRun(pod, snapshot, error, new TreeMap<>());
  }

  /** As above, counting in {@code reasons} why each node that is no candidate is none. */
  private List<Candidate> dryRun(PodInfo pod, ClusterSnapshot snapshot, FitError error, Map<String, Integer> reasons) {
    int priority = pod.pod().spec().priority();
    // When no bound pod is below the preemptor, every node it might help has no victim: each node's
    // status is all that is read, not its pods (upstream reads them, node by node, to find none).
    boolean noneBelow = priority <= snapshot.podPriorityFloor();
    // PreFilter once over the snapshot; a stateful filter adjusts for the pods removed from a node.
    FilterPlugin[] filters = noneBelow ? new FilterPlugin[0] : FilterPlugin.forCycle(this.filters, pod, snapshot);
    // The two reasons most nodes of a full fleet give, counted here and entered once at the end.
    int notHelpful = 0;
    int noVictims = 0;
    // Read once, when a node first has possible victims.
    List<DisruptionBudget> pdbs = null;
    List<Candidate> candidates = new ArrayList<>();
    if (noneBelow) {
      // No node has a victim: the nodes it might help (an Unschedulable status) count as such, the rest
      // as not helpful, counted once with the cycle's statuses instead of node by node here.
      noVictims = error.nodesWith(snapshot, Status.Code.UNSCHEDULABLE);
      notHelpful = snapshot.size() - noVictims;
    }
    for (int i = 0; i < snapshot.size() && !noneBelow; i++) {
      Status failed = error.statusOf(snapshot, i).orElse(null);
      if (failed == null || failed.code() != Status.Code.UNSCHEDULABLE) {
        notHelpful++;
        continue;
      }
      NodeInfo node = snapshot.get(i);
      List<PodInfo> lower = new ArrayList<>();
      NodeInfo without = node;
      for (PodInfo p : node.pods()) {
        if (p.pod().spec().priority() < priority) {
          lower.add(p);
          without = without.withoutPod(p.key());
        }
      }
      if (lower.isEmpty()) {
        noVictims++;
        continue;
      }
      Status fits = filter(filters, pod, without);
      if (!fits.isSuccess()) {
        fits.reasons().forEach(r -> reasons.merge(r, 1, Integer::sum));
        continue;
      }
      if (pdbs == null) {
        pdbs = budgets.list();
      }
      candidates.add(selectVictims(filters, pod, node.name(), without, lower, pdbs));
    }
    if (candidates.isEmpty()) {
      if (notHelpful > 0) {
        reasons.merge(NOT_HELPFUL, notHelpful, Integer::sum);
      }
      if (noVictims > 0) {
        reasons.merge(NO_VICTIMS, noVictims, Integer::sum);
      }
    }
    return candidates;
  }

  /**
   * The rest of {@code SelectVictimsOnNode}, the preemptor fitting once {@code lower} are gone:
   * reprieve the pods whose eviction would violate a budget first, then the others, each group most
   * important first (higher priority, then the earlier start); the violating pods left as victims
   * are the candidate's violations.
   */
  private static Candidate selectVictims(FilterPlugin[] filters, PodInfo pod, String node, NodeInfo without,
      List<PodInfo> lower, List<DisruptionBudget> pdbs) {
    lower.sort(MORE_IMPORTANT_FIRST);
    Split split = split(lower, pdbs);
    int violating = split.violating().size();
    List<PodInfo> order = split.nonViolating();
    if (violating > 0) {
      order = new ArrayList<>(split.violating());
      order.addAll(split.nonViolating());
    }
    List<PodInfo> victims = new ArrayList<>();
    NodeInfo current = without;
    int violations = 0;
    for (int k = 0; k < order.size(); k++) {
      PodInfo p = order.get(k);
      NodeInfo back = current.withPod(p);
      if (filter(filters, pod, back).isSuccess()) {
        current = back;
      } else {
        victims.add(p);
        violations += k < violating ? 1 : 0;
      }
    }
    // Upstream sorts the victims most important first again when neither group was empty.
    if (violating > 0 && !split.nonViolating().isEmpty()) {
      victims.sort(MORE_IMPORTANT_FIRST);
    }
    return new Candidate(node, victims, violations);
  }

  /**
   * {@code pickOneNodeForPreemption}: strictly better than {@code b}: fewer PDB violations, the lower
   * highest-victim priority, the lower sum, fewer victims, then the later earliest start time of the
   * highest-priority victims (default_preemption.go / preemption.go).
   */
  private static boolean better(Candidate a, Candidate b) {
    if (a.pdbViolations() != b.pdbViolations()) {
      return a.pdbViolations() < b.pdbViolations();
    }
    if (a.highest() != b.highest()) {
      return a.highest() < b.highest();
    }
    if (a.sum() != b.sum()) {
      return a.sum() < b.sum();
    }
    if (a.victims().size() != b.victims().size()) {
      return a.victims().size() < b.victims().size();
    }
    return before(b.earliestStartOfHighest(), a.earliestStartOfHighest());
  }

  private static Status filter(FilterPlugin[] filters, PodInfo pod, NodeInfo node) {
    for (FilterPlugin f : filters) {
      Status s = f.filter(pod, node);
      if (!s.isSuccess()) {
        return s;
      }
    }
    return Status.SUCCESS;
  }

  /** The potential victims, split in order ({@code filterPodsWithPDBViolation}). */
  record Split(List<PodInfo> violating, List<PodInfo> nonViolating) {}

  /**
   * {@code filterPodsWithPDBViolation} (pkg/scheduler/framework/plugins/defaultpreemption): a pod
   * whose matching budget has no disruption left violates it; otherwise each matching budget's
   * allowance is decremented. Stable: the order of {@code pods} is kept in each group. Budgets match
   * as policy/v1 reads the selector ({@code PodDisruptionBudget.selects}: a null selector matches
   * no pod, an empty one every pod of the namespace, kubernetes/kubernetes#141785). Upstream skips
   * a pod listed in the budget's {@code status.disruptedPods}; the twin does not model that list.
   */
  static Split split(List<PodInfo> pods, List<DisruptionBudget> budgets) {
    if (budgets.isEmpty()) {
      return new Split(List.of(), pods);
    }
    int[] allowed = new int[budgets.size()];
    for (int i = 0; i < allowed.length; i++) {
      allowed[i] = budgets.get(i).disruptionsAllowed();
    }
    List<PodInfo> violating = new ArrayList<>();
    List<PodInfo> nonViolating = new ArrayList<>();
    for (PodInfo p : pods) {
      boolean violated = false;
      for (int i = 0; i < allowed.length; i++) {
        if (!budgets.get(i).pdb().selects(p.pod().meta().namespace(), p.pod().meta().labels())) {
          continue;
        }
        if (allowed[i] <= 0) {
          violated = true;
          break;
        }
        allowed[i]--;
      }
      (violated ? violating : nonViolating).add(p);
    }
    return new Split(violating, nonViolating);
  }
}
