package io.gpufleet.sim.controller;

import io.gpufleet.engine.workload.PodFactory;
import io.gpufleet.model.affinity.NodeSelectorTerm;
import io.gpufleet.model.collect.PMap;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.model.meta.OwnerReference;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.workload.JobSet;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.state.BySequence;
import io.gpufleet.sim.state.NodeState;
import io.gpufleet.sim.state.PodState;
import io.gpufleet.sim.state.WorkloadState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;

/**
 * The workload controllers: Deployments (replicas and rolling updates bounded by maxSurge and
 * maxUnavailable), ReplicaSets, StatefulSets (ordered, one at a time), Jobs (parallelism up to
 * completions; evicted pods are replaced) and DaemonSets (one pod per eligible node). Like the real
 * controllers they count only pods that are not being deleted, so an eviction gets its replacement
 * at once. Pods come from the engine's {@link PodFactory} with the run's seeded name stream.
 */
final class WorkloadControllers {

  private final ApiServer api;
  private final RandomGenerator names;
  /** Revision names by Deployment value. */
  private final Revisions revisions = new Revisions();

  private final JobGate gate;

  WorkloadControllers(ApiServer api, RandomGenerator names, JobGate gate) {
    this(api, names, gate, false);
  }

  WorkloadControllers(ApiServer api, RandomGenerator names, JobGate gate, boolean fullScans) {
    this.api = api;
    this.names = names;
    this.gate = gate;
    this.fullScans = fullScans;
  }

  /** The workload value and pod version each controller last acted on: the same inputs need nothing. */
  private final Map<ObjectRef, Object[]> seen = new HashMap<>();

  /** The workloads' keys in order, followed from image to image: the oracle's pass ({@link #fullScans}). */
  private final SortedKeys<ObjectRef, WorkloadState> workloadKeys = new SortedKeys<>();
  /**
   * Every sync goes over every workload's key, as before {@link #due}, and makes each new pod on its own,
   * as before batches went into the image at once: the oracle its tests compare with.
   */
  private final boolean fullScans;
  /**
   * The keys that may fail the check against {@link #seen} (their workload or its pod version moved
   * since, or never synced), in key order, and the DaemonSets, synced on every pass: a sync goes over
   * these, not every workload of the fleet, and finds the keys the full pass acts on, in its order.
   */
  private final TreeSet<ObjectRef> due = new TreeSet<>();
  private final Set<ObjectRef> daemonSets = new HashSet<>();
  /** The workloads as {@link #due} last took in their changes (null before the first sync). */
  private PMap<ObjectRef, WorkloadState> looked;

  void sync() {
    if (fullScans) {
      for (ObjectRef key : workloadKeys.of(api.state().workloads())) {
        sync(key);
      }
      return;
    }
    // The full pass goes over the keys at its start, in order, each synced when the check fails. A
    // key not due passes the check: its workload and version are those seen when it was last synced
    // or passed over. Changes a sync makes are taken in after it, so a key after it that they touch is
    // synced in this pass and one before it in the next, as in the full pass; a key that came during
    // the pass waits for the next one, which the full pass's list did not hold either.
    PMap<ObjectRef, WorkloadState> start = api.state().workloads();
    look(start);
    due.addAll(daemonSets);
    ObjectRef key = due.isEmpty() ? null : due.first();
    while (key != null) {
      if (start.containsKey(key)) {
        sync(key);
        due.remove(key);
      } else if (!api.state().workloads().containsKey(key)) {
        due.remove(key);
      }
      look(api.state().workloads());
      key = due.higher(key);
    }
  }

  /** Takes in the workloads that came, went or changed since last looked at, and the pod versions bumped. */
  private void look(PMap<ObjectRef, WorkloadState> now) {
    PMap.Change<ObjectRef, WorkloadState> changed = (k, was, w) -> {
      due.add(k);
      if (w != null && w.workload() instanceof Workload.DaemonSet) {
        daemonSets.add(k);
      } else {
        daemonSets.remove(k);
      }
    };
    if (looked == null) {
      now.forEach((k, w) -> changed.changed(k, null, w));
    } else {
      looked.diff(now, changed);
    }
    looked = now;
    api.drainBumpedWorkloads(due::add);
  }

  /** One workload's controller, unless it acted on the same workload value and pod version already. */
  private void sync(ObjectRef key) {
    WorkloadState w = api.state().workloads().get(key);
    if (w == null) {
      return;
    }
    Object[] inputs = {w, api.workloadVersion(key)};
    Object[] last = seen.get(key);
    if (!(w.workload() instanceof Workload.DaemonSet) && last != null && last[0] == inputs[0]
        && last[1].equals(inputs[1])) {
      return;
    }
    seen.put(key, inputs);
    switch (w.workload()) {
      case Workload.Deployment d -> deployment(key, d);
      case Workload.ReplicaSet r -> replicas(key, r, r.replicas());
      case Workload.StatefulSet s -> statefulSet(key, s);
      case Workload.Job j -> job(key, w, j);
      case Workload.DaemonSet ds -> daemonSet(key, ds);
    }
    // What this pass changed is the controller's own doing: record the state it leaves.
    WorkloadState after = api.state().workloads().get(key);
    if (after != null) {
      seen.put(key, new Object[] {after, api.workloadVersion(key)});
    }
  }

  /** The pods a controller counts: not being deleted and not Failed (kubelet-refused pods are replaced). */
  private List<PodState> active(ObjectRef key) {
    List<PodState> out = activeInAnyOrder(key);
    BySequence.sort(out);
    return out;
  }

  /** {@link #active}, in no particular order: for a caller to whom their order makes no difference. */
  private List<PodState> activeInAnyOrder(ObjectRef key) {
    List<PodState> out = api.state().podsOfInAnyOrder(key);
    out.removeIf(p -> p.isTerminating() || p.isFailed());
    return out;
  }

  private void create(ObjectRef key, Workload w, int ordinal) {
    create(key, w, ordinal, ordinal + 1, PodFactory.owner(w, revisions::of));
  }

  /**
   * The pods of ordinals {@code from} to {@code to - 1}, with the owner the caller made once. Where
   * nothing between two creations reads the pods made before (no gate places them beside their
   * siblings, and they name no resource claims, whose controller draws names from the same stream when
   * a pod is created), the batch is made first, each name drawn against the image and the batch, and
   * goes into the image at once ({@link ApiServer#createPods}).
   */
  private void create(ObjectRef key, Workload w, int from, int to, OwnerReference owner) {
    PodFactory.Mold mold = PodFactory.mold(w, owner);
    Optional<ObjectRef> workload = Optional.of(key);
    if (fullScans || to - from < 2 || gate.places(key) || !w.template().spec().resourceClaims().isEmpty()) {
      for (int i = from; i < to; i++) {
        api.createPod(gate.place(key, mold.pod(i, names, k -> api.state().pod(k).isPresent())), workload);
      }
      return;
    }
    List<Pod> pods = new ArrayList<>(to - from);
    Set<String> made = HashSet.newHashSet(to - from);
    PMap<String, PodState> before = api.state().pods();
    Predicate<String> taken = k -> made.contains(k) || before.containsKey(k);
    for (int i = from; i < to; i++) {
      Pod pod = mold.pod(i, names, taken);
      made.add(pod.key());
      pods.add(pod);
    }
    api.createPods(pods, workload);
  }

  /** Deletes the least useful pods first: pending, then not ready, then the newest. */
  private void scaleDown(List<PodState> pods, int count, String why) {
    List<PodState> order = new ArrayList<>(pods);
    order.sort(Comparator.comparingInt((PodState p) -> p.phase() == PodState.Phase.PENDING ? 0 : p.isReady() ? 2 : 1)
        .thenComparing(Comparator.comparingLong(PodState::sequence).reversed()));
    for (int i = 0; i < count && i < order.size(); i++) {
      api.deletePod(order.get(i).key(), RunRecord.Kind.POD_DELETED, why);
    }
  }

  private void replicas(ObjectRef key, Workload w, int replicas) {
    replicas(key, w, replicas, activeInAnyOrder(key));
  }

  /**
   * As {@link #replicas(ObjectRef, Workload, int)} with the controller's {@link #active} pods already
   * listed, in any order: only their number counts, and a scale-down orders them itself.
   */
  private void replicas(ObjectRef key, Workload w, int replicas, List<PodState> pods) {
    if (pods.size() < replicas) {
      create(key, w, pods.size(), replicas, PodFactory.owner(w, revisions::of));
    } else if (pods.size() > replicas) {
      scaleDown(pods, pods.size() - replicas, "scaled down");
    }
  }

  private void deployment(ObjectRef key, Workload.Deployment d) {
    String current = revisions.of(d);
    List<PodState> fresh = new ArrayList<>();
    List<PodState> old = new ArrayList<>();
    for (PodState p : activeInAnyOrder(key)) {
      (ofRevision(p, current) ? fresh : old).add(p);
    }
    // A rollout acts on its pods in creation order; with no old revision left only their number counts
    // (a 100,000-pod Deployment is synced at each of its pods' changes).
    if (!old.isEmpty() || d.strategy() == Workload.Deployment.Strategy.RECREATE) {
      BySequence.sort(fresh);
      BySequence.sort(old);
    }
    int replicas = d.replicas();
    if (d.strategy() == Workload.Deployment.Strategy.RECREATE) {
      recreate(key, d, current, fresh, old);
      return;
    }
    if (old.isEmpty()) {
      replicas(key, d, replicas, fresh);
      return;
    }
    int surge = d.maxSurge().resolve(replicas, true);
    int unavailable = d.maxUnavailable().resolve(replicas, false);
    if (surge == 0 && unavailable == 0) {
      unavailable = 1;
    }
    // New pods up to the replicas, and up to the surge above them counting the old ones.
    int total = fresh.size() + old.size();
    int adding = Math.max(0, Math.min(replicas - fresh.size(), replicas + surge - total));
    create(key, d, fresh.size(), fresh.size() + adding, new OwnerReference("ReplicaSet", current));
    int ready = 0;
    for (PodState p : fresh) {
      ready += p.isReady() ? 1 : 0;
    }
    for (PodState p : old) {
      ready += p.isReady() ? 1 : 0;
    }
    int minAvailable = replicas - unavailable;
    List<PodState> unready = old.stream().filter(p -> !p.isReady()).toList();
    List<PodState> readyOld = old.stream().filter(PodState::isReady).toList();
    for (PodState p : unready) {
      api.deletePod(p.key(), RunRecord.Kind.POD_DELETED, "rolling update");
    }
    int canRemove = Math.min(readyOld.size(), ready - minAvailable);
    for (int i = 0; i < canRemove; i++) {
      api.deletePod(readyOld.get(i).key(), RunRecord.Kind.POD_DELETED, "rolling update");
    }
  }

  /**
   * Recreate, as the deployment controller's rolloutRecreate does: the old revisions' pods are
   * deleted, and the new revision gets its pods only once no pod of an old revision is left but
   * Failed ones (oldPodsRunning: a terminating pod still runs; a Deployment's pods never succeed).
   */
  private void recreate(ObjectRef key, Workload.Deployment d, String current, List<PodState> fresh,
      List<PodState> old) {
    for (PodState p : old) {
      api.deletePod(p.key(), RunRecord.Kind.POD_DELETED, "recreate");
    }
    for (PodState p : api.state().podsOf(key)) {
      if (!ofRevision(p, current) && !p.isFailed()) {
        return;
      }
    }
    replicas(key, d, d.replicas(), fresh);
  }

  /** Whether the pod belongs to this revision's ReplicaSet (its owner reference names it). */
  private static boolean ofRevision(PodState p, String revision) {
    Optional<OwnerReference> owner = p.pod().meta().owner();
    return owner.isPresent() && owner.get().name().equals(revision);
  }

  private void statefulSet(ObjectRef key, Workload.StatefulSet s) {
    List<PodState> pods = active(key);
    Set<String> names = new HashSet<>();
    for (PodState p : pods) {
      names.add(p.pod().name());
    }
    for (int i = 0; i < s.replicas(); i++) {
      String name = s.name() + "-" + i;
      if (names.contains(name)) {
        Optional<PodState> p = pods.stream().filter(x -> x.pod().name().equals(name)).findFirst();
        if (p.isPresent() && !p.get().isReady()) {
          return; // OrderedReady: wait for this one
        }
        continue;
      }
      PodState old = api.state().pods().get(ObjectMeta.key(s.meta().namespace(), name));
      if (old != null && old.isFailed()) {
        // The StatefulSet controller deletes a Failed pod and creates its ordinal again.
        api.removePod(old.key(), RunRecord.Kind.POD_DELETED, "Failed; recreated by its StatefulSet");
      } else if (old != null) {
        return; // the old pod of this ordinal is still terminating
      }
      create(key, s, i);
      return;
    }
    List<PodState> extra = new ArrayList<>();
    for (PodState p : pods) {
      String n = p.pod().name();
      int ordinal = Integer.parseInt(n.substring(n.lastIndexOf('-') + 1));
      if (ordinal >= s.replicas()) {
        extra.add(p);
      }
    }
    for (PodState p : extra) {
      api.deletePod(p.key(), RunRecord.Kind.POD_DELETED, "scaled down");
    }
  }

  private void job(ObjectRef key, WorkloadState w, Workload.Job j) {
    List<PodState> pods = active(key);
    if (w.succeeded() >= j.completions() && api.state().podsOf(key).isEmpty()) {
      // A finished Job is deleted, as with ttlSecondsAfterFinished: 0, so a long run does not pile them up.
      api.removeWorkload(key);
      api.log(RunRecord.Kind.SCENARIO, key.toString(), "Job complete (" + w.succeeded() + " succeeded), deleted");
      gate.finished(key);
      j.meta().labels().get(JobSet.JOBSET_NAME).ifPresent(js -> jobSetCompleted(j.meta().namespace(), js));
      return;
    }
    if (gate.suspended(key)) {
      return; // the Job controller makes no pods for a suspended Job
    }
    int want = Math.min(j.parallelism(), j.completions() - w.succeeded() - pods.size());
    int missing = Math.min(want, j.parallelism() - pods.size());
    if (missing > 0) {
      // A Job's pods are not numbered: the ordinals are unused.
      create(key, j, 0, missing, PodFactory.owner(j, revisions::of));
    }
  }

  /**
   * A JobSet whose last child Job completed is Completed (successPolicy operator All, the webhook's default;
   * {@code AllJobsCompletedReason} and {@code AllJobsCompletedMessage} of kubernetes-sigs/jobset
   * pkg/constants). Its Jobs are all created at once, so none left means all completed; the twin's Jobs
   * do not fail, so neither does a JobSet.
   */
  private void jobSetCompleted(String namespace, String jobSet) {
    boolean left = api.state().workloads().values().stream().map(WorkloadState::workload)
        .anyMatch(o -> o.meta().namespace().equals(namespace)
            && o.meta().labels().get(JobSet.JOBSET_NAME).filter(jobSet::equals).isPresent());
    if (!left) {
      api.log(RunRecord.Kind.SCENARIO, new ObjectRef("JobSet", namespace, jobSet).toString(),
          "JobSet Completed: AllJobsCompleted: jobset completed successfully");
    }
  }

  void jobPodSucceeded(PodState p) {
    WorkloadState w = api.state().workloads().get(p.workload().get());
    if (w != null) {
      api.workloadStatus(w.withSucceeded(w.succeeded() + 1));
    }
  }

  /** What each DaemonSet was last reconciled against: the same nodes and pods need nothing new. */
  private final Map<ObjectRef, List<Object>> daemonSeen = new HashMap<>();

  private void daemonSet(ObjectRef key, Workload.DaemonSet ds) {
    List<Object> seen = Arrays.asList(ds, api.nodeShapeEpoch(), api.state().podsByWorkload().get(key));
    List<Object> last = daemonSeen.get(key);
    if (last != null && last.get(0) == seen.get(0) && last.get(1).equals(seen.get(1))
        && last.get(2) == seen.get(2)) {
      return;
    }
    daemonSeen.put(key, seen);
    Set<String> covered = new HashSet<>();
    // A daemon pod its kubelet refused still covers its node: made again, it would be refused again.
    for (PodState p : api.state().podsOf(key).stream().filter(p -> !p.isTerminating()).toList()) {
      // A daemon pod read from a cluster dump names its node; one the controller made here is pinned by affinity.
      Optional<String> pinned = p.pod().spec().nodeName().or(() -> pinnedNode(p.pod()));
      NodeState node = pinned.map(n -> api.state().nodes().get(n)).orElse(null);
      // The DaemonSet controller deletes pods for nodes that are gone, and pods not yet running on
      // nodes they should no longer run on.
      if (node == null || (p.phase() != PodState.Phase.RUNNING && p.phase() != PodState.Phase.STARTING
          && !PodFactory.shouldRunOn(ds, node.node()))) {
        api.deletePod(p.key(), RunRecord.Kind.POD_DELETED, node == null ? "its node is gone" : "no longer fits its node");
        continue;
      }
      covered.add(pinned.get());
    }
    List<String> nodes = new ArrayList<>(api.state().nodes().keys());
    nodes.sort(null);
    for (String name : nodes) {
      NodeState n = api.state().nodes().get(name);
      if (!covered.contains(name) && PodFactory.shouldRunOn(ds, n.node())) {
        api.createPod(PodFactory.daemonPod(ds, name, names, k -> api.state().pod(k).isPresent()), Optional.of(key));
      }
    }
  }

  /** The node a daemon pod is pinned to through its {@code metadata.name} field term. */
  static Optional<String> pinnedNode(Pod p) {
    var required = p.spec().nodeAffinity().required();
    if (required.isEmpty()) {
      return Optional.empty();
    }
    for (NodeSelectorTerm t : required.get().terms()) {
      for (var r : t.matchFields()) {
        if (r.key().equals("metadata.name") && !r.values().isEmpty()) {
          return Optional.of(r.values().getFirst());
        }
      }
    }
    return Optional.empty();
  }
}
