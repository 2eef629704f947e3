package io.gpufleet.lint.rules;

import io.gpufleet.lint.Finding;
import io.gpufleet.lint.GpuTarget;
import io.gpufleet.lint.LintInput;
import io.gpufleet.lint.LintRule;
import io.gpufleet.lint.Located;
import io.gpufleet.lint.Severity;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.model.karpenter.NodePool;
import java.util.ArrayList;
import java.util.List;

/**
 * A NodePool whose nodes run a time-slicing or MPS device-plugin config: Karpenter sizes launches
 * by physical GPUs, not the replicas the plugin will advertise (kubernetes-sigs/karpenter#729,
 * #2140; aws/karpenter-provider-aws#3376).
 */
public final class SharedPoolSizing implements LintRule {

  @Override
  public String id() {
    return "shared-pool-sizing";
  }

  @Override
  public Severity severity() {
    return Severity.WARNING;
  }

  @Override
  public String summary() {
    return "a NodePool's nodes time-slice or MPS-share their GPUs, which Karpenter does not count when it launches";
  }

  @Override
  public String why() {
    return "Karpenter sizes a launch by the instance type's physical GPUs; the replicas appear only once the device "
        + "plugin registers. Pending replica pods make it buy a GPU each, the extra nodes idle until consolidated, "
        + "and a pod asking for more replicas than an instance has cards never triggers a launch at all.";
  }

  @Override
  public String fix() {
    return "Keep requests at one replica, bound the pool with limits.nvidia.com/gpu, and let WhenEmpty consolidation "
        + "with a short consolidateAfter reclaim the extra nodes; or pre-provision the shared capacity.";
  }

  @Override
  public List<Finding> check(LintInput input) {
    // One finding per pool, from the first of its shared targets.
    PerObject<Located<?>, GpuTarget> pools = new PerObject<>();
    for (GpuTarget t : input.targets()) {
      if (t.source().value() instanceof NodePool && (t.timeSliced() || t.mps())) {
        pools.of(t.source(), () -> t);
      }
    }
    List<Finding> out = new ArrayList<>();
    pools.forEach((pool, t) -> {
      int replicas = (t.mps() ? t.config().mps() : t.config().timeSlicing())
          .flatMap(s -> s.resource("nvidia.com/gpu")).map(r -> r.replicas()).orElse(1);
      out.add(finding(pool, "spec.template.metadata.labels[" + NamedConfigs.NODE_LABEL + "]", "nodes run "
          + "device-plugin config " + t.plugin().name() + " (" + (t.mps() ? "MPS" : "time-slicing") + ", "
          + replicas + " replicas per GPU); Karpenter launches for physical GPUs"));
    });
    return out;
  }
}
