package io.gpufleet.engine.scheduler;

import io.gpufleet.model.node.Node;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A node with the pods bound to it and their summed requests, as the scheduler's cache holds it.
 * Immutable: binding returns a new image. The amounts every filter and score reads are kept as
 * plain fields (allocatable, requested and free cpu and memory, free scalar resources), since the
 * scheduler reads them for every node on every pod.
 */
public final class NodeInfo {

  private final Node node;
  private final ResourceVector allocatable;
  private final List<PodInfo> pods;
  private final ResourceVector requested;
  private final long nonZeroMilliCpu;
  private final long nonZeroMemory;
  // Derived for the hot path.
  private final long allocatableMilliCpu;
  private final long allocatableMemory;
  private final long requestedMilliCpu;
  private final long requestedMemory;
  private final long freeEphemeralStorage;
  private final long freePods;
  private final String[] scalarNames;
  private final long[] freeScalars;
  /** The pods with pod (anti-)affinity terms, and those with required anti-affinity: InterPodAffinity reads only these. */
  private final List<PodInfo> podsWithAffinity;
  private final List<PodInfo> podsWithRequiredAntiAffinity;
  /** The lowest priority of the node's pods ({@link Integer#MAX_VALUE} with none): preemption's first question. */
  private final int lowestPodPriority;

  public NodeInfo(Node node, ResourceVector allocatable, List<PodInfo> pods, ResourceVector requested,
      long nonZeroMilliCpu, long nonZeroMemory) {
    this.node = Objects.requireNonNull(node, "node");
    this.allocatable = allocatable;
    this.pods = List.copyOf(pods);
    this.requested = requested;
    this.nonZeroMilliCpu = nonZeroMilliCpu;
    this.nonZeroMemory = nonZeroMemory;
    this.allocatableMilliCpu = allocatable.milliCpu();
    this.allocatableMemory = allocatable.memory();
    this.requestedMilliCpu = requested.milliCpu();
    this.requestedMemory = requested.memory();
    this.freeEphemeralStorage = allocatable.ephemeralStorage() - requested.ephemeralStorage();
    this.freePods = allocatable.pods() - this.pods.size();
    this.scalarNames = new String[allocatable.scalarCount()];
    this.freeScalars = new long[allocatable.scalarCount()];
    for (int i = 0; i < scalarNames.length; i++) {
      scalarNames[i] = allocatable.scalarName(i);
      freeScalars[i] = allocatable.scalarValue(i) - requested.scalar(scalarNames[i]);
    }
    List<PodInfo> withAffinity = null;
    List<PodInfo> withAnti = null;
    int lowest = Integer.MAX_VALUE;
    for (PodInfo p : this.pods) {
      lowest = Math.min(lowest, p.pod().spec().priority());
      if (p.hasPodAffinity()) {
        withAffinity = withAffinity == null ? new ArrayList<>() : withAffinity;
        withAffinity.add(p);
        if (p.hasRequiredAntiAffinity()) {
          withAnti = withAnti == null ? new ArrayList<>() : withAnti;
          withAnti.add(p);
        }
      }
    }
    this.podsWithAffinity = withAffinity == null ? List.of() : List.copyOf(withAffinity);
    this.podsWithRequiredAntiAffinity = withAnti == null ? List.of() : List.copyOf(withAnti);
    this.lowestPodPriority = lowest;
  }

  /** The lowest priority among the node's pods, {@link Integer#MAX_VALUE} when it has none. */
  public int lowestPodPriority() {
    return lowestPodPriority;
  }

  public List<PodInfo> podsWithAffinity() {
    return podsWithAffinity;
  }

  public List<PodInfo> podsWithRequiredAntiAffinity() {
    return podsWithRequiredAntiAffinity;
  }

  public static NodeInfo of(Node node) {
    return new NodeInfo(node, ResourceVector.of(node.allocatable()), List.of(), ResourceVector.ZERO, 0, 0);
  }

  public Node node() {
    return node;
  }

  public ResourceVector allocatable() {
    return allocatable;
  }

  public List<PodInfo> pods() {
    return pods;
  }

  public ResourceVector requested() {
    return requested;
  }

  /** Summed cpu requests with the scheduler's non-zero default for containers that set none. */
  public long nonZeroMilliCpu() {
    return nonZeroMilliCpu;
  }

  public long nonZeroMemory() {
    return nonZeroMemory;
  }

  public long allocatableMilliCpu() {
    return allocatableMilliCpu;
  }

  public long allocatableMemory() {
    return allocatableMemory;
  }

  public long requestedMilliCpu() {
    return requestedMilliCpu;
  }

  public long requestedMemory() {
    return requestedMemory;
  }

  public long freeMilliCpu() {
    return allocatableMilliCpu - requestedMilliCpu;
  }

  public long freeMemory() {
    return allocatableMemory - requestedMemory;
  }

  public long freeEphemeralStorage() {
    return freeEphemeralStorage;
  }

  /** Room for more pods under the node's {@code pods} allocatable. */
  public long freePods() {
    return freePods;
  }

  /** Allocatable minus requested of an extended resource (0 minus requested when the node lacks it). */
  public long freeScalar(String name) {
    for (int i = 0; i < scalarNames.length; i++) {
      if (scalarNames[i].equals(name)) {
        return freeScalars[i];
      }
    }
    return -requested.scalar(name);
  }

  public String name() {
    return node.name();
  }

  public int podCount() {
    return pods.size();
  }

  public NodeInfo withPod(PodInfo pod) {
    List<PodInfo> next = new ArrayList<>(pods.size() + 1);
    next.addAll(pods);
    next.add(pod);
    return new NodeInfo(node, allocatable, next, requested.plus(pod.requests()),
        nonZeroMilliCpu + pod.nonZeroMilliCpu(), nonZeroMemory + pod.nonZeroMemory());
  }

  public NodeInfo withoutPod(String podKey) {
    List<PodInfo> next = new ArrayList<>(pods.size());
    PodInfo removed = null;
    for (PodInfo p : pods) {
      if (removed == null && p.key().equals(podKey)) {
        removed = p;
      } else {
        next.add(p);
      }
    }
    if (removed == null) {
      return this;
    }
    return new NodeInfo(node, allocatable, next, requested.minus(removed.requests()),
        nonZeroMilliCpu - removed.nonZeroMilliCpu(), nonZeroMemory - removed.nonZeroMemory());
  }

  /** The same pods on a changed node (new labels, taints, allocatable). */
  public NodeInfo withNode(Node changed) {
    return new NodeInfo(changed, ResourceVector.of(changed.allocatable()), pods, requested, nonZeroMilliCpu,
        nonZeroMemory);
  }

  /** Allocatable minus requested, per resource, in scheduler units (may be negative after a shrink). */
  public long free(String resource) {
    return allocatable.get(resource) - requested.get(resource);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NodeInfo n && node.equals(n.node) && pods.equals(n.pods) && requested.equals(n.requested)
        && allocatable.equals(n.allocatable);
  }

  @Override
  public int hashCode() {
    return Objects.hash(node, pods.size());
  }

  @Override
  public String toString() {
    return "NodeInfo[" + node.name() + ", pods=" + pods.size() + ", requested=" + requested + "]";
  }
}
