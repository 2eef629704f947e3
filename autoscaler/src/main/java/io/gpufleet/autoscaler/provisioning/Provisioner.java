package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.engine.scheduler.ResourceVector;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodRequests;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.Tolerations;
import io.gpufleet.model.workload.Workload;
import java.time.Instant;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Karpenter's provisioning simulation (reference §1.4, {@code K:pkg/controllers/provisioning/scheduling}):
 * pods, largest CPU then memory request first, go to (1) existing and in-flight nodes, initialised
 * ones first, (2) NodeClaims already planned in this round, fewest pods first, (3) a new NodeClaim
 * from the first NodePool, in weight order, that tolerates them, meets their requirements, stays
 * within its limits and still has an instance type (with the DaemonSet overhead) and an offering
 * for them. A pod that fits nowhere is retried while others keep finding places. Pure: it plans,
 * the caller launches.
 */
public final class Provisioner {

  private final ProvisioningModel model;
  /** The nodes' offers from the last round, reused for the state nodes that did not change. */
  private final NodeBases bases = new NodeBases();
  /**
   * The last rounds' nodes, in order, with what rounds ask of them: kept while the nodes are the same,
   * brought forward by the nodes that changed when some did ({@link RoundNodes#next}).
   */
  private RoundNodes fleet;
  /** The DaemonSets the last round was given, and those of them it counts. */
  private List<Workload.DaemonSet> lastDaemonSets;
  private List<Workload.DaemonSet> counted;
  /** New claims' first answers, kept while the offerings and time are the same ({@link FirstClaims}). */
  private final FirstClaims firsts = new FirstClaims();
  /** The queue's order over the requests of {@link #orderFleet}. */
  private RoundNodes orderFleet;
  private Comparator<Pod> order;
  /** The shared pods {@link #simulateWithout} was last given, and them in queue order. */
  private List<Pod> lastShared;
  private List<Pod> sharedQueue;
  /** The shared pods' placement the last rounds started from ({@link SharedPrefix}). */
  private SharedPrefix prefix;
  /** Whether rounds start from the shared pods' placement; off only in tests. */
  boolean sharePrefix = true;
  /** Whether this model's rounds may start from another's state: no DRA, no NodePool limits ({@link ProvisioningRound#adoptable}). */
  private final boolean prefixable;
  /** How many rounds started from the shared pods' placement, and how many of those pods they skipped: for tests. */
  int resumed;
  int resumedPods;
  /** How many of those rounds ended at their tail with its claims counted ({@link SharedPrefix}): for tests. */
  int tailsCounted;

  public Provisioner(ProvisioningModel model) {
    this.model = model;
    boolean limits = false;
    for (NodePoolTemplate t : model.templates()) {
      limits |= !t.pool().limits().isEmpty();
    }
    this.prefixable = model.dra().ignores() && !limits;
  }

  public ProvisioningModel model() {
    return model;
  }

  /**
   * Plans capacity for {@code pods}.
   *
   * @param nodes every node and NodeClaim Karpenter tracks; those marked for deletion are not
   *     capacity, but their claims still count against NodePool limits
   * @param daemonSets DaemonSets whose pods will land on in-flight nodes
   */
  public ProvisioningPlan solve(List<Pod> pods, List<StateNode> nodes, List<Workload.DaemonSet> daemonSets,
      OfferingAvailability offerings, Instant now) {
    return solveWithout(pods, nodes, Set.of(), daemonSets, offerings, now);
  }

  /**
   * As {@link #solve} over the nodes not named in {@code leaving}. Consolidation asks this once for
   * each candidate over the same nodes: the nodes' order and offers are worked out once for them all
   * ({@link RoundNodes}), kept while the nodes are the same objects.
   */
  public ProvisioningPlan solveWithout(List<Pod> pods, List<StateNode> nodes, Set<String> leaving,
      List<Workload.DaemonSet> daemonSets, OfferingAvailability offerings, Instant now) {
    return new ProvisioningRound(model, fleet(nodes, daemonSets), leaving, offerings, now, true, null).run(pods);
  }

  /**
   * As {@link #solveWithout} over {@code shared} followed by {@code own}, the new claims planned only when
   * asked. Consolidation simulates each candidate with the same shared pods (pending, and those of nodes
   * being deleted) and its own: given the same list object, the shared pods are put in queue order once,
   * and each round's queue is that order merged with its own pods' (a stable sort of the two lists one
   * after the other gives the same). The rounds over the same offerings and time keep the new claims'
   * first answers ({@link FirstClaims}); the provisioning rounds of {@link #solve}, each at its own time,
   * would only fill and empty that memo.
   */
  public SimulatedRound simulateWithout(List<Pod> shared, List<Pod> own, List<StateNode> nodes, Set<String> leaving,
      List<Workload.DaemonSet> daemonSets, OfferingAvailability offerings, Instant now) {
    return simulateWithout(shared, own, nodes, leaving, daemonSets, offerings, now, null, null, true,
        Integer.MAX_VALUE);
  }

  /**
   * As above, the round stopped as soon as every pod of {@code own} and {@code mustPlace} is placed and
   * one of {@code own} is on a node {@code unreliable} names ({@link SimulatedRound#settled}); with
   * {@code unreliable} null, never. A caller that reads only whether it refuses, not why ({@code reasonRead}
   * false), has the round stop sooner: once one of {@code own} is on such a node, or once the round has
   * planned {@code claimLimit} new claims, a number the caller refuses ({@code ProvisioningRound.Settled}).
   */
  public SimulatedRound simulateWithout(List<Pod> shared, List<Pod> own, List<StateNode> nodes, Set<String> leaving,
      List<Workload.DaemonSet> daemonSets, OfferingAvailability offerings, Instant now, List<Pod> mustPlace,
      Predicate<String> unreliable, boolean reasonRead, int claimLimit) {
    RoundNodes f = fleet(nodes, daemonSets);
    if (f != orderFleet) { // the queue's order reads the fleet's requests: made once per fleet
      order = queueComparator(f::request);
      orderFleet = f;
    }
    if (shared != lastShared) {
      sharedQueue = queueOrder(shared, f::request);
      lastShared = shared;
    }
    List<Pod> ownQueue = queueOrder(own, f::request);
    List<Pod> queue = merge(sharedQueue, ownQueue, order);
    ProvisioningRound round = new ProvisioningRound(model, f, leaving, offerings, now, true, firsts);
    ProvisioningRound.Settled settled = unreliable == null ? null
        : new ProvisioningRound.Settled(mustPlace, own, unreliable, reasonRead, claimLimit);
    if (sharePrefix && prefixable && !sharedQueue.isEmpty()) {
      if (prefix == null || !prefix.madeFor(f, sharedQueue, offerings, now)) {
        prefix = new SharedPrefix(model, f, sharedQueue, offerings, now, firsts);
      }
      int n = prefix.length(round, leaving, own, sharedBefore(queue, 0, sharedQueue.size()));
      if (n > 0) {
        resumed++;
        resumedPods += n;
        // The shared pods after the round's own last one: the tail, counted where it can be (SharedPrefix).
        int tailAt = sharedBefore(queue, ownQueue.size() - 1, sharedQueue.size());
        int counted = prefix.tailsCounted;
        SimulatedRound out = prefix.resume(round, n, queue, own, settled, tailAt);
        tailsCounted += prefix.tailsCounted - counted;
        return out;
      }
    }
    return round.simulate(queue, settled);
  }

  /** The nodes' round order and offers for these nodes and DaemonSets, kept while they are the same. */
  private RoundNodes fleet(List<StateNode> nodes, List<Workload.DaemonSet> daemonSets) {
    if (!sameObjects(daemonSets, lastDaemonSets)) {
      counted = model.dra().countedDaemons(daemonSets);
      lastDaemonSets = List.copyOf(daemonSets);
    }
    if (fleet == null || !fleet.madeFor(nodes, counted)) {
      fleet = RoundNodes.next(model, nodes, counted, bases, fleet);
    }
    return fleet;
  }

  /**
   * How many of the first list's pods {@code merged} ({@link #merge}'s answer, the first list holding
   * {@code firstSize}) puts before the second's {@code j}th: read off the merge, which placed each; all of
   * them when the second is empty.
   */
  static int sharedBefore(List<Pod> merged, int j, int firstSize) {
    return merged instanceof Merged m ? m.at[j] - j : firstSize;
  }

  /**
   * The first index from {@code lo} of sorted {@code first} whose pod {@code p} comes strictly before
   * ({@code first.size()} if none): the pods from {@code lo} it does not come before are a leading run.
   */
  private static int after(List<Pod> first, int lo, Pod p, Comparator<Pod> order) {
    int hi = first.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (order.compare(p, first.get(mid)) < 0) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  /**
   * Two sorted lists as one, {@code first}'s before {@code second}'s where the order ties them: each of
   * {@code second}'s pods goes before the first of {@code first}'s it comes strictly before, found by
   * bisection (a walk of both lists would compare every pod of the long shared list per round). A view
   * of the two: a copy would cost each round the long shared list again.
   */
  static List<Pod> merge(List<Pod> first, List<Pod> second, Comparator<Pod> order) {
    if (second.isEmpty()) {
      return first;
    }
    int[] at = new int[second.size()];
    int i = 0;
    for (int j = 0; j < at.length; j++) {
      i = after(first, i, second.get(j), order);
      at[j] = i + j;
    }
    return new Merged(first, second, at);
  }

  /** {@code first} with each pod of {@code second} at its index of {@code at} (ascending). */
  private static final class Merged extends AbstractList<Pod> implements RandomAccess {
    private final List<Pod> first;
    private final List<Pod> second;
    private final int[] at;

    Merged(List<Pod> first, List<Pod> second, int[] at) {
      this.first = first;
      this.second = second;
      this.at = at;
    }

    @Override
    public Pod get(int index) {
      Objects.checkIndex(index, size());
      int j = Arrays.binarySearch(at, index);
      return j >= 0 ? second.get(j) : first.get(index + j + 1); // -j - 1 of second's pods stand before
    }

    @Override
    public int size() {
      return first.size() + second.size();
    }
  }

  /**
   * Which pods a round over {@code daemonSets} might place on {@code node}: a necessary condition,
   * the node's room for one more pod as the round starts ({@link ExistingNode#base}), as
   * {@link RoundNodes#hosts} first asks it. False means no round places the pod there, since a node's
   * room only shrinks within a round; taints and selectors are not asked (only weaker). A node marked
   * for deletion takes none: it is no capacity. Consolidation uses it to tell that a changed node
   * cannot have changed a candidate's simulation.
   */
  public Predicate<Pod> mayTake(StateNode node, List<Workload.DaemonSet> daemonSets) {
    if (node.markedForDeletion()) {
      return p -> false;
    }
    List<Workload.DaemonSet> daemons = sameObjects(daemonSets, lastDaemonSets) ? counted
        : model.dra().countedDaemons(daemonSets);
    Function<PodSpec, ResourceVector> requests = fleet != null ? fleet::request
        : spec -> ResourceVector.of(PodRequests.of(spec));
    ExistingNode.Base b = ExistingNode.base(node, RoundNodes.allocatable(model, node), daemons, requests);
    if (b.freePods() < 1) {
      return p -> false;
    }
    return p -> Fit.fits(requests.apply(p.spec()), 1, b.free(), b.freePods());
  }

  /**
   * Whether the two lists hold the same objects in the same order ({@code b} null: no). Memos over
   * immutable values (state nodes, pods, DaemonSets) use it to tell that their inputs are unchanged.
   */
  public static boolean sameObjects(List<?> a, List<?> b) {
    if (b == null) {
      return false;
    }
    if (a == b) {
      return true; // one list holds its own objects: a view's immutable lists are passed on as they are
    }
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (a.get(i) != b.get(i)) {
        return false;
      }
    }
    return true;
  }

  /** Largest CPU request first, then memory; ties keep the given order (reference §1.4 queue.go). */
  /**
   * The pods in {@link #queueComparator}'s order, ties as given: each pod's request is read once, not
   * at each of the sort's comparisons (a map lookup each, and multi-node consolidation sorts the pods of
   * every prefix it tries). Both sorts are stable over the same keys, so the order is the same.
   */
  static List<Pod> queueOrder(List<Pod> pods, Function<PodSpec, ResourceVector> requests) {
    List<Pod> sorted = new ArrayList<>(pods);
    if (sorted.size() > 1) { // a candidate's one pod: in order already
      Keyed[] keyed = new Keyed[sorted.size()];
      for (int i = 0; i < keyed.length; i++) {
        Pod p = sorted.get(i);
        ResourceVector r = requests.apply(p.spec());
        keyed[i] = new Keyed(p, r.milliCpu(), r.memory());
      }
      Arrays.sort(keyed, Keyed.ORDER);
      for (int i = 0; i < keyed.length; i++) {
        sorted.set(i, keyed[i].pod());
      }
    }
    return sorted;
  }

  /** A pod with the two requests {@link #queueComparator} orders by: larger CPU first, then larger memory. */
  private record Keyed(Pod pod, long milliCpu, long memory) {
    static final Comparator<Keyed> ORDER = (a, b) -> a.milliCpu != b.milliCpu ? Long.compare(b.milliCpu, a.milliCpu)
        : Long.compare(b.memory, a.memory);
  }

  static Comparator<Pod> queueComparator(Function<PodSpec, ResourceVector> requests) {
    return Comparator.<Pod>comparingLong(p -> requests.apply(p.spec()).milliCpu()).reversed()
        .thenComparing(Comparator.<Pod>comparingLong(p -> requests.apply(p.spec()).memory()).reversed());
  }

  /** The first NoSchedule/NoExecute taint the pod does not tolerate, or null. */
  static Taint untolerated(List<Taint> taints, Pod pod) {
    return Tolerations.firstUntoleratedBlocking(taints, pod.spec().tolerations()).orElse(null);
  }
}
