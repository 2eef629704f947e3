package io.gpufleet.engine.scheduler;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import java.util.ArrayList;
import java.util.List;

/** Small builders for scheduler tests. */
final class Fixtures {
  private Fixtures() {}

  static final Taint GPU_TAINT = Taint.of("nvidia.com/gpu", "true", TaintEffect.NO_SCHEDULE);
  static final Toleration GPU_TOLERATION = Toleration.exists("nvidia.com/gpu", TaintEffect.NO_SCHEDULE);

  static Node node(String name, String cpu, String memory, int gpus, Labels labels, Taint... taints) {
    List<String> res = new ArrayList<>(List.of("cpu", cpu, "memory", memory, "pods", "110"));
    if (gpus > 0) {
      res.add("nvidia.com/gpu");
      res.add(Integer.toString(gpus));
    }
    return Node.of(name, labels, List.of(taints), ResourceList.of(res.toArray(String[]::new)));
  }

  static Node cpuNode(String name) {
    return node(name, "4", "16Gi", 0, Labels.EMPTY);
  }

  static Node gpuNode(String name, int gpus) {
    return node(name, "8", "32Gi", gpus, Labels.of("nvidia.com/gpu.product", "NVIDIA-A10G"), GPU_TAINT);
  }

  static Pod pod(String name, String cpu, String memory, int gpus, Toleration... tolerations) {
    ResourceList requests = cpu == null ? ResourceList.EMPTY : ResourceList.of("cpu", cpu, "memory", memory);
    ResourceList limits = gpus > 0 ? ResourceList.of("nvidia.com/gpu", Integer.toString(gpus)) : ResourceList.EMPTY;
    PodSpec spec = PodSpec.of(Container.of("main", "img", requests, limits)).withTolerations(List.of(tolerations));
    return new Pod(ObjectMeta.named(name), spec);
  }

  static Pod gpuPod(String name, int gpus) {
    return pod(name, "1", "2Gi", gpus, GPU_TOLERATION);
  }
}
