package io.gpufleet.engine.workload;

import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.meta.OwnerReference;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.workload.PodTemplate;
import io.gpufleet.model.workload.Workload;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Which workload controls what, by {@code metadata.ownerReferences} as the cluster recorded them:
 * a ReplicaSet owned by a Deployment is that Deployment's (it creates no pods of its own here),
 * and a pod belongs to the top of its owner chain (Deployment, StatefulSet, DaemonSet, Job, or a
 * ReplicaSet nobody owns). Owners live in the object's namespace, as the API requires.
 */
public final class Ownership {

  /**
   * A workload by kind, namespace and name. Its equals and hashCode are written out: a record's own are
   * linked at their first call by ObjectMethods' bootstrap, which spins method-handle classes that no
   * AOT cache holds, and every schedule hashes these.
   */
  private record Key(String kind, String namespace, String name) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && Objects.equals(kind, k.kind) && Objects.equals(namespace, k.namespace)
          && Objects.equals(name, k.name);
    }

    @Override
    public int hashCode() {
      return 31 * (31 * Objects.hashCode(kind) + Objects.hashCode(namespace)) + Objects.hashCode(name);
    }
  }

  private final Map<Key, Workload> byKey = new HashMap<>();

  public Ownership(List<Workload> workloads) {
    for (Workload w : workloads) {
      byKey.put(key(w.kind(), w.meta()), w);
    }
  }

  private static Key key(String kind, ObjectMeta meta) {
    return new Key(kind, meta.namespace(), meta.name());
  }

  /** The workload at the top of {@code w}'s owner chain ({@code w} itself when nobody here owns it). */
  public Workload top(Workload w) {
    Workload at = w;
    for (int hops = 0; hops < byKey.size(); hops++) {
      Optional<Workload> owner = ownerOf(at.meta());
      if (owner.isEmpty()) {
        return at;
      }
      at = owner.get();
    }
    return at;
  }

  /** True when another workload here owns {@code w}: its pods are counted for that owner. */
  public boolean owned(Workload w) {
    return ownerOf(w.meta()).isPresent();
  }

  /** The workload that controls {@code pod}, at the top of its owner chain; empty for a bare pod. */
  public Optional<Workload> controllerOf(Pod pod) {
    return ownerOf(pod.meta()).map(this::top);
  }

  /**
   * Whether a Deployment's pod runs its current template. The pod's ReplicaSet is compared with the
   * Deployment as the deployment controller compares them ({@code EqualIgnoreHash}: the templates
   * equal once the {@code pod-template-hash} label is dropped); a pod of another ReplicaSet of a
   * Deployment that has a current one is of an older revision, left from a rollout in progress.
   * Where nothing here tells (no ReplicaSet, or none matches), the pod counts as current.
   */
  public boolean ofCurrentTemplate(Pod pod) {
    Optional<Workload> rs = ownerOf(pod.meta()).filter(w -> w instanceof Workload.ReplicaSet);
    Optional<Workload> deployment = rs.flatMap(r -> ownerOf(r.meta())).filter(w -> w instanceof Workload.Deployment);
    if (deployment.isEmpty()) {
      return true;
    }
    PodTemplate current = withoutHash(deployment.get().template());
    if (withoutHash(rs.get().template()).equals(current)) {
      return true;
    }
    return byKey.values().stream().noneMatch(w -> w instanceof Workload.ReplicaSet
        && ownerOf(w.meta()).equals(deployment) && withoutHash(w.template()).equals(current));
  }

  /** The label the deployment controller adds to its ReplicaSets' templates. */
  private static final String TEMPLATE_HASH = PodFactory.TEMPLATE_HASH_LABEL;

  private static PodTemplate withoutHash(PodTemplate t) {
    return new PodTemplate(t.labels().without(TEMPLATE_HASH), t.annotations(), t.spec());
  }

  private Optional<Workload> ownerOf(ObjectMeta meta) {
    Optional<OwnerReference> ref = meta.owner();
    return ref.map(r -> byKey.get(new Key(r.kind(), meta.namespace(), r.name())));
  }
}
