package io.gpufleet.engine.scheduler;

import io.gpufleet.model.node.Node;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A node with the pods bound to it and their summed requests, as the scheduler's cache holds it.
 * Immutable: binding returns a new image.
 */
public record NodeInfo(
    Node node, ResourceVector allocatable, List<PodInfo> pods, ResourceVector requested,
    long nonZeroMilliCpu, long nonZeroMemory) {

  public NodeInfo {
    Objects.requireNonNull(node, "node");
    pods = List.copyOf(pods);
  }

  public static NodeInfo of(Node node) {
    return new NodeInfo(node, ResourceVector.of(node.allocatable()), List.of(), ResourceVector.ZERO, 0, 0);
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
}
