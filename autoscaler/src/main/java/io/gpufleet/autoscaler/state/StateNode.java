package io.gpufleet.autoscaler.state;

import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.OwnerReference;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.taint.Taint;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A node as Karpenter's cluster state tracks it: its NodeClaim (absent for nodes Karpenter does not
 * manage), its Node once registered, the pods bound to it, and when a pod last arrived or left.
 *
 * @param name the node's name once registered, else the NodeClaim's
 * @param pods every non-terminal pod bound to the node, terminating ones included
 * @param terminating keys of the pods among {@code pods} that are being deleted
 * @param lastPodEvent when a pod last bound, finished or started terminating (reference §1.3)
 * @param markedForDeletion the claim is deleting or is a candidate of a disruption in flight
 * @param podStarts when each pod started on the node ({@code status.startTime}), by pod key; a pod
 *     missing here has no start time known
 */
public record StateNode(String name, Optional<NodeClaim> claim, Optional<Node> node, List<Pod> pods,
    Set<String> terminating, Instant lastPodEvent, boolean markedForDeletion, Map<String, Instant> podStarts) {

  /** Taints that come and go with a node's start-up and never block Karpenter's plans (reference §1.3). */
  public static boolean isEphemeral(Taint t) {
    return switch (t.key()) {
      case "node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable",
           "node.cloudprovider.kubernetes.io/uninitialized", "karpenter.sh/unregistered" -> true;
      default -> t.key().startsWith("readiness.k8s.io/");
    };
  }

  public StateNode {
    Objects.requireNonNull(name, "name");
    pods = List.copyOf(pods);
    terminating = Set.copyOf(terminating);
    Objects.requireNonNull(lastPodEvent, "lastPodEvent");
    podStarts = Map.copyOf(podStarts);
  }

  /** A node whose pods' start times are not known. */
  public StateNode(String name, Optional<NodeClaim> claim, Optional<Node> node, List<Pod> pods,
      Set<String> terminating, Instant lastPodEvent, boolean markedForDeletion) {
    this(name, claim, node, pods, terminating, lastPodEvent, markedForDeletion, Map.of());
  }

  /** When the pod started here, if known. */
  public Optional<Instant> started(Pod p) {
    return Optional.ofNullable(podStarts.get(p.key()));
  }

  /**
   * Whether the node is among Karpenter's deleting nodes ({@code K:pkg/controllers/state/cluster.go}
   * Nodes.Deleting): marked for deletion or its NodeClaim deleting.
   */
  public boolean isDeleting() {
    return markedForDeletion || claim.isPresent() && claim.get().isDeleting();
  }

  public boolean isManaged() {
    return claim.isPresent();
  }

  /** Unmanaged nodes count as initialized: they are whatever they are. */
  public boolean isInitialized() {
    return claim.map(NodeClaim::isInitialized).orElse(true);
  }

  public Optional<String> nodePool() {
    return claim.map(NodeClaim::nodePool).or(() -> node.flatMap(n -> n.labels().get(KarpenterLabels.NODEPOOL)));
  }

  public Labels labels() {
    return node.map(Node::labels).orElseGet(() -> claim.map(NodeClaim::labels).orElse(Labels.EMPTY));
  }

  public Labels annotations() {
    Labels a = node.map(n -> n.meta().annotations()).orElse(Labels.EMPTY);
    return claim.map(c -> c.annotations().withAll(a)).orElse(a);
  }

  /**
   * One key of {@link #annotations()} without merging them all: the node's value, else the
   * claim's. The disruption controller reads do-not-disrupt of every node on every poll.
   */
  public Optional<String> annotation(String key) {
    Optional<String> v = node.flatMap(n -> n.meta().annotations().get(key));
    return v.isPresent() ? v : claim.flatMap(c -> c.annotations().get(key));
  }

  /**
   * The taints new pods must tolerate here as Karpenter plans: the node's (or, before registration,
   * the claim's), without ephemeral ones and, until initialised, without startup taints.
   */
  public List<Taint> schedulingTaints() {
    List<Taint> source = node.map(Node::taints).orElseGet(() -> claim.map(NodeClaim::taints).orElse(List.of()));
    List<Taint> startup = isInitialized() ? List.of() : claim.map(NodeClaim::startupTaints).orElse(List.of());
    List<Taint> out = new ArrayList<>(source.size());
    for (Taint t : source) {
      if (!isEphemeral(t) && startup.stream().noneMatch(t::sameKeyAndEffect)) {
        out.add(t);
      }
    }
    return out;
  }

  /** Pods that would have to move if this node went: not daemons, not mirror pods, not already leaving. */
  public List<Pod> reschedulablePods() {
    List<Pod> out = new ArrayList<>();
    for (Pod p : pods) {
      if (!terminating.contains(p.key()) && !isDaemon(p) && !isMirror(p)) {
        out.add(p);
      }
    }
    return out;
  }

  // Read without Optional.map, which makes an Optional per call: asked of each of 100,000 pending pods.
  public static boolean isDaemon(Pod p) {
    return ownedBy(p, "DaemonSet");
  }

  public static boolean isMirror(Pod p) {
    return ownedBy(p, "Node");
  }

  private static boolean ownedBy(Pod p, String kind) {
    Optional<OwnerReference> o = p.meta().owner();
    return o.isPresent() && o.get().kind().equals(kind);
  }

  /**
   * Whether no pod here would have to move ({@link #reschedulablePods()} is empty). Asked of every
   * node on every disruption poll, so it reads each pod's owner once and skips the terminating set
   * while it is empty.
   */
  public boolean isEmpty() {
    for (int i = 0; i < pods.size(); i++) {
      Pod p = pods.get(i);
      Optional<OwnerReference> owner = p.meta().owner();
      if (owner.isPresent() && (owner.get().kind().equals("DaemonSet") || owner.get().kind().equals("Node"))) {
        continue;
      }
      if (terminating.isEmpty() || !terminating.contains(p.key())) {
        return false;
      }
    }
    return true;
  }
}
