package io.gpufleet.engine.scheduler;

import io.gpufleet.engine.scheduler.plugin.FilterPlugin;
import io.gpufleet.engine.scheduler.plugin.NodePorts;
import io.gpufleet.engine.scheduler.plugin.ScorePlugin;
import io.gpufleet.model.affinity.NodeAffinity;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.pod.ContainerPort;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.taint.Toleration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Node-local filter verdicts kept across scheduling cycles, as kube-scheduler's old equivalence
 * cache kept predicate results per equivalence class of pods: for each class (what the node-local
 * plugins read of a pod: {@link Key}), each node's first
 * failing node-local filter ({@link FilterPlugin#nodeLocal}) and, once a cycle needed it, that
 * filter's status, valid while the node's {@link NodeInfo} is the same object (images are
 * immutable: a bind, an unbind or a node change makes a new NodeInfo for that node only). A cycle
 * then decides only the nodes that changed since the spec's last cycle; the others are read from
 * the memo, in the same order and with the same answers, so the cycle evaluates the same nodes.
 *
 * <p>Used only in cycles whose active filters are all node-local (a cycle with PodTopologySpread,
 * InterPodAffinity or DynamicResources filtering runs as without a memo). Mutable and owned by one
 * caller (kube-scheduler's loop); no output depends on what it holds, only on the verdicts, which
 * are those a fresh cycle computes ({@code FilterMemoTest}).
 */
public final class FilterMemo {

  /** Classes of pods remembered, least recently used dropped first: a run's pending classes are few at a time. */
  private static final int SPECS = 64;

  /** The profile's node-local filters and scorers the verdicts and scores are numbered by; others clear the memo. */
  private List<FilterPlugin> filters = List.of();
  private List<ScorePlugin> scorers = List.of();
  private final LinkedHashMap<Key, Verdicts> bySpec = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Key, Verdicts> eldest) {
      return size() > SPECS;
    }
  };
  /**
   * The verdicts found for each spec object asked for: a workload's pods share their template's
   * spec, and hashing a spec (every container) costs more than the lookup. Never iterated; emptied
   * when {@link #bySpec} drops a spec, so it holds no verdicts besides those (each a few arrays as
   * long as the fleet), and when large.
   */
  private final IdentityHashMap<PodSpec, Verdicts> byObject = new IdentityHashMap<>();
  private static final int OBJECTS = 4096;

  /**
   * What the node-local plugins read of a pod, the class of pods that share verdicts: NodeResourcesFit
   * and NodeResourcesBalancedAllocation its requests and non-zero cpu and memory, TaintToleration and
   * NodeUnschedulable its tolerations, NodeName its node name, NodeAffinity its node selector and
   * affinity, NodePorts its host ports. Much cheaper to hash and compare than the whole spec, which
   * pods read from a dump do not share.
   */
  private record Key(ResourceVector requests, long nonZeroMilliCpu, long nonZeroMemory, List<Toleration> tolerations,
      Optional<String> nodeName, Labels nodeSelector, NodeAffinity nodeAffinity, List<ContainerPort> hostPorts) {
    static Key of(PodInfo pod) {
      PodSpec spec = pod.pod().spec();
      return new Key(pod.requests(), pod.nonZeroMilliCpu(), pod.nonZeroMemory(), spec.tolerations(), spec.nodeName(),
          spec.nodeSelector(), spec.nodeAffinity(), NodePorts.asksHostPorts(spec) ? spec.hostPorts() : List.of());
    }
  }

  /**
   * The verdicts of {@code pod}'s class under {@code nodeLocal} and {@code localScorers}, the
   * profile's node-local filters and scorers in order.
   */
  Verdicts of(List<FilterPlugin> nodeLocal, List<ScorePlugin> localScorers, PodInfo pod) {
    PodSpec spec = pod.pod().spec();
    if (!same(nodeLocal, filters) || !same(localScorers, scorers)) {
      filters = nodeLocal;
      scorers = localScorers;
      bySpec.clear();
      byObject.clear();
    }
    Verdicts known = byObject.get(spec);
    if (known != null) {
      return known;
    }
    Key key = Key.of(pod);
    Verdicts v = bySpec.get(key);
    if (v == null) {
      if (bySpec.size() >= SPECS) {
        byObject.clear();
      }
      v = new Verdicts(scorers.size());
      bySpec.put(key, v);
    }
    if (byObject.size() >= OBJECTS) {
      byObject.clear();
    }
    byObject.put(spec, v);
    return v;
  }

  /** The same plugin objects in the same order. */
  private static boolean same(List<?> a, List<?> b) {
    if (a == b) {
      return true;
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

  /** One spec's verdicts, by node slot ({@link ClusterSnapshot#slot}). */
  static final class Verdicts {
    /** PASSED, or the number (among the profile's node-local filters) of the first that rejects the node. */
    static final int PASSED = -1;

    private NodeInfo[] seen = new NodeInfo[0];
    private int[] verdict = new int[0];
    private Status[] status = new Status[0];
    /** Raw scores by node-local scorer number and slot, valid where the slot's bit of that number is set. */
    private final long[][] scores;
    private int[] scored = new int[0];
    /** Equal statuses made into one object, so a FitError's count tallies them by identity. */
    private final Map<Status, Status> canonical = new HashMap<>();
    /**
     * The image on which every node last failed this class, with no PreFilter narrowing, and the
     * error the cycle made of it before PostFilter: the same image gives the same verdicts and
     * statuses, so the same error (on the large week most failing cycles follow one of their class
     * on an image no bind has changed since).
     */
    private ClusterSnapshot failedOn;
    private FitError failure;
    /**
     * For each chunk of node positions ({@link ChunkedArray#SIZE} each), the chunk of NodeInfos its mask
     * of passing nodes was taken from ({@link ClusterSnapshot#nodeChunk}): a chunk still the same object
     * holds the same nodes at the same positions, so its mask stands without reading them.
     */
    private Object[] maskedChunk = new Object[0];
    private long[] passMask = new long[0];

    Verdicts(int scorers) {
      if (scorers > Integer.SIZE) {
        throw new IllegalArgumentException(scorers + " node-local scorers; at most " + Integer.SIZE);
      }
      scores = new long[scorers][0];
    }

    /** Room for every slot of {@code snapshot}. */
    void cover(ClusterSnapshot snapshot) {
      int bound = snapshot.slotBound();
      if (seen.length < bound) {
        int size = Math.max(bound, seen.length * 2);
        seen = Arrays.copyOf(seen, size);
        verdict = Arrays.copyOf(verdict, size);
        status = Arrays.copyOf(status, size);
        scored = Arrays.copyOf(scored, size);
        for (int q = 0; q < scores.length; q++) {
          scores[q] = Arrays.copyOf(scores[q], size);
        }
      }
    }

    /** Whether node {@code i}'s verdict is known: its NodeInfo is the one it was decided on. */
    boolean known(ClusterSnapshot snapshot, int i) {
      return seen[snapshot.slot(i)] == snapshot.get(i);
    }

    /** Node {@code i}'s verdict; only where {@link #known}. */
    int verdict(ClusterSnapshot snapshot, int i) {
      return verdict[snapshot.slot(i)];
    }

    void decided(ClusterSnapshot snapshot, int i, int filter) {
      int s = snapshot.slot(i);
      seen[s] = snapshot.get(i);
      verdict[s] = filter;
      status[s] = null;
      scored[s] = 0;
    }

    /**
     * The raw scores of scorer {@code scorer} (the cycle's {@code plugin}, node-local scorer number
     * {@code number}) for the feasible nodes {@code nodes[0..count)}, all decided this cycle: kept
     * ones read, the others scored by the plugin in one batch and kept.
     */
    void scoreAll(int number, ScorePlugin plugin, PodInfo pod, ClusterSnapshot snapshot, int[] nodes, int count,
        long[] out) {
      long[] kept = scores[number];
      int bit = 1 << number;
      int[] missed = null;
      int[] at = null;
      int m = 0;
      for (int j = 0; j < count; j++) {
        int s = snapshot.slot(nodes[j]);
        if ((scored[s] & bit) != 0) {
          out[j] = kept[s];
        } else {
          if (missed == null) {
            missed = new int[count - j];
            at = new int[count - j];
          }
          missed[m] = nodes[j];
          at[m++] = j;
        }
      }
      if (m == 0) {
        return;
      }
      long[] made = new long[m];
      plugin.scoreAll(pod, snapshot, missed, m, made);
      for (int k = 0; k < m; k++) {
        int s = snapshot.slot(missed[k]);
        kept[s] = made[k];
        scored[s] |= bit;
        out[at[k]] = made[k];
      }
    }

    /** Room for {@code chunks} chunk masks. */
    void coverChunks(int chunks) {
      if (maskedChunk.length < chunks) {
        maskedChunk = Arrays.copyOf(maskedChunk, Math.max(chunks, maskedChunk.length * 2));
        passMask = Arrays.copyOf(passMask, maskedChunk.length);
      }
    }

    /** Whether chunk {@code c}'s mask was taken from {@code snapshot}'s chunk {@code c}, the same object. */
    boolean masked(ClusterSnapshot snapshot, int c) {
      return maskedChunk[c] == snapshot.nodeChunk(c);
    }

    /** Chunk {@code c}'s passing nodes, bit {@code i & MASK} for position {@code i}, every one of them decided. */
    void mask(ClusterSnapshot snapshot, int c, long passing) {
      maskedChunk[c] = snapshot.nodeChunk(c);
      passMask[c] = passing;
    }

    /** Chunk {@code c}'s mask, where {@link #masked}; else that of {@link #maskedChunk}. */
    long passing(int c) {
      return passMask[c];
    }

    /** The chunk of NodeInfos chunk {@code c}'s mask was last taken from, or null if none was. */
    Object maskedChunk(int c) {
      return maskedChunk[c];
    }

    /** The error every node gave this class on {@code snapshot} (that very image), null if none is kept. */
    FitError failure(ClusterSnapshot snapshot) {
      return snapshot == failedOn ? failure : null;
    }

    void failed(ClusterSnapshot snapshot, FitError error) {
      failedOn = snapshot;
      failure = error;
    }

    /** Node {@code i}'s status from its first failing filter, null until {@link #explained}. */
    Status status(ClusterSnapshot snapshot, int i) {
      return status[snapshot.slot(i)];
    }

    void explained(ClusterSnapshot snapshot, int i, Status s) {
      Status one = canonical.get(s);
      if (one == null) {
        if (canonical.size() > 1024) {
          canonical.clear();
        }
        canonical.put(s, s);
        one = s;
      }
      status[snapshot.slot(i)] = one;
    }
  }
}
