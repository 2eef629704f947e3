package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.engine.scheduler.ResourceVector;
import io.gpufleet.engine.workload.PodFactory;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintClasses;
import io.gpufleet.model.workload.Workload;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/** An existing or in-flight node with what is left on it in one provisioning round. */
final class ExistingNode {
  final StateNode node;
  final Labels labels;
  final int taintClass;
  ResourceVector free;
  long freePods;

  /** What a node offers before a round places anything on it; {@link NodeBases} keeps it between rounds. */
  record Base(Labels labels, List<Taint> taints, ResourceVector free, long freePods) {}

  /** The node of {@code entry} as the round starts. */
  ExistingNode(RoundNodes.Entry entry) {
    this.node = entry.node();
    this.labels = entry.base().labels();
    this.taintClass = entry.taintClass();
    this.free = entry.base().free();
    this.freePods = entry.base().freePods();
  }

  private ExistingNode(ExistingNode from) {
    this.node = from.node;
    this.labels = from.labels;
    this.taintClass = from.taintClass;
    this.free = from.free;
    this.freePods = from.freePods;
  }

  /** The node with what is left on it now, to go on placing apart from this one. */
  ExistingNode copy() {
    return new ExistingNode(this);
  }

  /**
   * The node's offer less its pods and, while in flight, the daemon pods that will land there;
   * {@code requests}: each pod spec's requests as a vector ({@link RoundNodes#request} keeps them by spec).
   */
  static Base base(StateNode node, ResourceList alloc, List<Workload.DaemonSet> daemonSets,
      Function<PodSpec, ResourceVector> requests) {
    Labels labels = node.labels();
    List<Taint> taints = node.schedulingTaints();
    ResourceVector used = ResourceVector.ZERO;
    long podCount = 0;
    Set<String> daemonsHere = new HashSet<>();
    for (Pod p : node.pods()) {
      used = used.plus(requests.apply(p.spec()));
      podCount++;
      p.meta().owner().filter(o -> o.kind().equals("DaemonSet")).ifPresent(o -> daemonsHere.add(o.name()));
    }
    if (!node.isInitialized()) {
      // Daemon pods that will land once the node is up (Karpenter counts them for in-flight nodes).
      Node shape = Node.of(node.name(), labels, taints, alloc);
      for (Workload.DaemonSet ds : daemonSets) {
        if (!daemonsHere.contains(ds.name()) && PodFactory.shouldRunOn(ds, shape)) {
          used = used.plus(requests.apply(ds.template().spec()));
          podCount++;
        }
      }
    }
    ResourceVector a = ResourceVector.of(alloc);
    return new Base(labels, taints, a.minus(used), alloc.getOrZero(ResourceName.PODS).value() - podCount);
  }

  /**
   * Whether the pod fits in what is left and the node takes it: its taints tolerated ({@code tolerance},
   * the pod's answers by taint list), its node selector and required affinity met. Changes nothing.
   */
  boolean takes(Pod pod, ResourceVector req, TaintClasses.Tolerance tolerance) {
    return freePods >= 1 && Fit.fits(req, 1, free, freePods) && tolerance.tolerates(taintClass)
        && selects(pod.spec(), node.name(), labels);
  }

  /** Places a pod of this request here ({@link #takes} said it fits). */
  void add(ResourceVector req) {
    free = free.minus(req);
    freePods--;
  }

  /** Whether a node of this name and labels meets the pod's node selector and required node affinity. */
  static boolean selects(PodSpec spec, String name, Labels labels) {
    return labels.containsAll(spec.nodeSelector()) && spec.nodeAffinity().requiredMatches(name, labels);
  }
}
