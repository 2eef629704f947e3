package io.gpufleet.sim.forecast;

import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.workload.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The job asked about: its workloads and bare pods, how many of its pods must run at once for it to
 * count as running, and how many must complete for it to be done (zero when nothing of it completes:
 * a Deployment serves until deleted).
 */
public record JobSpec(Set<ObjectRef> workloads, Set<ObjectRef> pods, int running, int completions) {

  public JobSpec {
    workloads = new TreeSet<>(workloads);
    pods = new TreeSet<>(pods);
    if (workloads.isEmpty() && pods.isEmpty()) {
      throw new IllegalArgumentException("a job needs a workload or a pod");
    }
  }

  /**
   * From the job's objects: a Job runs {@code min(parallelism, completions)} pods at once and is done
   * after {@code completions}; a Deployment, ReplicaSet or StatefulSet runs its replicas and is never
   * done; a bare pod runs once. A DaemonSet's pods depend on the nodes, so it is refused.
   */
  public static JobSpec of(List<Workload> workloads, List<Pod> pods) {
    List<ObjectRef> refs = new ArrayList<>();
    int running = 0;
    int completions = 0;
    boolean endless = false;
    for (Workload w : workloads) {
      refs.add(new ObjectRef(w.kind(), w.meta().namespace(), w.meta().name()));
      switch (w) {
        case Workload.Job j -> {
          running += Math.min(j.parallelism(), j.completions());
          completions += j.completions();
        }
        case Workload.Deployment d -> {
          running += d.replicas();
          endless = true;
        }
        case Workload.ReplicaSet r -> {
          running += r.replicas();
          endless = true;
        }
        case Workload.StatefulSet s -> {
          running += s.replicas();
          endless = true;
        }
        case Workload.DaemonSet d -> throw new IllegalArgumentException(refs.getLast()
            + ": a DaemonSet runs a pod per node, not a job to place; give a Job, a Deployment or a Pod");
      }
    }
    List<ObjectRef> bare = pods.stream().map(p -> new ObjectRef("Pod", p.meta().namespace(), p.meta().name())).toList();
    running += bare.size();
    completions += bare.size();
    return new JobSpec(new TreeSet<>(refs), new TreeSet<>(bare), running, endless ? 0 : completions);
  }

  /** Whether the run's pod {@code key}, made by {@code workload} (its text), is one of the job's. */
  public boolean owns(String key, String workload) {
    return pods.stream().anyMatch(p -> ObjectMeta.key(p.namespace(), p.name()).equals(key))
        || workloads.stream().anyMatch(w -> w.toString().equals(workload));
  }

  /** {@code Job/ml/train} or {@code Job/ml/train and Pod/ml/probe}. */
  public String name() {
    List<String> names = new ArrayList<>();
    workloads.forEach(w -> names.add(w.toString()));
    pods.forEach(p -> names.add(p.toString()));
    return String.join(" and ", names);
  }
}
