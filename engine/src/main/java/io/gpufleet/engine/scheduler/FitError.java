package io.gpufleet.engine.scheduler;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * Why no node passed: how many nodes failed with each reason ({@code reasonCounts}), each evaluated
 * node's failing status while the scheduling cycle needs it ({@code nodeStatuses}), the status shared
 * by the nodes a PreFilter plugin left out ({@code absentStatus}), and the messages of PreFilter and
 * PostFilter. {@link #message()} is kube-scheduler's FailedScheduling text
 * ({@code pkg/scheduler/framework/types.go}, {@code FitError.Error}):
 * {@code 0/N nodes are available: <PreFilterMsg>.} when a PreFilter plugin rejected the pod, else
 * the reasons counted over nodes, {@code "<count> <reason>"} sorted as strings and joined, then the
 * PostFilter message, e.g.
 * {@code 0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient nvidia.com/gpu.}
 *
 * <p>The message needs only the counts; the per-node statuses are dropped once the cycle's
 * PostFilter has read them ({@link #withoutNodeStatuses()}), so a Pending pod holds a few counts
 * instead of one status per node of the fleet.
 */
public record FitError(int numAllNodes, Map<String, Status> nodeStatuses, Map<String, Integer> reasonCounts,
    Optional<Status> absentStatus, String preFilterMessage, String postFilterMessage) {

  /** kube-scheduler's {@code ErrNoNodesAvailable}. */
  public static final String NO_NODES = "no nodes available to schedule pods";

  public FitError {
    // The scheduler's own view over its per-cycle array is immutable already; any other map is copied.
    nodeStatuses = nodeStatuses instanceof IndexedStatuses ? nodeStatuses
        : Collections.unmodifiableMap(new TreeMap<>(nodeStatuses));
    reasonCounts = Collections.unmodifiableMap(new TreeMap<>(reasonCounts));
    absentStatus = absentStatus == null ? Optional.empty() : absentStatus;
    preFilterMessage = preFilterMessage == null ? "" : preFilterMessage;
    postFilterMessage = postFilterMessage == null ? "" : postFilterMessage;
  }

  /** The counts taken from the nodes' statuses, and from {@code absentStatus} for the nodes not among them. */
  public FitError(int numAllNodes, Map<String, Status> nodeStatuses, Optional<Status> absentStatus,
      String preFilterMessage, String postFilterMessage) {
    this(numAllNodes, nodeStatuses, count(numAllNodes, nodeStatuses.values(), nodeStatuses.size(), absentStatus),
        absentStatus, preFilterMessage, postFilterMessage);
  }

  /** Every node evaluated by the filters, none left out by a PreFilter plugin. */
  public FitError(int numAllNodes, Map<String, Status> nodeStatuses, String postFilterMessage) {
    this(numAllNodes, nodeStatuses, Optional.empty(), "", postFilterMessage);
  }

  /** Only the counts: {@code reasonCounts} already covers every node. */
  public static FitError ofCounts(int numAllNodes, Map<String, Integer> reasonCounts, String postFilterMessage) {
    return new FitError(numAllNodes, Map.of(), reasonCounts, Optional.empty(), "", postFilterMessage);
  }

  /**
   * The statuses of the nodes a cycle evaluated, {@code failures[i]} for snapshot node {@code i}
   * (null for nodes not evaluated), without copying them into a map keyed by name.
   */
  static FitError ofCycle(ClusterSnapshot snapshot, Status[] failures, int evaluatedFailures,
      Optional<Status> absentStatus) {
    IndexedStatuses statuses = new IndexedStatuses(snapshot, failures, evaluatedFailures);
    return new FitError(snapshot.size(),
        statuses, count(snapshot.size(), statuses.statuses(), evaluatedFailures, absentStatus),
        absentStatus, "", "");
  }

  private static Map<String, Integer> count(int numAllNodes, Iterable<Status> statuses, int evaluated,
      Optional<Status> absentStatus) {
    Map<String, Integer> h = new TreeMap<>();
    // Nodes that fail alike often share one status object (a plugin's rejections), though seldom in
    // runs where the kinds of node alternate: the first few distinct statuses are tallied by identity
    // and each one's reasons counted once with its tally, not node by node; any further status is
    // counted as it comes. The sums are the same. A null status counts nothing.
    Status[] distinct = new Status[DISTINCT_TALLIED];
    int[] tally = new int[DISTINCT_TALLIED];
    int kinds = 0;
    Status last = null;
    int lastAt = -1;
    for (Status s : statuses) {
      if (s == null) {
        continue;
      }
      if (s != last) {
        int k = 0;
        while (k < kinds && distinct[k] != s) {
          k++;
        }
        if (k == kinds && kinds < DISTINCT_TALLIED) {
          distinct[kinds++] = s;
        }
        last = s;
        lastAt = k < kinds ? k : -1;
      }
      if (lastAt < 0) {
        add(h, s, 1);
      } else {
        tally[lastAt]++;
      }
    }
    for (int k = 0; k < kinds; k++) {
      add(h, distinct[k], tally[k]);
    }
    int absent = numAllNodes - evaluated;
    if (absent > 0 && absentStatus != null && absentStatus.isPresent()) {
      for (String r : absentStatus.get().reasons()) {
        h.merge(r, absent, Integer::sum);
      }
    }
    return h;
  }

  /** How many distinct statuses {@link #count} tallies by identity before counting the rest one by one. */
  private static final int DISTINCT_TALLIED = 16;

  private static void add(Map<String, Integer> counts, Status status, int nodes) {
    if (status != null) {
      for (String r : status.reasons()) {
        counts.merge(r, nodes, Integer::sum);
      }
    }
  }

  /** How many nodes failed with each reason; a node with two shortfalls counts under both. */
  public Map<String, Integer> histogram() {
    return reasonCounts;
  }

  /**
   * The status of one node: its own, or the one shared by the nodes PreFilter left out. Only while
   * the per-node statuses are kept (the scheduling cycle, or {@code --explain}).
   */
  public Optional<Status> statusOf(String node) {
    Status s = nodeStatuses.get(node);
    return s != null ? Optional.of(s) : absentStatus;
  }

  /**
   * The status of the snapshot's node {@code i}, as {@link #statusOf(String)}: by index, without a
   * lookup by name, when the statuses were taken on this very snapshot (PostFilter's case).
   */
  public Optional<Status> statusOf(ClusterSnapshot snapshot, int i) {
    if (nodeStatuses instanceof IndexedStatuses x && x.snapshot == snapshot) {
      Status s = x.failures[i];
      return s != null ? Optional.of(s) : absentStatus;
    }
    return statusOf(snapshot.get(i).name());
  }

  /**
   * How many of the snapshot's nodes have a status ({@link #statusOf(ClusterSnapshot, int)}) with
   * {@code code}: counted once per cycle's statuses taken on this snapshot, and kept with them (an
   * error a memo serves again is asked again by PostFilter).
   */
  public int nodesWith(ClusterSnapshot snapshot, Status.Code code) {
    if (nodeStatuses instanceof IndexedStatuses x && x.snapshot == snapshot) {
      return x.nodesWith(code, absentStatus);
    }
    return count(snapshot, code);
  }

  private int count(ClusterSnapshot snapshot, Status.Code code) {
    int n = 0;
    for (int i = 0; i < snapshot.size(); i++) {
      Status s = statusOf(snapshot, i).orElse(null);
      if (s != null && s.code() == code) {
        n++;
      }
    }
    return n;
  }

  /** The same error holding only its counts and messages: what a Pending pod keeps. */
  public FitError withoutNodeStatuses() {
    return nodeStatuses.isEmpty() ? this
        : new FitError(numAllNodes, Map.of(), reasonCounts, absentStatus, preFilterMessage, postFilterMessage);
  }

  public String message() {
    if (numAllNodes == 0) {
      return NO_NODES;
    }
    StringBuilder b = new StringBuilder("0/").append(numAllNodes).append(" nodes are available:");
    if (!preFilterMessage.isEmpty()) {
      // The PreFilter status is every node's; it is not repeated per node.
      b.append(' ').append(preFilterMessage).append('.');
    } else {
      List<String> entries = new ArrayList<>();
      reasonCounts.forEach((reason, count) -> entries.add(count + " " + reason));
      entries.sort(null);
      if (!entries.isEmpty()) {
        b.append(' ').append(String.join(", ", entries)).append('.');
      }
    }
    if (!postFilterMessage.isEmpty()) {
      // Upstream appends " %v": the PostFilter message brings its own full stop.
      b.append(' ').append(postFilterMessage);
    }
    return b.toString();
  }

  public FitError withPostFilterMessage(String message) {
    return new FitError(numAllNodes, nodeStatuses, reasonCounts, absentStatus, preFilterMessage, message);
  }

  @Override
  public String toString() {
    return message();
  }

  /**
   * A read-only map view of one cycle's per-node failures, indexed as the snapshot is: no entry per
   * node is copied, so an unschedulable pod on a large fleet costs one array, not a sorted map.
   * Iterates in snapshot order.
   */
  private static final class IndexedStatuses extends AbstractMap<String, Status> {
    private final ClusterSnapshot snapshot;
    private final Status[] failures;
    private final int size;
    /** {@link #nodesWith} by code's ordinal, -1 until counted, with the absent status they were counted with. */
    private final int[] withCode = new int[Status.Code.values().length];
    private Optional<Status> countedWith;

    IndexedStatuses(ClusterSnapshot snapshot, Status[] failures, int size) {
      this.snapshot = snapshot;
      this.failures = failures;
      this.size = size;
    }

    /** How many nodes have a status with {@code code}: their own, or {@code absent} for those not evaluated. */
    int nodesWith(Status.Code code, Optional<Status> absent) {
      synchronized (withCode) {
        if (countedWith != absent) {
          Arrays.fill(withCode, -1);
          countedWith = absent;
        }
        if (withCode[code.ordinal()] < 0) {
          Status other = absent.orElse(null);
          int n = 0;
          for (Status s : failures) {
            Status status = s != null ? s : other;
            if (status != null && status.code() == code) {
              n++;
            }
          }
          withCode[code.ordinal()] = n;
        }
        return withCode[code.ordinal()];
      }
    }

    /** One entry per snapshot node, in snapshot order: null for a node not evaluated (counting skips it). */
    List<Status> statuses() {
      return Arrays.asList(failures);
    }

    @Override
    public Status get(Object key) {
      if (!(key instanceof String name)) {
        return null;
      }
      int i = snapshot.position(name);
      return i < 0 ? null : failures[i];
    }

    @Override
    public boolean containsKey(Object key) {
      return get(key) != null;
    }

    @Override
    public int size() {
      return size;
    }

    @Override
    public Set<Map.Entry<String, Status>> entrySet() {
      return new AbstractSet<>() {
        @Override
        public Iterator<Map.Entry<String, Status>> iterator() {
          return IntStream.range(0, failures.length).filter(i -> failures[i] != null)
              .mapToObj(i -> Map.entry(snapshot.get(i).name(), failures[i])).iterator();
        }

        @Override
        public int size() {
          return size;
        }
      };
    }
  }
}
