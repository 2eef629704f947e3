package io.gpufleet.queue.api;

import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import java.util.Optional;

/**
 * A group of identical pods of a workload ({@code PodSet}): how many, each pod's requests (as
 * {@code workload.NewInfo} sums a pod's containers), and the pod template's scheduling fields a
 * flavor is matched against (node selector, required node affinity, tolerations), and its topology
 * request, if any.
 */
public record PodSet(String name, int count, ResourceList requests, PodSpec template,
    Optional<TopologyRequest> topologyRequest) {

  public PodSet(String name, int count, ResourceList requests, PodSpec template) {
    this(name, count, requests, template, Optional.empty());
  }

  /** Kueue's {@code kueue.DefaultPodSetName}. */
  public static final String MAIN = "main";

  public static PodSet of(String name, int count, ResourceList requests) {
    return new PodSet(name, count, requests, PodSpec.of());
  }

  public PodSet withTemplate(PodSpec spec) {
    return new PodSet(name, count, requests, spec, topologyRequest);
  }

  public PodSet withTopologyRequest(TopologyRequest request) {
    return new PodSet(name, count, requests, template, Optional.of(request));
  }
}
