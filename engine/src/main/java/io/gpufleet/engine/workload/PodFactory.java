package io.gpufleet.engine.workload;

import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.plugin.NodeAffinity;
import io.gpufleet.model.affinity.NodeSelector;
import io.gpufleet.model.affinity.NodeSelectorTerm;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.meta.OwnerReference;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.model.taint.Tolerations;
import io.gpufleet.model.workload.PodTemplate;
import io.gpufleet.model.workload.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.random.RandomGenerator;

/**
 * Makes the pods a workload controller would create from its template: named as the controller
 * names them, labelled from the template, owned by the workload. DaemonSet pods are pinned to
 * their node through a {@code metadata.name} node-affinity field term and get the tolerations the
 * DaemonSet controller adds.
 */
public final class PodFactory {
  private PodFactory() {}

  /** Tolerations the DaemonSet controller adds to every daemon pod. */
  public static final List<Toleration> DAEMON_TOLERATIONS = List.of(
      Toleration.exists("node.kubernetes.io/not-ready", TaintEffect.NO_EXECUTE),
      Toleration.exists("node.kubernetes.io/unreachable", TaintEffect.NO_EXECUTE),
      Toleration.exists("node.kubernetes.io/disk-pressure", TaintEffect.NO_SCHEDULE),
      Toleration.exists("node.kubernetes.io/memory-pressure", TaintEffect.NO_SCHEDULE),
      Toleration.exists("node.kubernetes.io/pid-pressure", TaintEffect.NO_SCHEDULE),
      Toleration.exists("node.kubernetes.io/unschedulable", TaintEffect.NO_SCHEDULE));

  /**
   * The label the Deployment controller puts on its ReplicaSets' selectors and templates, hence on
   * their pods, valued as the ReplicaSet's name suffix (pkg/controller/deployment/sync.go,
   * {@code getNewReplicaSet}; {@code apps.DefaultDeploymentUniqueLabelKey}). {@code matchLabelKeys:
   * [pod-template-hash]} in a spread constraint relies on it to spread each revision on its own.
   */
  public static final String TEMPLATE_HASH_LABEL = "pod-template-hash";

  /** One new pod of a workload (not for DaemonSets, see {@link #daemonPod}); {@code ordinal} names StatefulSet pods. */
  public static Pod pod(Workload w, int ordinal, RandomGenerator random) {
    return pod(w, ordinal, random, owner(w));
  }

  /**
   * As {@link #pod(Workload, int, RandomGenerator)}, with the workload's {@link #owner} made once by
   * the caller for every pod of a batch: a Deployment's owner hashes its whole template's text, which
   * for 100,000 replicas cost more than the rest of making them.
   */
  public static Pod pod(Workload w, int ordinal, RandomGenerator random, OwnerReference owner) {
    return mold(w, owner).pod(ordinal, random);
  }

  /**
   * As {@link #pod(Workload, int, RandomGenerator, OwnerReference)}, its generated name drawn again
   * while {@code taken} holds its key ({@code namespace/name}): the API server retries a generated
   * name that exists (KEP-4420 RetryGenerateName, GA in v1.32, up to 7 times; a create that still
   * fails is made again at the controller's next sync). Five characters of a 27-letter alphabet collide
   * hundreds of times among 100,000 pods. A StatefulSet's names are its ordinals, never drawn.
   */
  public static Pod pod(Workload w, int ordinal, RandomGenerator random, OwnerReference owner,
      java.util.function.Predicate<String> taken) {
    return mold(w, owner).pod(ordinal, random, taken);
  }

  /** The mold of a workload's pods with this owner: what they all share, made once for a batch. */
  public static Mold mold(Workload w, OwnerReference owner) {
    Labels labels = w.template().labels();
    if (w.variant() == Workload.Variant.DEPLOYMENT) {
      // The pods of the Deployment's current ReplicaSet, <deployment>-<hash>, carry the hash as a label.
      labels = labels.with(TEMPLATE_HASH_LABEL, owner.name().substring(w.name().length() + 1));
    }
    return new Mold(w, Optional.of(owner), labels);
  }

  /**
   * What every pod a controller makes of one workload with one owner shares (the template's labels
   * with a Deployment's hash label, the owner reference), so a batch of 100,000 replicas builds them
   * once rather than once per pod; each pod differs only in its name.
   */
  public record Mold(Workload workload, Optional<OwnerReference> owner, Labels labels) {

    /** One new pod; {@code ordinal} names StatefulSet pods. */
    public Pod pod(int ordinal, RandomGenerator random) {
      // On the variant, not the sealed type: no class made at run time (see Workload.variant).
      String name = switch (workload.variant()) {
        case DEPLOYMENT -> owner.orElseThrow().name() + "-" + PodNames.suffix(random, 5);
        case REPLICA_SET, JOB, DAEMON_SET -> workload.name() + "-" + PodNames.suffix(random, 5);
        case STATEFUL_SET -> workload.name() + "-" + ordinal;
      };
      PodTemplate t = workload.template();
      return new Pod(new ObjectMeta(name, workload.meta().namespace(), labels, t.annotations(), owner), t.spec());
    }

    /** As {@link #pod(int, RandomGenerator)}, a generated name drawn again while {@code taken} holds its key. */
    public Pod pod(int ordinal, RandomGenerator random, java.util.function.Predicate<String> taken) {
      Pod pod = pod(ordinal, random);
      if (workload.variant() == Workload.Variant.STATEFUL_SET) {
        return pod;
      }
      while (taken.test(pod.key())) {
        pod = pod(ordinal, random);
      }
      return pod;
    }
  }

  /** As {@link #daemonPod(Workload.DaemonSet, String, RandomGenerator)}, its name drawn again while taken. */
  public static Pod daemonPod(Workload.DaemonSet ds, String nodeName, RandomGenerator random,
      java.util.function.Predicate<String> taken) {
    return untaken(() -> daemonPod(ds, nodeName, random), taken);
  }

  /** The first pod {@code draw} makes whose key is not {@code taken}. */
  private static Pod untaken(java.util.function.Supplier<Pod> draw, java.util.function.Predicate<String> taken) {
    Pod pod = draw.get();
    while (taken.test(pod.key())) {
      pod = draw.get();
    }
    return pod;
  }

  /** The controller of a workload's pods: a Deployment's pods belong to its ReplicaSet. */
  public static OwnerReference owner(Workload w) {
    return owner(w, PodFactory::revision);
  }

  /**
   * As {@link #owner(Workload)}, with each Deployment's ReplicaSet name from {@code revisions}: the
   * caller's memo of {@link #revision}, whose hash of the template text is the costly part.
   */
  public static OwnerReference owner(Workload w, Function<Workload.Deployment, String> revisions) {
    return w instanceof Workload.Deployment d ? new OwnerReference("ReplicaSet", revisions.apply(d))
        : new OwnerReference(w.kind(), w.name());
  }

  /** The name of a Deployment's ReplicaSet for its current template: the name and the template's hash. */
  public static String revision(Workload.Deployment d) {
    return d.name() + "-" + PodNames.templateHash(d.template().toString());
  }

  /** The daemon pod of a DaemonSet for one node, pinned to it. */
  public static Pod daemonPod(Workload.DaemonSet ds, String nodeName, RandomGenerator random) {
    PodSpec spec = ds.template().spec();
    List<Toleration> tolerations = new ArrayList<>(spec.tolerations());
    for (Toleration t : DAEMON_TOLERATIONS) {
      addOrUpdate(tolerations, t);
    }
    NodeSelectorTerm pin = new NodeSelectorTerm(List.of(), List.of(Requirement.in("metadata.name", nodeName)));
    var affinity = spec.nodeAffinity();
    List<NodeSelectorTerm> terms = new ArrayList<>();
    if (affinity.required().isPresent()) {
      // The controller adds the field term to each existing term, keeping their expressions.
      for (NodeSelectorTerm t : affinity.required().get().terms()) {
        terms.add(new NodeSelectorTerm(t.matchExpressions(), pin.matchFields()));
      }
    } else {
      terms.add(pin);
    }
    var pinned = new io.gpufleet.model.affinity.NodeAffinity(Optional.of(new NodeSelector(terms)), affinity.preferred());
    PodSpec daemonSpec = spec.withTolerations(tolerations).withNodeAffinity(pinned);
    String name = ds.name() + "-" + PodNames.suffix(random, 5);
    return fromTemplate(ds, name, new OwnerReference("DaemonSet", ds.name()), daemonSpec);
  }

  /**
   * The controller's {@code AddOrUpdateDaemonPodTolerations} (pkg/controller/daemon/util/daemonset_util.go,
   * through {@code AddOrUpdateTolerationInPodSpec}): a toleration of the same key, operator, value and
   * effect is replaced, so the template's admitted {@code not-ready} toleration with 300 seconds
   * (DefaultTolerationSeconds) gives way to the daemon's unbounded one; others are appended.
   */
  private static void addOrUpdate(List<Toleration> tolerations, Toleration t) {
    for (int i = 0; i < tolerations.size(); i++) {
      Toleration e = tolerations.get(i);
      if (e.key().equals(t.key()) && e.operator() == t.operator() && e.value().equals(t.value())
          && e.effect().equals(t.effect())) {
        tolerations.set(i, t);
        return;
      }
    }
    tolerations.add(t);
  }

  /**
   * Whether the DaemonSet controller wants a daemon pod on this node: the template's node selector
   * and affinity admit it and it has no NoSchedule/NoExecute taint the daemon pod does not tolerate.
   * Resources are left to the scheduler.
   */
  public static boolean shouldRunOn(Workload.DaemonSet ds, Node node) {
    PodSpec spec = ds.template().spec();
    if (!NodeAffinity.matches(spec, NodeInfo.of(node))) {
      return false;
    }
    List<Toleration> tolerations = new ArrayList<>(spec.tolerations());
    tolerations.addAll(DAEMON_TOLERATIONS);
    for (Taint t : node.taints()) {
      if (t.effect().blocksScheduling() && !Tolerations.tolerates(tolerations, t)) {
        return false;
      }
    }
    return true;
  }

  private static Pod fromTemplate(Workload w, String name, OwnerReference owner, PodSpec spec) {
    PodTemplate t = w.template();
    ObjectMeta meta = new ObjectMeta(name, w.meta().namespace(), t.labels(), t.annotations(), Optional.of(owner));
    return new Pod(meta, spec);
  }
}
