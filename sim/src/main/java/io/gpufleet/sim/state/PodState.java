package io.gpufleet.sim.state;

import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.model.pod.Pod;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A pod and where it is in its life: waiting for a node, bound and starting (pulling images),
 * running, and whether it is being deleted. Pods that end leave the image, except one its kubelet
 * refused: it stays Failed, holding nothing, as the API server keeps it for {@code kubectl get pods}.
 *
 * @param sequence creation order, for the scheduler's queue and stable reports
 * @param workload the key of the workload that owns it, if any
 * @param generation bumped on every transition so stale timers can be told apart
 */
public record PodState(Pod pod, long sequence, Optional<ObjectRef> workload, Phase phase, Optional<String> node,
    Instant created, Optional<Instant> bound, Optional<Instant> ready, Optional<Instant> deletionRequested,
    Optional<String> schedulingMessage, long generation) {

  /** The part of a pod's life the simulator tracks. */
  public enum Phase {
    /** Not bound to a node yet. */
    PENDING,
    /** Bound; pulling images and starting containers. */
    STARTING,
    /** Containers running. Ready when {@code ready} is set and it is not being deleted. */
    RUNNING,
    /**
     * Refused by the kubelet of the node it named (kubelet admission): never started, holds nothing;
     * its reason ({@code OutOfnvidia.com/gpu}, ...) is the scheduling message.
     */
    FAILED
  }

  public PodState {
    Objects.requireNonNull(pod, "pod");
    Objects.requireNonNull(phase, "phase");
  }

  public String key() {
    return pod.key();
  }

  public boolean isTerminating() {
    return deletionRequested.isPresent();
  }

  /** Ready and not being deleted: it serves traffic and counts as healthy for PDBs. */
  public boolean isReady() {
    return phase == Phase.RUNNING && ready.isPresent() && deletionRequested.isEmpty();
  }

  public boolean isPending() {
    return phase == Phase.PENDING && deletionRequested.isEmpty();
  }

  PodState next(Phase p, Optional<String> n, Optional<Instant> b, Optional<Instant> r, Optional<Instant> d,
      Optional<String> msg) {
    return new PodState(pod, sequence, workload, p, n, created, b, r, d, msg, generation + 1);
  }

  public PodState bound(String nodeName, Instant t) {
    return next(Phase.STARTING, Optional.of(nodeName), Optional.of(t), ready, deletionRequested, Optional.empty());
  }

  public PodState started() {
    return next(Phase.RUNNING, node, bound, ready, deletionRequested, schedulingMessage);
  }

  public PodState readyAt(Instant t) {
    return next(phase, node, bound, Optional.of(t), deletionRequested, schedulingMessage);
  }

  public PodState deleting(Instant t) {
    return next(phase, node, bound, ready, Optional.of(t), schedulingMessage);
  }

  /** The kubelet refused it: Failed with the kubelet's reason, on no node. */
  public PodState failed(String reason) {
    return next(Phase.FAILED, Optional.empty(), bound, ready, deletionRequested, Optional.of(reason));
  }

  public boolean isFailed() {
    return phase == Phase.FAILED;
  }

  /** The same pod with an updated object (a pending pod's spec changed). */
  public PodState withPod(Pod updated) {
    return new PodState(updated, sequence, workload, phase, node, created, bound, ready, deletionRequested,
        schedulingMessage, generation + 1);
  }

  public PodState withSchedulingMessage(String message) {
    return withSchedulingMessage(Optional.of(message));
  }

  public PodState withSchedulingMessage(Optional<String> message) {
    return new PodState(pod, sequence, workload, phase, node, created, bound, ready, deletionRequested,
        message, generation);
  }
}
