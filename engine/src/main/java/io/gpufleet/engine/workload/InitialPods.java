package io.gpufleet.engine.workload;

import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.workload.Workload;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * The pods a set of workloads creates once its controllers have caught up with a fixed set of
 * nodes: a daemon pod per eligible node for each DaemonSet (first, as their controller reacts to
 * nodes), then each workload's replicas in the order given. Jobs run {@code min(parallelism,
 * completions)} pods at once.
 *
 * <p>Controllers resume from the observed state: pods the cluster already has (by their owner
 * chain, see {@link Ownership}) count towards their controller's replicas, so a Deployment of 3
 * with 2 observed pods creates one; a ReplicaSet owned by a Deployment creates nothing itself; a
 * Job's succeeded pods count as completions; a StatefulSet fills only its missing ordinals; a
 * DaemonSet skips nodes that already run its pod.
 */
public final class InitialPods {
  private InitialPods() {}

  public static List<Pod> of(List<Workload> workloads, List<Node> nodes, RandomGenerator random) {
    return resume(workloads, nodes, List.of(), List.of(), random);
  }

  /**
   * The pods still to create, given the {@code observed} pods (live: running or pending) and the
   * {@code succeeded} ones the cluster has.
   */
  public static List<Pod> resume(List<Workload> workloads, List<Node> nodes, List<Pod> observed,
      List<Pod> succeeded, RandomGenerator random) {
    Ownership ownership = new Ownership(workloads);
    Map<Workload, List<Pod>> live = new IdentityHashMap<>();
    Map<Workload, Integer> done = new IdentityHashMap<>();
    for (Pod p : observed) {
      ownership.controllerOf(p).ifPresent(w -> live.computeIfAbsent(w, k -> new ArrayList<>()).add(p));
    }
    for (Pod p : succeeded) {
      ownership.controllerOf(p).ifPresent(w -> done.merge(w, 1, Integer::sum));
    }
    List<Pod> pods = new ArrayList<>();
    // Generated names are unique among the observed pods and those made here, as the API server keeps them.
    Set<String> taken = new HashSet<>();
    observed.forEach(p -> taken.add(p.key()));
    succeeded.forEach(p -> taken.add(p.key()));
    for (Workload w : workloads) {
      if (w instanceof Workload.DaemonSet ds && !ownership.owned(ds)) {
        Set<String> covered = new HashSet<>();
        live.getOrDefault(ds, List.of()).forEach(p -> p.spec().nodeName().ifPresent(covered::add));
        for (Node n : nodes) {
          if (!covered.contains(n.name()) && PodFactory.shouldRunOn(ds, n)) {
            Pod pod = PodFactory.daemonPod(ds, n.name(), random, taken::contains);
            taken.add(pod.key());
            pods.add(pod);
          }
        }
      }
    }
    for (Workload w : workloads) {
      if (ownership.owned(w)) {
        continue;
      }
      List<Pod> have = live.getOrDefault(w, List.of());
      PodFactory.Mold mold = PodFactory.mold(w, PodFactory.owner(w));
      if (w instanceof Workload.StatefulSet ss) {
        Set<String> names = new HashSet<>();
        have.forEach(p -> names.add(p.name()));
        for (int i = 0; i < ss.replicas(); i++) {
          if (!names.contains(ss.name() + "-" + i)) {
            pods.add(mold.pod(i, random));
          }
        }
        continue;
      }
      // On the variant, not the sealed type: no class made at run time (see Workload.variant).
      int want = switch (w.variant()) {
        case DEPLOYMENT -> ((Workload.Deployment) w).replicas();
        case REPLICA_SET -> ((Workload.ReplicaSet) w).replicas();
        case STATEFUL_SET -> ((Workload.StatefulSet) w).replicas();
        case JOB -> {
          Workload.Job j = (Workload.Job) w;
          yield Math.min(j.parallelism(), Math.max(0, j.completions() - done.getOrDefault(w, 0)));
        }
        case DAEMON_SET -> 0;
      };
      for (int i = have.size(); i < want; i++) {
        Pod pod = mold.pod(i, random, taken::contains);
        taken.add(pod.key());
        pods.add(pod);
      }
    }
    return pods;
  }
}
