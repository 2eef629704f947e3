package io.gpufleet.lint.rules;

import io.gpufleet.lint.Finding;
import io.gpufleet.lint.GpuTarget;
import io.gpufleet.lint.LintInput;
import io.gpufleet.lint.LintRule;
import io.gpufleet.lint.PodSite;
import io.gpufleet.lint.Severity;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.Tolerations;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** A GPU pod that tolerates the taints of none of the input's GPU nodes and NodePools. */
public final class GpuPodUntolerated implements LintRule {

  @Override
  public String id() {
    return "gpu-pod-untolerated";
  }

  @Override
  public Severity severity() {
    return Severity.ERROR;
  }

  @Override
  public String summary() {
    return "a GPU pod has no toleration for the taints of any GPU node or NodePool in the input";
  }

  @Override
  public String why() {
    return "GPU nodes are tainted so that only GPU pods land there; a GPU pod without the matching toleration "
        + "fits no GPU node, stays Pending, and Karpenter will not launch one for it either. The API server's "
        + "ExtendedResourceToleration (on in EKS) tolerates only taints keyed by a resource the pod requests, "
        + "such as nvidia.com/gpu.";
  }

  @Override
  public String fix() {
    return "Add a toleration for the GPU node's taint, e.g. {key: dedicated, value: gpu, effect: NoSchedule}; where "
        + "ExtendedResourceToleration is off, also {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}.";
  }

  @Override
  public List<Finding> check(LintInput input) {
    List<Finding> out = new ArrayList<>();
    if (input.targets().isEmpty()) {
      return out;
    }
    for (PodSite site : input.gpuPodSites()) {
      TreeSet<String> untolerated = new TreeSet<>();
      boolean someTolerated = false;
      for (GpuTarget t : input.targets()) {
        List<Taint> blocking = t.taints().stream().filter(x -> x.effect().blocksScheduling()
            && !Tolerations.tolerates(site.spec().tolerations(), x)).toList();
        if (blocking.isEmpty()) {
          someTolerated = true;
          break;
        }
        blocking.forEach(x -> untolerated.add(x.toString()));
      }
      if (!someTolerated) {
        out.add(finding(site.owner(), site.field("tolerations"), "requests GPUs but tolerates none of the GPU taints "
            + String.join(", ", untolerated) + " of " + Offerings.sources(input.targets())));
      }
    }
    return out;
  }
}
