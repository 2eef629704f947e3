package io.gpufleet.lint.rules;

import io.gpufleet.lint.Finding;
import io.gpufleet.lint.LintInput;
import io.gpufleet.lint.LintRule;
import io.gpufleet.lint.Located;
import io.gpufleet.lint.Severity;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.taint.Taint;
import java.util.ArrayList;
import java.util.List;

/** GPU Nodes and GPU NodePools without a NoSchedule or NoExecute taint. */
public final class GpuCapacityUntainted implements LintRule {

  @Override
  public String id() {
    return "gpu-capacity-untainted";
  }

  @Override
  public Severity severity() {
    return Severity.WARNING;
  }

  @Override
  public String summary() {
    return "a GPU Node or a NodePool that launches GPU instances has no NoSchedule/NoExecute taint";
  }

  @Override
  public String why() {
    return "Without a taint any pod lands on the expensive GPU node: CPU pods take its CPU and memory so GPU pods no "
        + "longer fit, and they keep the node from ever being empty, so it is never scaled down.";
  }

  @Override
  public String fix() {
    return "Taint GPU capacity, e.g. {key: nvidia.com/gpu, value: \"true\", effect: NoSchedule} in the NodePool's "
        + "spec.template.spec.taints, and give GPU pods the matching toleration.";
  }

  @Override
  public List<Finding> check(LintInput input) {
    List<Finding> out = new ArrayList<>();
    for (Located<Node> n : input.gpuNodes()) {
      boolean pooled = n.value().labels().get(KarpenterLabels.NODEPOOL)
          .filter(p -> input.nodePools().stream().anyMatch(lp -> lp.value().name().equals(p))).isPresent();
      if (!pooled && !blocking(n.value().taints())) {
        out.add(finding(n, "spec.taints", "GPU node has no NoSchedule or NoExecute taint"));
      }
    }
    for (Located<NodePool> p : input.gpuNodePools()) {
      if (!blocking(p.value().template().taints())) {
        out.add(finding(p, "spec.template.spec.taints", "NodePool launches GPU instances ("
            + Offerings.describe(input, p) + ") with no NoSchedule or NoExecute taint"));
      }
    }
    return out;
  }

  private static boolean blocking(List<Taint> taints) {
    return taints.stream().anyMatch(t -> t.effect().blocksScheduling());
  }
}
