package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.FitError;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.model.pod.PreemptionPolicy;
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
 * reprieve victims from the most important down while it still fits; among the candidates pick the
 * node with the lowest highest-victim priority, then the lowest sum of priorities, then the fewest
 * victims, then the later start of the earliest highest-priority victim, then the first. Without a candidate the message is
 * {@code preemption: 0/N nodes are available: ...} with upstream's per-node reasons.
 */
public final class DefaultPreemption implements PostFilterPlugin {

  /** Upstream's status for nodes whose failure preemption cannot resolve. */
  public static final String NOT_HELPFUL = "Preemption is not helpful for scheduling";
  /** Upstream's status for a node with no pod of lower priority. */
  public static final String NO_VICTIMS = "No preemption victims found for incoming pod";
  /** {@code PodEligibleToPreemptOthers}'s message for {@code preemptionPolicy: Never}. */
  public static final String NEVER = "not eligible due to preemptionPolicy=Never.";

  private final List<FilterPlugin> filters;

  public DefaultPreemption(List<FilterPlugin> filters) {
    this.filters = List.copyOf(filters);
  }

  @Override
  public String pluginName() {
    return "DefaultPreemption";
  }

  private record Candidate(String node, List<PodInfo> victims) {
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
    int priority = pod.pod().spec().priority();
    // When no bound pod is below the preemptor, every node it might help has no victim: each node's
    // status is all that is read, not its pods (upstream reads them, node by node, to find none).
    boolean noneBelow = priority <= snapshot.podPriorityFloor();
    // PreFilter once over the snapshot; a stateful filter adjusts for the pods removed from a node.
    FilterPlugin[] filters = noneBelow ? new FilterPlugin[0] : FilterPlugin.forCycle(this.filters, pod, snapshot);
    // Only the counts per reason make the message; no status is kept per node.
    Map<String, Integer> reasons = new TreeMap<>();
    // The two reasons most nodes of a full fleet give, counted here and entered once at the end.
    int notHelpful = 0;
    int noVictims = 0;
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
      // Reprieve the most important pods first: higher priority, then the earlier start.
      lower.sort(MORE_IMPORTANT_FIRST);
      List<PodInfo> victims = new ArrayList<>();
      NodeInfo current = without;
      for (PodInfo p : lower) {
        NodeInfo back = current.withPod(p);
        if (filter(filters, pod, back).isSuccess()) {
          current = back;
        } else {
          victims.add(p);
        }
      }
      candidates.add(new Candidate(node.name(), victims));
    }
    if (candidates.isEmpty()) {
      if (notHelpful > 0) {
        reasons.merge(NOT_HELPFUL, notHelpful, Integer::sum);
      }
      if (noVictims > 0) {
        reasons.merge(NO_VICTIMS, noVictims, Integer::sum);
      }
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
   * {@code pickOneNodeForPreemption} without PDBs: strictly better than {@code b}: the lower
   * highest-victim priority, the lower sum, fewer victims, then the later earliest start time of the
   * highest-priority victims (default_preemption.go / preemption.go).
   */
  private static boolean better(Candidate a, Candidate b) {
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
}
