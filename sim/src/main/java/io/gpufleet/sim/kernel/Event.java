package io.gpufleet.sim.kernel;

import io.gpufleet.autoscaler.interruption.InterruptionMessage;

/**
 * Everything that can happen at an instant of a simulation. Sealed, so the runtime handles each
 * kind; events at the same instant run in {@link #priority()} order (lower first), then in the order
 * they were scheduled.
 */
public sealed interface Event {

  /** Order among events of the same instant: the cloud and the kubelets act before controllers observe. */
  int priority();

  // ---- the cloud and the nodes ----

  /** The instance of a NodeClaim booted and its kubelet registers a Node. */
  record NodeRegisters(String claim) implements Event {
    public int priority() {
      return 0;
    }
  }

  /** The kubelet reports Ready: the not-ready taint goes. */
  record NodeReady(String node) implements Event {
    public int priority() {
      return 0;
    }
  }

  /** Whoever owns a node's startup taints removes them. */
  record StartupTaintsRemoved(String node) implements Event {
    public int priority() {
      return 0;
    }
  }

  /**
   * The NVIDIA device plugin (re-)registers with the kubelet under the config the node's label
   * names; {@code generation} tells a stale registration from a current one.
   */
  record DevicePluginRegisters(String node, long generation) implements Event {
    public int priority() {
      return 0;
    }
  }

  /** mig-parted has worked on a node's GPUs: the MIG manager's reconfiguration finishes. */
  record MigReconfigured(String node) implements Event {
    public int priority() {
      return 0;
    }
  }

  /** An image pull (or container start) finished: the pod's containers start. */
  record PodStarts(String pod, long generation) implements Event {
    public int priority() {
      return 0;
    }
  }

  /** The readiness probe passes. */
  record PodBecomesReady(String pod, long generation) implements Event {
    public int priority() {
      return 0;
    }
  }

  /** A Job's pod ran its course. */
  record PodCompletes(String pod, long generation) implements Event {
    public int priority() {
      return 0;
    }
  }

  /** A terminating pod's containers have exited: it is gone. */
  record PodExits(String pod, long generation) implements Event {
    public int priority() {
      return 0;
    }
  }

  /** The cloud takes a spot instance back, two minutes after its warning. */
  record SpotReclaimed(String claim) implements Event {
    public int priority() {
      return 0;
    }
  }

  /**
   * EC2 stopped or terminated an instance ({@code state} as its state-change notice says). Scheduled
   * with the notice's arrival at the same instant and priority, after it: Karpenter reads the notice first.
   */
  record InstanceStateChanged(String claim, String state) implements Event {
    public int priority() {
      return 1;
    }
  }

  /** A spot interruption warning drawn from the configured rate. */
  record SpotWarningDrawn(String claim) implements Event {
    public int priority() {
      return 0;
    }
  }

  /**
   * A capacity reservation reaches one of its times: it starts, a capacity block becomes expiring
   * (40 minutes before its end) or EC2 starts reclaiming its instances (30 minutes before), or it ends.
   */
  record ReservationBoundary(String reservation) implements Event {
    public int priority() {
      return 0;
    }
  }

  // ---- the scenario ----

  /** The scenario's timeline moves to its next action. */
  record ScenarioStep() implements Event {
    public int priority() {
      return 1;
    }
  }

  /** A message reaches Karpenter's interruption queue. */
  record InterruptionArrives(InterruptionMessage message) implements Event {
    public int priority() {
      return 1;
    }
  }

  // ---- controllers ----

  /** Workload controllers (Deployment, ReplicaSet, StatefulSet, Job, DaemonSet) reconcile. */
  record WorkloadSync() implements Event {
    public int priority() {
      return 2;
    }
  }

  /** Karpenter's lifecycle, termination and disruption-orchestration controllers reconcile. */
  record KarpenterReconcile() implements Event {
    public int priority() {
      return 3;
    }
  }

  /** kube-scheduler drains its queue of pending pods. */
  record ScheduleCycle() implements Event {
    public int priority() {
      return 4;
    }
  }

  /** The provisioner's batch window may have closed. */
  record BatchCheck() implements Event {
    public int priority() {
      return 5;
    }
  }

  /** The disruption controller's periodic run. */
  record DisruptionPoll() implements Event {
    public int priority() {
      return 6;
    }
  }

  /** A proposed disruption's validation delay is over. */
  record DisruptionValidates(String command) implements Event {
    public int priority() {
      return 6;
    }
  }

  /** A scenario's wait-until deadline. */
  record WaitTimeout(int step) implements Event {
    public int priority() {
      return 7;
    }
  }
}
