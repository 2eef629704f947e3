package io.gpufleet.lint.rules;

import io.gpufleet.lint.Finding;
import io.gpufleet.lint.GpuTarget;
import io.gpufleet.lint.LintInput;
import io.gpufleet.lint.LintRule;
import io.gpufleet.lint.Located;
import io.gpufleet.lint.Severity;
import io.gpufleet.model.deviceplugin.MigPartedConfig;
import io.gpufleet.model.karpenter.NodePool;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A Node or NodePool that asks the MIG manager for a MIG layout ({@code nvidia.com/mig.config})
 * on GPUs the catalogue says have no MIG.
 */
public final class MigConfigWithoutMig implements LintRule {

  /** mig-parted's stock config that turns MIG off: valid on every GPU. */
  static final String DISABLED = "all-disabled";

  @Override
  public String id() {
    return "mig-config-without-mig";
  }

  @Override
  public Severity severity() {
    return Severity.ERROR;
  }

  @Override
  public String summary() {
    return "a Node or NodePool sets nvidia.com/mig.config on GPUs without MIG (A10G, L4, L40S, T4, ...)";
  }

  @Override
  public String why() {
    return "MIG exists on A100, A30, H100, H200, B200 and newer only; on other cards the MIG manager cannot apply "
        + "the layout (mig.config.state failed) and no nvidia.com/mig-* resource ever appears, so pods asking for "
        + "slices stay Pending.";
  }

  @Override
  public String fix() {
    return "Remove the label (or use all-disabled), and share these cards by time-slicing or MPS; put MIG layouts "
        + "on MIG-capable instance types (p4d, p5, p5e, ...).";
  }

  /** The layout a Node or NodePool asks for, and the GPU models without MIG it would be applied to. */
  private record Ask(String config, TreeSet<String> models) {}

  @Override
  public List<Finding> check(LintInput input) {
    // One finding per Node or NodePool, whose targets may hold several GPU models.
    PerObject<Located<?>, Ask> asks = new PerObject<>();
    for (GpuTarget t : input.targets()) {
      Optional<String> config = t.labels().get(MigPartedConfig.CONFIG_LABEL).filter(c -> !c.equals(DISABLED));
      if (config.isEmpty() || t.gpu().isEmpty() || t.gpu().get().migCapable()) {
        continue;
      }
      asks.of(t.source(), () -> new Ask(config.get(), new TreeSet<>())).models().add(t.gpu().get().productLabel());
    }
    List<Finding> out = new ArrayList<>();
    asks.forEach((source, ask) -> {
      String field = (isPool(source) ? "spec.template.metadata" : "metadata") + ".labels[" + MigPartedConfig.CONFIG_LABEL
          + "]";
      out.add(finding(source, field, "asks for MIG layout \"" + ask.config() + "\" on "
          + String.join(", ", ask.models()) + ", which has no MIG"));
    });
    return out;
  }

  private static boolean isPool(Located<?> source) {
    return source.value() instanceof NodePool;
  }
}
