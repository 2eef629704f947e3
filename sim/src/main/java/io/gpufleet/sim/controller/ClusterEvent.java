package io.gpufleet.sim.controller;

import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.model.pod.Pod;
import java.util.ArrayList;
import java.util.List;

/**
 * A change of the cluster image, as the API server publishes it. Controllers that watch a kind of
 * change subscribe (the kubelet starts the pods bound to its node; Karpenter removes the NodeClaim
 * of an instance the cloud took back); the rest is said by each event's {@link #hints()}: which cached
 * answers the change can make stale and which controllers it wakes, in the spirit of kube-scheduler's
 * queueing hints, which retry an unschedulable pod only after an event that could make it fit.
 */
sealed interface ClusterEvent {

  /** What the change can unblock, in the order the API server acts on them. */
  List<Hint> hints();

  /** One consequence of a change: an epoch that moves or a controller that is woken. */
  enum Hint {
    /** A pod that failed to schedule may fit now: kube-scheduler retries it (the capacity epoch moves). */
    CAPACITY,
    /** The nodes' shape changed: DaemonSets recompute where they run (the node-shape epoch moves). */
    NODE_SHAPE,
    /** Something Karpenter's disruption decisions read changed: its next poll looks again. */
    DISRUPTION,
    /** kube-scheduler runs a cycle. */
    SCHEDULE,
    /** The workload controllers sync. */
    WORKLOADS,
    /** Karpenter reconciles NodeClaims: lifecycle, termination, in-flight disruptions. */
    KARPENTER,
    /** Pods may need new capacity: the provisioner opens or extends its batch window. */
    PROVISIONING
  }

  /** A pod was created and waits for the scheduler. */
  record PodCreated(Pod pod) implements ClusterEvent {
    public List<Hint> hints() {
      return List.of(Hint.SCHEDULE);
    }
  }

  /** A pending pod's spec changed (Kueue removed its scheduling gate): the scheduler tries it again. */
  record PodUpdated(String pod) implements ClusterEvent {
    public List<Hint> hints() {
      return List.of(Hint.SCHEDULE);
    }
  }

  /** A pod was bound to a node; its kubelet starts it. */
  record PodBound(String pod, String node) implements ClusterEvent {
    public List<Hint> hints() {
      return List.of(Hint.DISRUPTION, Hint.WORKLOADS);
    }
  }

  /** A pod passed its readiness probe: it now counts for its workload and its PDBs. */
  record PodReady(String pod) implements ClusterEvent {
    public List<Hint> hints() {
      return List.of(Hint.DISRUPTION, Hint.WORKLOADS);
    }
  }

  /** A bound pod got its deletion timestamp; Karpenter cares if its node is being drained. */
  record PodDeleting(String pod, boolean nodeDraining) implements ClusterEvent {
    public List<Hint> hints() {
      return nodeDraining ? List.of(Hint.DISRUPTION, Hint.WORKLOADS, Hint.KARPENTER)
          : List.of(Hint.DISRUPTION, Hint.WORKLOADS);
    }
  }

  /** The kubelet refused a pod bound by name: it is Failed and its controller replaces it. */
  record PodFailed(String pod) implements ClusterEvent {
    public List<Hint> hints() {
      return List.of(Hint.WORKLOADS);
    }
  }

  /** A pod is gone; if it held room on a node, that room is free again. */
  record PodRemoved(String pod, boolean freedCapacity, boolean nodeDraining) implements ClusterEvent {
    public List<Hint> hints() {
      List<Hint> h = new ArrayList<>();
      if (freedCapacity) {
        h.add(Hint.CAPACITY);
      }
      h.addAll(List.of(Hint.DISRUPTION, Hint.WORKLOADS, Hint.SCHEDULE));
      if (nodeDraining) {
        h.add(Hint.KARPENTER);
      }
      return List.copyOf(h);
    }
  }

  /** A node joined, or its labels, taints or resources changed. */
  record NodeChanged(String node) implements ClusterEvent {
    public List<Hint> hints() {
      return List.of(Hint.CAPACITY, Hint.NODE_SHAPE, Hint.DISRUPTION, Hint.SCHEDULE, Hint.WORKLOADS, Hint.KARPENTER);
    }
  }

  /** A node is gone with its pods: capacity went away, so pods may need new nodes. */
  record NodeRemoved(String node) implements ClusterEvent {
    public List<Hint> hints() {
      return List.of(Hint.CAPACITY, Hint.NODE_SHAPE, Hint.DISRUPTION, Hint.SCHEDULE, Hint.KARPENTER,
          Hint.PROVISIONING);
    }
  }

  /** A NodeClaim was created or changed (launched, registered, initialised, drifted, deleting). */
  record ClaimChanged(String claim) implements ClusterEvent {
    public List<Hint> hints() {
      return List.of(Hint.DISRUPTION, Hint.KARPENTER);
    }
  }

  /** Devices became allocatable again (the DeviceTaintRule named was deleted): pending pods may fit now. */
  record DevicesFreed(String subject) implements ClusterEvent {
    public List<Hint> hints() {
      return List.of(Hint.CAPACITY, Hint.SCHEDULE);
    }
  }

  /** A NodeClaim is gone: the capacity it promised may be needed elsewhere. */
  record ClaimRemoved(String claim) implements ClusterEvent {
    public List<Hint> hints() {
      return List.of(Hint.DISRUPTION, Hint.KARPENTER, Hint.PROVISIONING);
    }
  }

  /** kube-scheduler found pods that fit no node. */
  record PodsUnschedulable() implements ClusterEvent {
    public List<Hint> hints() {
      return List.of(Hint.PROVISIONING);
    }
  }

  /** The cloud terminated a claim's instance; Karpenter's garbage collection removes node and claim. */
  record InstanceTerminated(NodeClaim claim, String why) implements ClusterEvent {
    public List<Hint> hints() {
      return List.of();
    }
  }

  /** An offering could not launch; it is unavailable for a while, which disruption decisions read. */
  record OfferingUnavailable(String instanceType) implements ClusterEvent {
    public List<Hint> hints() {
      return List.of(Hint.DISRUPTION);
    }
  }

  /** A disruption command was given up: its candidates are free again and Karpenter looks. */
  record DisruptionAbandoned(String command) implements ClusterEvent {
    public List<Hint> hints() {
      return List.of(Hint.DISRUPTION, Hint.KARPENTER);
    }
  }

  /** A NodePool was created or updated: Karpenter rebuilds its model and pending pods may fit it now. */
  record NodePoolApplied(String nodePool) implements ClusterEvent {
    public List<Hint> hints() {
      return List.of(Hint.DISRUPTION, Hint.KARPENTER, Hint.PROVISIONING);
    }
  }

  /**
   * Objects disruption reads changed: a PDB, a NodePool deleted, a workload deleted, or a scenario
   * step that may change any of them.
   */
  record PolicyChanged(String subject) implements ClusterEvent {
    public List<Hint> hints() {
      return List.of(Hint.DISRUPTION);
    }
  }

  /** A workload was created, scaled or updated: its controller syncs. */
  record WorkloadChanged(ObjectRef workload) implements ClusterEvent {
    public List<Hint> hints() {
      return List.of(Hint.DISRUPTION, Hint.WORKLOADS);
    }
  }
}
