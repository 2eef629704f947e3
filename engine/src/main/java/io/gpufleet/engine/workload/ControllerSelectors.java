package io.gpufleet.engine.workload;

import io.gpufleet.engine.scheduler.plugin.SpreadSelectors;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.meta.OwnerReference;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.workload.Workload;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code helper.DefaultSelector} over the workloads the twin knows: a pod controlled by a ReplicaSet
 * (a Deployment's included) or a StatefulSet gets that controller's selector, in the controller's
 * namespace. Jobs and DaemonSets give none, as upstream (it reads Services, ReplicationControllers,
 * ReplicaSets and StatefulSets; the twin models no Services or ReplicationControllers).
 */
public final class ControllerSelectors implements SpreadSelectors {

  /**
   * A controller: its namespace and its reference. Its equals and hashCode are written out: a record's
   * own are linked at their first call by ObjectMethods' bootstrap, which spins method-handle classes
   * that no AOT cache holds, and every schedule hashes these.
   */
  private record Key(String namespace, OwnerReference owner) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && Objects.equals(namespace, k.namespace) && Objects.equals(owner, k.owner);
    }

    @Override
    public int hashCode() {
      return 31 * Objects.hashCode(namespace) + Objects.hashCode(owner);
    }
  }

  private final Map<Key, LabelSelector> selectors;

  private ControllerSelectors(Map<Key, LabelSelector> selectors) {
    this.selectors = Map.copyOf(selectors);
  }

  public static ControllerSelectors of(List<Workload> workloads) {
    return of(workloads, PodFactory::revision);
  }

  /** As {@link #of(List)}, with the Deployments' ReplicaSet names from the caller's memo ({@link PodFactory#owner(Workload, Function)}). */
  public static ControllerSelectors of(List<Workload> workloads, Function<Workload.Deployment, String> revisions) {
    Map<Key, LabelSelector> out = new HashMap<>();
    for (Workload w : workloads) {
      if (selects(w)) {
        out.put(new Key(w.meta().namespace(), PodFactory.owner(w, revisions)), w.selector());
      }
    }
    return new ControllerSelectors(out);
  }

  /** Whether the workload's pods get its selector here: a Deployment, ReplicaSet or StatefulSet. */
  public static boolean selects(Workload w) {
    // On the variant, not the sealed type: no class made at run time (see Workload.variant).
    return switch (w.variant()) {
      case DEPLOYMENT, REPLICA_SET, STATEFUL_SET -> true;
      case JOB, DAEMON_SET -> false;
    };
  }

  @Override
  public Optional<LabelSelector> selectorFor(Pod pod) {
    return pod.meta().owner().map(o -> selectors.get(new Key(pod.meta().namespace(), o)));
  }
}
