package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.model.pod.Pod;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The start of the consolidation rounds of one poll, placed once for them all. Each candidate's round
 * ({@link Provisioner#simulateWithout}) places the same shared pods (pending, and those of nodes being
 * deleted), in the same queue order, over the same nodes less the candidates', before the first of its
 * own pods comes in the queue. A round over every node (the base) places those shared pods one by one
 * and notes which node each went to. Leaving a node out changes a pod's place only when the pod went
 * there: a pod that scanned past it, or never reached it, finds the same place without it. So a round
 * leaving out nodes that no pod of the base's first {@code n} went to, and whose own pods all come after
 * those {@code n}, places them as the base did: it starts from the base's state after them, a copy kept
 * and never changed again, which it reads under its own changes ({@link ProvisioningRound#layerOn}).
 * Rounds with DRA or NodePool limits read the nodes left out beyond their room, and start from nothing.
 * A shortcut of the twin's, not a step of Karpenter's: a round with it plans what a round without it
 * plans (SharedPrefixTest, FirstClaimsTest).
 */
final class SharedPrefix {
  private static final int NEVER = Integer.MAX_VALUE;

  private final ProvisioningModel model;
  private final RoundNodes fleet;
  private final List<Pod> queue;
  private final OfferingAvailability offerings;
  private final Instant now;
  private final FirstClaims firsts;
  /** The round over every node, its first pass through {@link #done} pods of the queue. */
  private final ProvisioningRound base;
  private int done;
  /** What {@link ProvisioningRound#step} said of each pod of the queue the base placed so far. */
  private int[] outcome;
  /** By position in the fleet's order: the queue index of the first pod the base placed there, or NEVER. */
  private final int[] firstOn;
  /** The base's state after a number of pods, as rounds that nothing changes once kept: rounds read them. */
  private final TreeMap<Integer, ProvisioningRound> states = new TreeMap<>();
  /** Whether no two pods of the queue share a key: a round's maps by key then tell each pod's place alone. */
  private final boolean distinctKeys;
  private Map<Pod, Integer> queueIndex;

  SharedPrefix(ProvisioningModel model, RoundNodes fleet, List<Pod> queue, OfferingAvailability offerings,
      Instant now, FirstClaims firsts) {
    this.model = model;
    this.fleet = fleet;
    this.queue = queue;
    this.offerings = offerings;
    this.now = now;
    this.firsts = firsts;
    this.base = fresh();
    this.outcome = new int[Math.min(queue.size(), 16)];
    this.firstOn = new int[fleet.entries().size()];
    Arrays.fill(firstOn, NEVER);
    Set<String> keys = new HashSet<>();
    boolean distinct = true;
    for (Pod p : queue) {
      distinct &= keys.add(p.key());
    }
    this.distinctKeys = distinct && base.adoptable();
  }

  /** Whether it is the start of rounds over these nodes, shared pods in queue order, offerings and time. */
  boolean madeFor(RoundNodes fleet, List<Pod> queue, OfferingAvailability offerings, Instant now) {
    return this.fleet == fleet && this.queue == queue && this.offerings == offerings && this.now.equals(now);
  }

  private ProvisioningRound fresh() {
    return new ProvisioningRound(model, fleet, Set.of(), offerings, now, true, firsts);
  }

  /**
   * How many of the queue's first pods {@code round} (over this fleet, leaving out {@code leaving}) would
   * place as the base does, its own pods ({@code own}, in queue order) coming into the queue after the
   * first {@code ownAt} shared ones: 0 when it cannot start from the base.
   */
  int length(ProvisioningRound round, Set<String> leaving, List<Pod> own, int ownAt) {
    if (!distinctKeys || !round.adoptable()) {
      return 0;
    }
    int[] gone = new int[0];
    for (String name : leaving) {
      int[] at = fleet.positionsOf(name);
      int[] both = Arrays.copyOf(gone, gone.length + at.length);
      System.arraycopy(at, 0, both, gone.length, at.length);
      gone = both;
    }
    int touched = firstOn(gone);
    while (done < ownAt && touched == NEVER) {
      int at = base.step(queue.get(done));
      if (done == outcome.length) {
        outcome = Arrays.copyOf(outcome, Math.max(16, outcome.length * 2));
      }
      outcome[done] = at;
      if (at >= 0 && firstOn[at] == NEVER) {
        firstOn[at] = done;
      }
      done++;
      touched = firstOn(gone);
    }
    int n = Math.min(ownAt, touched);
    for (int q = 0; q < n; q++) { // a pod both shared and its own is told to the round's Settled twice
      for (Pod p : own) {
        if (p == queue.get(q)) {
          return 0;
        }
      }
    }
    return n;
  }

  private int firstOn(int[] positions) {
    int first = NEVER;
    for (int i : positions) {
      first = Math.min(first, firstOn[i]);
    }
    return first;
  }

  /**
   * Starts {@code round} from the base's state after the first {@code n} pods of the queue ({@link #length}
   * said so) and runs it over {@code merged}, the queue with the round's own pods, from there.
   */
  SimulatedRound resume(ProvisioningRound round, int n, List<Pod> merged, ProvisioningRound.Settled settled) {
    round.layerOn(state(n));
    if (settled != null) {
      // What the first pass told Settled of the pods it placed, those Settled watches: it is told nothing
      // of the others, and none of the round's own are among these, so the order does not matter.
      for (Pod p : settled.watched()) {
        Integer q = queueIndex().get(p);
        if (q != null && q < n && outcome[q] != ProvisioningRound.NOT_PLACED
            && settled.placed(p, outcome[q] >= 0 ? fleet.entries().get(outcome[q]).node().name() : null)) {
          throw new IllegalStateException("a shared start settles no round: it holds none of the round's own pods");
        }
      }
    }
    return round.simulateFrom(merged, n, settled);
  }

  /** Each pod's index in the queue, made at the first ask (the keys are distinct, so are the pods). */
  private Map<Pod, Integer> queueIndex() {
    if (queueIndex == null) {
      queueIndex = new IdentityHashMap<>();
      for (int q = 0; q < queue.size(); q++) {
        queueIndex.put(queue.get(q), q);
      }
    }
    return queueIndex;
  }

  /** The base's state after the first {@code n} pods ({@code n <= done}), kept. */
  private ProvisioningRound state(int n) {
    ProvisioningRound s = states.get(n);
    if (s != null) {
      return s;
    }
    s = fresh();
    int from = 0;
    if (n == done) {
      s.adopt(base);
      from = n;
    } else {
      var floor = states.floorEntry(n);
      if (floor != null) {
        s.adopt(floor.getValue());
        from = floor.getKey();
      }
    }
    for (int q = from; q < n; q++) {
      s.step(queue.get(q));
    }
    s.keep();
    states.put(n, s);
    return s;
  }
}
