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
 * A GPU Node or NodePool whose device-plugin config cannot be chosen: its
 * {@code nvidia.com/device-plugin.config} label names a config the ConfigMap does not hold, or no
 * label, default or fallback picks one (reference §2.3; NVIDIA/k8s-device-plugin#364).
 */
public final class DevicePluginConfigMissing implements LintRule {

  @Override
  public String id() {
    return "device-plugin-config-missing";
  }

  @Override
  public Severity severity() {
    return Severity.ERROR;
  }

  @Override
  public String summary() {
    return "a GPU Node or NodePool selects a device-plugin config the ConfigMap does not hold";
  }

  @Override
  public String why() {
    return "The plugin's config-manager cannot start the plugin without a config: the node advertises no "
        + "nvidia.com/gpu at all, so it never counts as initialised and every GPU pod avoids it.";
  }

  @Override
  public String fix() {
    return "Set " + NamedConfigs.NODE_LABEL + " to a key of the device-plugin ConfigMap, or add that key, or name a "
        + "default (helm config.default; gpufleet.io/default-config on the ConfigMap).";
  }

  @Override
  public List<Finding> check(LintInput input) {
    // One finding per Node or NodePool (a pool has a target per instance type), in input order.
    PerObject<Located<?>, String> failed = new PerObject<>();
    for (GpuTarget t : input.targets()) {
      t.plugin().error().ifPresent(e -> failed.of(t.source(), () -> e));
    }
    List<Finding> out = new ArrayList<>();
    failed.forEach((source, error) -> {
      String prefix = source.value() instanceof NodePool ? "spec.template.metadata" : "metadata";
      out.add(finding(source, prefix + ".labels[" + NamedConfigs.NODE_LABEL + "]", error));
    });
    return out;
  }
}
