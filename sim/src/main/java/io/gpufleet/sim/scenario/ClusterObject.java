package io.gpufleet.sim.scenario;

import io.gpufleet.model.dra.DraObject;
import io.gpufleet.model.karpenter.EC2NodeClass;
import io.gpufleet.model.karpenter.NodeOverlay;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.workload.PodDisruptionBudget;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.queue.api.KueueState;
import java.time.Instant;
import java.util.Optional;

/**
 * An object a scenario puts into the cluster. A Node labelled {@code karpenter.sh/nodepool} with a
 * known NodePool and instance type is adopted as a Karpenter-managed, initialised NodeClaim.
 */
public sealed interface ClusterObject {

  /**
   * A Node, with the Karpenter NodeClaim the same input binds to it ({@code status.nodeName} or
   * {@code status.providerID}), when there is one: the node is adopted under that claim's name.
   */
  record NodeObject(Node node, Optional<ObservedClaim> claim) implements ClusterObject {
    public NodeObject(Node node) {
      this(node, Optional.empty());
    }
  }

  /**
   * A {@code karpenter.sh/v1 NodeClaim} of a dump, as far as the twin resumes it: its name and its
   * labels (NodePool, instance type, capacity type, zone), which fill in what its Node leaves out.
   */
  record ObservedClaim(String name, Labels labels) {}

  /**
   * A pod; {@code running} when a cluster dump records it {@code Running} on its node: its containers
   * already run, so its kubelet resumes it as running at once rather than starting it anew.
   * {@code started}: its {@code status.startTime} on the run's clock (the dump's time is the run's
   * start), from which a resumed Job pod runs only what is left of its run time.
   */
  record PodObject(Pod pod, boolean running, Optional<Instant> started) implements ClusterObject {
    public PodObject(Pod pod, boolean running) {
      this(pod, running, Optional.empty());
    }

    public PodObject(Pod pod) {
      this(pod, false);
    }
  }

  /** A pod of a cluster dump that ran to completion: it holds nothing and runs no more, but its Job counts it. */
  record SucceededPodObject(Pod pod) implements ClusterObject {}

  /**
   * A workload; {@code started}: a Job's {@code status.startTime} on the run's clock, the start of
   * a running pod of it that records none of its own.
   */
  record WorkloadObject(Workload workload, Optional<Instant> started) implements ClusterObject {
    public WorkloadObject(Workload workload) {
      this(workload, Optional.empty());
    }
  }

  record PdbObject(PodDisruptionBudget pdb) implements ClusterObject {}

  record NodePoolObject(NodePool nodePool) implements ClusterObject {}

  /** A {@code karpenter.sh/v1alpha1} NodeOverlay: honoured when the NodeOverlay feature gate is on. */
  record NodeOverlayObject(NodeOverlay overlay) implements ClusterObject {}

  /** A {@code karpenter.k8s.aws/v1} EC2NodeClass: its kubelet settings and root volume shape its nodes. */
  record NodeClassObject(EC2NodeClass nodeClass) implements ClusterObject {}

  /** A {@code resource.k8s.io/v1} DeviceClass, ResourceClaim, ResourceClaimTemplate or ResourceSlice. */
  record DraObjectValue(DraObject object) implements ClusterObject {}

  /**
   * Kueue's objects (ResourceFlavors, ClusterQueues, Cohorts, LocalQueues; no Workloads: the
   * simulated Kueue makes those from the Jobs it sees created). With them a Job labelled
   * {@code kueue.x-k8s.io/queue-name} is held suspended until Kueue admits it. Kueue's manager
   * Configuration comes with them ({@link KueueState#configuration}).
   */
  record KueueObjects(KueueState objects) implements ClusterObject {}

  static ClusterObject of(Workload w) {
    return new WorkloadObject(w);
  }

  static ClusterObject of(PodDisruptionBudget b) {
    return new PdbObject(b);
  }

  static ClusterObject of(NodePool p) {
    return new NodePoolObject(p);
  }

  static ClusterObject of(NodeOverlay o) {
    return new NodeOverlayObject(o);
  }

  static ClusterObject of(Node n) {
    return new NodeObject(n);
  }

  static ClusterObject of(Pod p) {
    return new PodObject(p);
  }
}
