package io.gpufleet.engine.deviceplugin;

import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import java.util.List;

/** Small builders shared by the device-plugin tests. */
final class Fixtures {
  private Fixtures() {}

  static GpuModel gpu(String id) {
    return GpuCatalog.builtIn().byId(id).orElseThrow();
  }

  static GpuInventory inventory(String node, String model, int count) {
    return new GpuInventory(node, gpu(model), count);
  }

  static Node node(String name) {
    return Node.of(name, Labels.EMPTY, List.of(), ResourceList.of("cpu", "8", "memory", "32Gi", "pods", "110"));
  }

  /** A pod with one container asking for {@code n} of a resource. */
  static Pod gpuPod(String name, String resource, int n) {
    ResourceList limits = ResourceList.of("cpu", "1", resource, Integer.toString(n));
    return new Pod(ObjectMeta.named(name), PodSpec.of(Container.of("main", "vllm", limits, limits)));
  }
}
