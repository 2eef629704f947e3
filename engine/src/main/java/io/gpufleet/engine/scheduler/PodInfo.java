package io.gpufleet.engine.scheduler;

import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodRequests;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A pod with what the scheduler derives from it once: its effective request, and the "non-zero"
 * cpu and memory the scoring plugins use (a container without a cpu or memory request counts as
 * 100m and 200Mi); and whether a node selector or required affinity constrains its nodes at all.
 * {@code startTime} is the bound pod's {@code status.startTime} where known (cluster state, not spec).
 */
public record PodInfo(Pod pod, ResourceVector requests, long nonZeroMilliCpu, long nonZeroMemory,
    boolean nodeConstrained, Optional<Instant> startTime) {

  /** kube-scheduler's {@code DefaultMilliCPURequest}. */
  public static final long DEFAULT_MILLI_CPU_REQUEST = 100;
  /** kube-scheduler's {@code DefaultMemoryRequest}: 200 MiB. */
  public static final long DEFAULT_MEMORY_REQUEST = 200L * 1024 * 1024;

  private static final ResourceList NON_ZERO_DEFAULTS = ResourceList.of("cpu", "100m", "memory", "200Mi");

  public PodInfo {
    Objects.requireNonNull(pod, "pod");
    Objects.requireNonNull(requests, "requests");
    Objects.requireNonNull(startTime, "startTime");
  }

  /** A pod not started (yet): no {@code status.startTime}. */
  public PodInfo(Pod pod, ResourceVector requests, long nonZeroMilliCpu, long nonZeroMemory,
      boolean nodeConstrained) {
    this(pod, requests, nonZeroMilliCpu, nonZeroMemory, nodeConstrained, Optional.empty());
  }

  /**
   * The same pod with its {@code status.startTime}: the kubelet sets it when it admits the pod, and
   * preemption reads it (pkg/scheduler/util MoreImportantPod, GetEarliestPodStartTime).
   */
  public PodInfo startedAt(Instant time) {
    return new PodInfo(pod, requests, nonZeroMilliCpu, nonZeroMemory, nodeConstrained, Optional.of(time));
  }

  /**
   * {@link #of(Pod)} for a pod whose spec is the very object of {@code sameSpec}'s pod (a workload's
   * pods share their template's), the requests worked out of it taken from there; else worked out.
   */
  public static PodInfo of(Pod pod, PodInfo sameSpec) {
    if (sameSpec == null || sameSpec.pod.spec() != pod.spec()) {
      return of(pod);
    }
    return new PodInfo(pod, sameSpec.requests, sameSpec.nonZeroMilliCpu, sameSpec.nonZeroMemory,
        sameSpec.nodeConstrained);
  }

  public static PodInfo of(Pod pod) {
    ResourceVector requests = ResourceVector.of(PodRequests.of(pod.spec()));
    ResourceList nonZero = PodRequests.of(pod.spec(), NON_ZERO_DEFAULTS);
    boolean constrained = !pod.spec().nodeSelector().isEmpty() || pod.spec().nodeAffinity().required().isPresent();
    return new PodInfo(pod, requests, nonZero.getOrZero(ResourceName.CPU).milliValue(),
        nonZero.getOrZero(ResourceName.MEMORY).value(), constrained);
  }

  /** Whether the pod has pod affinity or anti-affinity terms of any kind (upstream's PodsWithAffinity). */
  public boolean hasPodAffinity() {
    return !pod.spec().podAffinity().isEmpty() || !pod.spec().podAntiAffinity().isEmpty();
  }

  /** Whether the pod has required anti-affinity terms (upstream's PodsWithRequiredAntiAffinity). */
  public boolean hasRequiredAntiAffinity() {
    return !pod.spec().podAntiAffinity().required().isEmpty();
  }

  public String key() {
    return pod.key();
  }

  public String name() {
    return pod.name();
  }
}
