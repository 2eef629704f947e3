package io.gpufleet.lint.rules;

import io.gpufleet.lint.Finding;
import io.gpufleet.lint.LintInput;
import io.gpufleet.lint.LintRule;
import io.gpufleet.lint.Located;
import io.gpufleet.lint.Severity;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.resource.ResourceName;
import java.util.ArrayList;
import java.util.List;

/** A NodePool that can launch GPU instances without {@code limits.nvidia.com/gpu}. */
public final class GpuNodePoolWithoutLimit implements LintRule {

  @Override
  public String id() {
    return "gpu-nodepool-without-limit";
  }

  @Override
  public Severity severity() {
    return Severity.WARNING;
  }

  @Override
  public String summary() {
    return "a NodePool that launches GPU instances sets no limits.nvidia.com/gpu";
  }

  @Override
  public String why() {
    return "Karpenter launches whatever pending pods ask for; without a GPU limit a runaway Deployment or a burst of "
        + "Jobs buys GPU nodes without bound, and GPU nodes are the largest line on the bill.";
  }

  @Override
  public String fix() {
    return "Set spec.limits: {nvidia.com/gpu: N} on the NodePool, N the most GPUs you mean to pay for at once.";
  }

  @Override
  public List<Finding> check(LintInput input) {
    List<Finding> out = new ArrayList<>();
    for (Located<NodePool> p : input.gpuNodePools()) {
      if (!p.value().limits().contains(ResourceName.NVIDIA_GPU)) {
        out.add(finding(p, "spec.limits[nvidia.com/gpu]", "NodePool launches GPU instances ("
            + Offerings.describe(input, p) + ") with no nvidia.com/gpu limit"));
      }
    }
    return out;
  }
}
