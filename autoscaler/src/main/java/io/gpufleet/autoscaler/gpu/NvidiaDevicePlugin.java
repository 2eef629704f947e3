package io.gpufleet.autoscaler.gpu;

import io.gpufleet.engine.deviceplugin.GpuOperator;
import io.gpufleet.engine.deviceplugin.Registration;
import io.gpufleet.model.cloud.GpuSpec;
import io.gpufleet.model.cloud.InstanceLabels;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.MigPartedConfig;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.ResourceList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The autoscaler's view of the NVIDIA device plugin: what a node it plans or launches will
 * advertise, as the engine's {@link GpuOperator} registers such a node (config by the node's
 * {@code nvidia.com/device-plugin.config} label, MIG layout by its {@code nvidia.com/mig.config}).
 * Results are kept per config, MIG config, instance type and GPUs, since provisioning asks often.
 */
public final class NvidiaDevicePlugin implements GpuAdvertiser {

  /** No ConfigMaps: every node runs the plugin's built-in defaults (exclusive GPUs). */
  public static final NvidiaDevicePlugin DEFAULTS = new NvidiaDevicePlugin(GpuOperator.DEFAULTS);

  private final GpuOperator operator;
  // A pure function's memo, safe to share between runs and threads (DEFAULTS is shared).
  private final Map<List<Object>, Advertised> memo = new ConcurrentHashMap<>();

  public NvidiaDevicePlugin(GpuOperator operator) {
    this.operator = Objects.requireNonNull(operator, "operator");
  }

  /** One named config, used on every node (the helm {@code single} fallback). */
  public static NvidiaDevicePlugin withConfig(String name, DevicePluginConfig config) {
    return new NvidiaDevicePlugin(GpuOperator.withConfig(name, config));
  }

  /** The engine's device plugin, MIG manager and GFD this view asks. */
  public GpuOperator operator() {
    return operator;
  }

  @Override
  public Advertised advertise(Labels nodeLabels, Optional<GpuSpec> gpus) {
    if (gpus.isEmpty() || !gpus.get().manufacturer().equals("nvidia")) {
      return Advertised.NOTHING;
    }
    // The config the node's labels select (a ConfigMap entry, or a node class's OS plugin) is part of the key.
    List<Object> key = List.of(operator.configs().select(nodeLabels).name(), nodeLabels.get(CONFIG_LABEL).orElse(""),
        nodeLabels.get(MigPartedConfig.CONFIG_LABEL).orElse(""),
        nodeLabels.get(InstanceLabels.INSTANCE_TYPE).orElse(""), gpus.get());
    return memo.computeIfAbsent(key, k -> {
      // A node-to-be with no resources of its own: what it gets is what the plugin advertises.
      Node template = Node.of(nodeLabels.get(InstanceLabels.HOSTNAME).orElse("node"), nodeLabels, List.of(),
          ResourceList.EMPTY);
      Registration r = operator.register(template, gpus);
      return new Advertised(r.advertised(), r.gfdLabels());
    });
  }
}
