package io.gpufleet.lint.rules;

import io.gpufleet.lint.Finding;
import io.gpufleet.lint.GpuTarget;
import io.gpufleet.lint.LintInput;
import io.gpufleet.lint.LintRule;
import io.gpufleet.lint.PodSite;
import io.gpufleet.lint.Severity;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceName;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * A container asking for more than one {@code nvidia.com/gpu} that may land on time-sliced or MPS
 * GPUs (reference §2.2; NVIDIA/gpu-operator#386).
 */
public final class SharedGpuRequestOverOne implements LintRule {

  @Override
  public String id() {
    return "shared-gpu-request-over-one";
  }

  @Override
  public Severity severity() {
    return Severity.WARNING;
  }

  @Override
  public String summary() {
    return "a container requests more than one nvidia.com/gpu and may land on time-sliced or MPS-shared GPUs";
  }

  @Override
  public String why() {
    return "On a shared card a GPU is a replica: two replicas may be slices of the same physical GPU, with no more "
        + "compute than one (NVIDIA/gpu-operator#386); under MPS (failRequestsGreaterThanOne) the kubelet rejects "
        + "the pod with UnexpectedAdmissionError and it must be recreated by hand.";
  }

  @Override
  public String fix() {
    return "Request one replica per container on shared nodes, or keep multi-GPU pods on exclusive nodes "
        + "(a nodeSelector or a pool without sharing).";
  }

  @Override
  public List<Finding> check(LintInput input) {
    List<Finding> out = new ArrayList<>();
    // Pods of equal constraints share one list of admitting targets: each is filtered once, not per pod.
    Map<List<GpuTarget>, List<GpuTarget>> sharedOf = new IdentityHashMap<>();
    for (PodSite s : input.gpuPodSites()) {
      List<GpuTarget> shared = sharedOf.computeIfAbsent(input.targetsAdmitting(s),
          admitting -> admitting.stream().filter(t -> t.timeSliced() || t.mps()).toList());
      if (shared.isEmpty()) {
        continue;
      }
      GpuRequestEqualsLimit.eachContainer(s, (path, c) -> {
        Quantity n = c.limits().get(ResourceName.NVIDIA_GPU).orElse(c.requests().getOrZero(ResourceName.NVIDIA_GPU));
        if (n.compareTo(Quantity.of(1)) > 0) {
          String side = c.limits().contains(ResourceName.NVIDIA_GPU) ? "limits" : "requests";
          out.add(finding(s.owner(), path + ".resources." + side + "[nvidia.com/gpu]", "container \"" + c.name()
              + "\" asks for " + n + " nvidia.com/gpu and may run on shared GPUs of " + Offerings.sources(shared)));
        }
      });
    }
    return out;
  }
}
