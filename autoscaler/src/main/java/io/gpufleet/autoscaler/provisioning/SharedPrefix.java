package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.requirement.Requirements;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
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
  /** For each pod of the queue the base placed on a claim, the claim's rank in the order claims were made; else -1. */
  private int[] claimRank;
  /** By claim rank: the queue index of the claim's first pod, then of each pod that joined it, in order. */
  private final List<int[]> claimPods = new ArrayList<>();
  private final Map<Integer, Integer> rankOfSequence = new HashMap<>();
  /** The first queue index from which the base placed every pod on a claim (so far, {@link #done}). */
  private int onClaimsFrom;
  /** Per claim rank, marks of the round {@link #tailCount} last asked about: the claims it holds alike. */
  private int[] alike = new int[0];
  private int[] touched = new int[0];
  private int asked;
  /** How many rounds ended at their tail with its claims counted: for tests. */
  int tailsCounted;
  /** By position in the fleet's order: the queue index of the first pod the base placed there, or NEVER. */
  private final int[] firstOn;
  /** The base's state after a number of pods, as rounds that nothing changes once kept: rounds read them. */
  private final TreeMap<Integer, ProvisioningRound> states = new TreeMap<>();
  /** Whether no two pods of the queue share a key: a round's maps by key then tell each pod's place alone. */
  private final boolean distinctKeys;
  /** The keys of the queue's pods. */
  private final Set<String> keys;
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
    this.claimRank = new int[outcome.length];
    this.firstOn = new int[fleet.entries().size()];
    Arrays.fill(firstOn, NEVER);
    Set<String> keys = new HashSet<>();
    boolean distinct = true;
    for (Pod p : queue) {
      distinct &= keys.add(p.key());
    }
    this.distinctKeys = distinct && base.adoptable();
    this.keys = keys;
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
    int first = firstOn(gone);
    while (done < ownAt && first == NEVER) {
      advance();
      first = firstOn(gone);
    }
    int n = Math.min(ownAt, first);
    for (Pod p : own) { // a pod both shared and its own is told to the round's Settled twice
      Integer q = queueIndex().get(p); // the queue's keys are distinct, so each pod stands in it once
      if (q != null && q < n) {
        return 0;
      }
    }
    return n;
  }

  /** The base places the next pod of the queue, and its place is noted. */
  private void advance() {
    int at = base.step(queue.get(done));
    if (done == outcome.length) {
      outcome = Arrays.copyOf(outcome, Math.max(16, outcome.length * 2));
      claimRank = Arrays.copyOf(claimRank, outcome.length);
    }
    outcome[done] = at;
    if (at >= 0 && firstOn[at] == NEVER) {
      firstOn[at] = done;
    }
    int rank = -1;
    if (at == ProvisioningRound.ON_CLAIM) {
      Integer r = rankOfSequence.putIfAbsent(base.claimedOn(), claimPods.size());
      if (r == null) {
        rank = claimPods.size();
        claimPods.add(new int[] {done});
      } else {
        rank = r;
        int[] was = claimPods.get(rank);
        int[] now = Arrays.copyOf(was, was.length + 1);
        now[was.length] = done;
        claimPods.set(rank, now);
      }
    } else {
      onClaimsFrom = done + 1;
    }
    claimRank[done] = rank;
    done++;
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
  SimulatedRound resume(ProvisioningRound round, int n, List<Pod> merged, List<Pod> own,
      ProvisioningRound.Settled settled, int tailAt) {
    round.layerOn(state(n));
    if (keysApart(own)) {
      round.keysOnce();
    }
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
    return round.simulateFrom(merged, n, settled, tail(round, n, tailAt, merged.size() - queue.size()));
  }

  /**
   * Whether {@code own}'s keys differ from each other and from the queue's: then no key comes twice in a
   * round's queue.
   */
  private boolean keysApart(List<Pod> own) {
    Set<String> seen = new HashSet<>();
    for (Pod p : own) {
      if (keys.contains(p.key()) || !seen.add(p.key())) {
        return false;
      }
    }
    return true;
  }

  /**
   * The pods after the round's own last one ({@code tailAt} shared pods come before them, {@code owned} of its
   * own), counted rather than placed where the base's place for each of them holds in the round too; null
   * when there are none.
   *
   * <p>The base placed every one of them on a claim. If, when the tail starts, every shared pod the base put
   * on a node is on the same node in the round, the round's nodes have no more room than the base's at that
   * point (the round lacks its candidates' nodes, and holds its own pods and those the base put on claims
   * besides), so they take none of these pods either. A claim the round holds with the same pods as one of
   * the base's (the same pods in the same order, which leave the same requirements, types and room) is the
   * base's claim; the round's others, where no tail pod goes ({@link ProvisioningRound#anyTakes}), are out of
   * the way: each tail pod then goes where it went in the base, to the same claim or to a new one alike, as
   * long as it went to a claim the round holds alike or to one made in the tail. Claims are tried fewest pods
   * first, then in the order they were made, which is the same for the claims both hold alike. So the round
   * plans its claims and those the base made in the tail, and the tail places nothing on a node and fails
   * no pod. Pods that fail elsewhere in the round fail whatever it holds (a new claim asks no room, and these
   * rounds have no NodePool limits), so they fail again when retried after the first pass and change nothing.
   * A shortcut of the twin's, not a step of Karpenter's (TailCountTest).
   */
  private ProvisioningRound.Tail tail(ProvisioningRound round, int n, int tailAt, int owned) {
    if (tailAt >= queue.size()) {
      return null;
    }
    return new ProvisioningRound.Tail() {
      @Override
      public int start() {
        return tailAt + owned;
      }

      @Override
      public ProvisioningRound.Tail.Counted count(ProvisioningRound r) {
        return tailCount(r, n, tailAt);
      }
    };
  }

  /** See {@link #tail}: the claims the round would plan, or null. */
  private ProvisioningRound.Tail.Counted tailCount(ProvisioningRound round, int n, int tailAt) {
    while (done < queue.size() && onClaimsFrom <= tailAt) {
      advance();
    }
    if (onClaimsFrom > tailAt) {
      return null; // the base put one of them on a node or on none
    }
    for (int q = n; q < tailAt; q++) {
      if (outcome[q] >= 0 && !fleet.entries().get(outcome[q]).node().name().equals(round.placedOn(queue.get(q).key()))) {
        return null;
      }
    }
    asked++;
    if (alike.length < claimPods.size()) {
      alike = Arrays.copyOf(alike, claimPods.size() * 2);
      touched = Arrays.copyOf(touched, alike.length);
    }
    // The claims of the start the round went on from are the base's first ones; those the base's pods
    // between the start and the tail did not join are alike still, where the round kept them unchanged.
    List<DraftClaim> claims = round.claimsInOrder();
    int started = state(n).claimsInOrder().size();
    for (int q = n; q < tailAt; q++) {
      if (claimRank[q] >= 0 && claimRank[q] < started) {
        touched[claimRank[q]] = asked;
      }
    }
    List<DraftClaim> others = new ArrayList<>();
    int firstRank = -1; // the base's claim the round's first is, or -1 when it is one of the round's others
    for (int i = 0; i < claims.size(); i++) {
      DraftClaim c = claims.get(i);
      int rank = i < started && c.kept() && touched[i] != asked ? i : rankOf(c, tailAt);
      if (rank >= 0) {
        alike[rank] = asked;
      } else {
        others.add(c);
      }
      if (i == 0) {
        firstRank = rank;
      }
    }
    int made = 0;
    int firstMade = -1;
    Map<PodSpec, Boolean> takenAside = new IdentityHashMap<>();
    for (int q = tailAt; q < queue.size(); q++) {
      int rank = claimRank[q];
      int[] pods = claimPods.get(rank);
      if (pods[0] == q) {
        firstMade = made++ == 0 ? rank : firstMade;
      } else if (pods[0] < tailAt && alike[rank] != asked) {
        return null; // it joined a claim the round does not hold alike
      }
      Pod p = queue.get(q);
      if (!others.isEmpty() && takenAside.computeIfAbsent(p.spec(), s -> round.anyTakes(others, p))) {
        return null;
      }
    }
    tailsCounted++;
    // The base's claims alike to the round's end as the round's would: the first's requirements are the base's.
    List<DraftClaim> ends = base.claimsInOrder();
    Requirements first = claims.isEmpty() ? (made == 0 ? null : ends.get(firstMade).requirements)
        : firstRank >= 0 ? ends.get(firstRank).requirements : claims.getFirst().requirements;
    return new ProvisioningRound.Tail.Counted(claims.size() + made, first);
  }

  /** The rank of the base's claim holding the same pods as {@code c} before queue index {@code tailAt}, or -1. */
  private int rankOf(DraftClaim c, int tailAt) {
    Integer q0 = c.pods.isEmpty() ? null : queueIndex().get(c.pods.getFirst());
    if (q0 == null || q0 >= tailAt || claimRank[q0] < 0) {
      return -1;
    }
    int[] pods = claimPods.get(claimRank[q0]);
    int j = 0;
    while (j < pods.length && pods[j] < tailAt) {
      j++;
    }
    if (j != c.pods.size()) {
      return -1;
    }
    for (int i = 0; i < j; i++) {
      if (queue.get(pods[i]) != c.pods.get(i)) {
        return -1;
      }
    }
    return claimRank[q0];
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
