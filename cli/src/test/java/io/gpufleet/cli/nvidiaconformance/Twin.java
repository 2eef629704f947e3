package io.gpufleet.cli.nvidiaconformance;

import io.gpufleet.engine.deviceplugin.DeviceAllocation;
import io.gpufleet.engine.deviceplugin.DevicePlugin;
import io.gpufleet.engine.deviceplugin.Registration;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.gpu.MigLayout;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import java.util.List;

/** A node of the twin registered under a config, and pods asking it for devices. */
final class Twin {
  private Twin() {}

  static Registration register(String gpu, int count, DevicePluginConfig config, MigLayout layout) {
    GpuInventory inventory = new GpuInventory("n1", GpuCatalog.builtIn().byId(gpu).orElseThrow(), count);
    Node node = Node.of("n1", Labels.EMPTY, List.of(), ResourceList.of("cpu", "8", "memory", "32Gi"));
    return DevicePlugin.register(node, inventory, config, layout);
  }

  static Pod pod(String resource, int n) {
    ResourceList limits = ResourceList.of("cpu", "1", resource, Integer.toString(n));
    return new Pod(ObjectMeta.named("p"), PodSpec.of(Container.of("main", "img", limits, limits)));
  }

  static DeviceAllocation.Result allocate(Registration r, String resource, int n) {
    return DeviceAllocation.allocate(r.devices().orElseThrow(), pod(resource, n));
  }

  static Labels gfd(Registration r) {
    return r.node().labels();
  }
}
