package io.gpufleet.model.pod;

import io.gpufleet.model.affinity.NodeAffinity;
import io.gpufleet.model.affinity.PodAffinity;
import io.gpufleet.model.dra.PodResourceClaim;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Toleration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** The parts of a pod spec that decide where, whether and how long a pod runs. */
public record PodSpec(
    List<Container> containers,
    List<Container> initContainers,
    ResourceList overhead,
    Labels nodeSelector,
    NodeAffinity nodeAffinity,
    List<Toleration> tolerations,
    Optional<String> nodeName,
    int priority,
    Optional<String> priorityClassName,
    PreemptionPolicy preemptionPolicy,
    long terminationGracePeriodSeconds,
    String schedulerName,
    List<TopologySpreadConstraint> topologySpreadConstraints,
    PodAffinity podAffinity,
    PodAffinity podAntiAffinity,
    List<PodResourceClaim> resourceClaims,
    List<String> schedulingGates,
    Optional<String> runtimeClassName) {

  /** The API server's default grace period. */
  public static final long DEFAULT_TERMINATION_GRACE_SECONDS = 30;
  public static final String DEFAULT_SCHEDULER = "default-scheduler";

  public PodSpec {
    containers = List.copyOf(containers);
    initContainers = List.copyOf(initContainers);
    overhead = overhead == null ? ResourceList.EMPTY : overhead;
    nodeSelector = nodeSelector == null ? Labels.EMPTY : nodeSelector;
    nodeAffinity = nodeAffinity == null ? NodeAffinity.NONE : nodeAffinity;
    tolerations = List.copyOf(tolerations);
    nodeName = nodeName == null ? Optional.empty() : nodeName;
    priorityClassName = priorityClassName == null ? Optional.empty() : priorityClassName;
    preemptionPolicy = preemptionPolicy == null ? PreemptionPolicy.PREEMPT_LOWER_PRIORITY : preemptionPolicy;
    schedulerName = schedulerName == null || schedulerName.isEmpty() ? DEFAULT_SCHEDULER : schedulerName;
    topologySpreadConstraints = topologySpreadConstraints == null ? List.of() : List.copyOf(topologySpreadConstraints);
    podAffinity = podAffinity == null ? PodAffinity.NONE : podAffinity;
    podAntiAffinity = podAntiAffinity == null ? PodAffinity.NONE : podAntiAffinity;
    resourceClaims = resourceClaims == null ? List.of() : List.copyOf(resourceClaims);
    schedulingGates = schedulingGates == null ? List.of() : List.copyOf(schedulingGates);
    runtimeClassName = runtimeClassName == null ? Optional.empty() : runtimeClassName;
  }

  /** A spec without scheduling gates or a RuntimeClass. */
  public PodSpec(List<Container> containers, List<Container> initContainers, ResourceList overhead,
      Labels nodeSelector, NodeAffinity nodeAffinity, List<Toleration> tolerations, Optional<String> nodeName,
      int priority, Optional<String> priorityClassName, PreemptionPolicy preemptionPolicy,
      long terminationGracePeriodSeconds, String schedulerName, List<TopologySpreadConstraint> topologySpreadConstraints,
      PodAffinity podAffinity, PodAffinity podAntiAffinity, List<PodResourceClaim> resourceClaims) {
    this(containers, initContainers, overhead, nodeSelector, nodeAffinity, tolerations, nodeName, priority,
        priorityClassName, preemptionPolicy, terminationGracePeriodSeconds, schedulerName, topologySpreadConstraints,
        podAffinity, podAntiAffinity, resourceClaims, List.of(), Optional.empty());
  }

  /** A spec without DRA resource claims. */
  public PodSpec(List<Container> containers, List<Container> initContainers, ResourceList overhead,
      Labels nodeSelector, NodeAffinity nodeAffinity, List<Toleration> tolerations, Optional<String> nodeName,
      int priority, Optional<String> priorityClassName, PreemptionPolicy preemptionPolicy,
      long terminationGracePeriodSeconds, String schedulerName, List<TopologySpreadConstraint> topologySpreadConstraints,
      PodAffinity podAffinity, PodAffinity podAntiAffinity) {
    this(containers, initContainers, overhead, nodeSelector, nodeAffinity, tolerations, nodeName, priority,
        priorityClassName, preemptionPolicy, terminationGracePeriodSeconds, schedulerName, topologySpreadConstraints,
        podAffinity, podAntiAffinity, List.of());
  }

  /** A spec without topology spread constraints. */
  public PodSpec(List<Container> containers, List<Container> initContainers, ResourceList overhead,
      Labels nodeSelector, NodeAffinity nodeAffinity, List<Toleration> tolerations, Optional<String> nodeName,
      int priority, Optional<String> priorityClassName, PreemptionPolicy preemptionPolicy,
      long terminationGracePeriodSeconds, String schedulerName) {
    this(containers, initContainers, overhead, nodeSelector, nodeAffinity, tolerations, nodeName, priority,
        priorityClassName, preemptionPolicy, terminationGracePeriodSeconds, schedulerName, List.of(), PodAffinity.NONE,
        PodAffinity.NONE);
  }

  /** A spec with these containers and every other field at its default. */
  public static PodSpec of(Container... containers) {
    return new PodSpec(List.of(containers), List.of(), ResourceList.EMPTY, Labels.EMPTY, NodeAffinity.NONE,
        List.of(), Optional.empty(), 0, Optional.empty(), PreemptionPolicy.PREEMPT_LOWER_PRIORITY,
        DEFAULT_TERMINATION_GRACE_SECONDS, DEFAULT_SCHEDULER);
  }

  public PodSpec withNodeSelector(Labels selector) {
    return new PodSpec(containers, initContainers, overhead, selector, nodeAffinity, tolerations, nodeName,
        priority, priorityClassName, preemptionPolicy, terminationGracePeriodSeconds, schedulerName, topologySpreadConstraints,
        podAffinity, podAntiAffinity, resourceClaims, schedulingGates, runtimeClassName);
  }

  public PodSpec withNodeAffinity(NodeAffinity affinity) {
    return new PodSpec(containers, initContainers, overhead, nodeSelector, affinity, tolerations, nodeName,
        priority, priorityClassName, preemptionPolicy, terminationGracePeriodSeconds, schedulerName, topologySpreadConstraints,
        podAffinity, podAntiAffinity, resourceClaims, schedulingGates, runtimeClassName);
  }

  public PodSpec withTolerations(List<Toleration> newTolerations) {
    return new PodSpec(containers, initContainers, overhead, nodeSelector, nodeAffinity, newTolerations, nodeName,
        priority, priorityClassName, preemptionPolicy, terminationGracePeriodSeconds, schedulerName, topologySpreadConstraints,
        podAffinity, podAntiAffinity, resourceClaims, schedulingGates, runtimeClassName);
  }

  public PodSpec withNodeName(String node) {
    return new PodSpec(containers, initContainers, overhead, nodeSelector, nodeAffinity, tolerations,
        Optional.ofNullable(node), priority, priorityClassName, preemptionPolicy, terminationGracePeriodSeconds,
        schedulerName, topologySpreadConstraints,
        podAffinity, podAntiAffinity, resourceClaims, schedulingGates, runtimeClassName);
  }

  public PodSpec withInitContainers(List<Container> inits) {
    return new PodSpec(containers, inits, overhead, nodeSelector, nodeAffinity, tolerations, nodeName,
        priority, priorityClassName, preemptionPolicy, terminationGracePeriodSeconds, schedulerName, topologySpreadConstraints,
        podAffinity, podAntiAffinity, resourceClaims, schedulingGates, runtimeClassName);
  }

  public PodSpec withOverhead(ResourceList newOverhead) {
    return new PodSpec(containers, initContainers, newOverhead, nodeSelector, nodeAffinity, tolerations, nodeName,
        priority, priorityClassName, preemptionPolicy, terminationGracePeriodSeconds, schedulerName, topologySpreadConstraints,
        podAffinity, podAntiAffinity, resourceClaims, schedulingGates, runtimeClassName);
  }

  public PodSpec withPriority(int newPriority) {
    return new PodSpec(containers, initContainers, overhead, nodeSelector, nodeAffinity, tolerations, nodeName,
        newPriority, priorityClassName, preemptionPolicy, terminationGracePeriodSeconds, schedulerName, topologySpreadConstraints,
        podAffinity, podAntiAffinity, resourceClaims, schedulingGates, runtimeClassName);
  }

  /** The policy the Priority admission plugin computes from the pod's class. */
  public PodSpec withPreemptionPolicy(PreemptionPolicy policy) {
    return new PodSpec(containers, initContainers, overhead, nodeSelector, nodeAffinity, tolerations, nodeName,
        priority, priorityClassName, policy, terminationGracePeriodSeconds, schedulerName, topologySpreadConstraints,
        podAffinity, podAntiAffinity, resourceClaims, schedulingGates, runtimeClassName);
  }

  /** The class name admission writes into a pod that named none (the globalDefault class). */
  public PodSpec withPriorityClassName(String name) {
    return new PodSpec(containers, initContainers, overhead, nodeSelector, nodeAffinity, tolerations, nodeName,
        priority, Optional.of(name), preemptionPolicy, terminationGracePeriodSeconds, schedulerName,
        topologySpreadConstraints, podAffinity, podAntiAffinity, resourceClaims, schedulingGates, runtimeClassName);
  }

  public PodSpec withTerminationGracePeriodSeconds(long seconds) {
    return new PodSpec(containers, initContainers, overhead, nodeSelector, nodeAffinity, tolerations, nodeName,
        priority, priorityClassName, preemptionPolicy, seconds, schedulerName, topologySpreadConstraints,
        podAffinity, podAntiAffinity, resourceClaims, schedulingGates, runtimeClassName);
  }

  public PodSpec withTopologySpreadConstraints(List<TopologySpreadConstraint> constraints) {
    return new PodSpec(containers, initContainers, overhead, nodeSelector, nodeAffinity, tolerations, nodeName,
        priority, priorityClassName, preemptionPolicy, terminationGracePeriodSeconds, schedulerName, constraints,
        podAffinity, podAntiAffinity, resourceClaims, schedulingGates, runtimeClassName);
  }

  public PodSpec withPodAffinity(PodAffinity affinity, PodAffinity antiAffinity) {
    return new PodSpec(containers, initContainers, overhead, nodeSelector, nodeAffinity, tolerations, nodeName,
        priority, priorityClassName, preemptionPolicy, terminationGracePeriodSeconds, schedulerName,
        topologySpreadConstraints, affinity, antiAffinity, resourceClaims, schedulingGates, runtimeClassName);
  }

  public PodSpec withResourceClaims(List<PodResourceClaim> claims) {
    return new PodSpec(containers, initContainers, overhead, nodeSelector, nodeAffinity, tolerations, nodeName,
        priority, priorityClassName, preemptionPolicy, terminationGracePeriodSeconds, schedulerName,
        topologySpreadConstraints, podAffinity, podAntiAffinity, claims, schedulingGates, runtimeClassName);
  }

  /** The gates of {@code spec.schedulingGates}: while any remains, kube-scheduler does not schedule the pod. */
  public PodSpec withSchedulingGates(List<String> gates) {
    return new PodSpec(containers, initContainers, overhead, nodeSelector, nodeAffinity, tolerations, nodeName,
        priority, priorityClassName, preemptionPolicy, terminationGracePeriodSeconds, schedulerName,
        topologySpreadConstraints, podAffinity, podAntiAffinity, resourceClaims, gates, runtimeClassName);
  }

  public PodSpec withRuntimeClassName(Optional<String> name) {
    return new PodSpec(containers, initContainers, overhead, nodeSelector, nodeAffinity, tolerations, nodeName,
        priority, priorityClassName, preemptionPolicy, terminationGracePeriodSeconds, schedulerName,
        topologySpreadConstraints, podAffinity, podAntiAffinity, resourceClaims, schedulingGates, name);
  }

  /** Every container's host ports, init containers first (NodePorts' {@code getContainerPorts}). */
  public List<ContainerPort> hostPorts() {
    return Stream.concat(initContainers.stream(), containers.stream())
        .flatMap(c -> c.ports().stream()).filter(p -> p.hostPort() > 0).toList();
  }

  /**
   * The record's usual text, without {@code topologySpreadConstraints}, {@code podAffinity},
   * {@code podAntiAffinity}, {@code resourceClaims}, {@code schedulingGates} and {@code runtimeClassName}
   * while they are empty: a pod
   * template's hash is taken over its text, and a template that writes no constraints keeps the
   * hash (so the pod names) it had before the field was modelled.
   */
  @Override
  public String toString() {
    String text = "PodSpec[containers=" + containers + ", initContainers=" + initContainers + ", overhead=" + overhead
        + ", nodeSelector=" + nodeSelector + ", nodeAffinity=" + nodeAffinity + ", tolerations=" + tolerations
        + ", nodeName=" + nodeName + ", priority=" + priority + ", priorityClassName=" + priorityClassName
        + ", preemptionPolicy=" + preemptionPolicy + ", terminationGracePeriodSeconds=" + terminationGracePeriodSeconds
        + ", schedulerName=" + schedulerName;
    return text + (topologySpreadConstraints.isEmpty() ? "" : ", topologySpreadConstraints=" + topologySpreadConstraints)
        + (podAffinity.isEmpty() ? "" : ", podAffinity=" + podAffinity)
        + (podAntiAffinity.isEmpty() ? "" : ", podAntiAffinity=" + podAntiAffinity)
        + (resourceClaims.isEmpty() ? "" : ", resourceClaims=" + resourceClaims)
        + (schedulingGates.isEmpty() ? "" : ", schedulingGates=" + schedulingGates)
        + (runtimeClassName.isEmpty() ? "" : ", runtimeClassName=" + runtimeClassName) + "]";
  }

  /** Every image the pod pulls, init containers first. */
  public List<String> images() {
    // A loop, not a stream: the kubelet asks at every pod start, of a container or two.
    List<String> out = new ArrayList<>(initContainers.size() + containers.size());
    for (List<Container> list : List.of(initContainers, containers)) {
      for (Container c : list) {
        if (!c.image().isEmpty() && !out.contains(c.image())) {
          out.add(c.image());
        }
      }
    }
    return List.copyOf(out);
  }
}
