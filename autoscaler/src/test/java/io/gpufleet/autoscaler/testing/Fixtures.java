package io.gpufleet.autoscaler.testing;

import io.gpufleet.model.karpenter.NodeClaimTemplate;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.meta.OwnerReference;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import java.util.List;
import java.util.Optional;

/** Small builders for autoscaler tests. */
public final class Fixtures {
  private Fixtures() {}

  public static final Taint GPU_TAINT = Taint.of("nvidia.com/gpu", "true", TaintEffect.NO_SCHEDULE);

  public static NodePool gpuPool(String name, String... families) {
    return NodePool.of(name, NodeClaimTemplate.of(NodePoolRequirement.in("karpenter.k8s.aws/instance-family", families))
        .withTaints(List.of(GPU_TAINT)));
  }

  public static Pod gpuPod(String name, int gpus) {
    return gpuPod(name, gpus, "1", "4Gi");
  }

  public static Pod gpuPod(String name, int gpus, String cpu, String memory) {
    ResourceList r = ResourceList.of("cpu", cpu, "memory", memory, "nvidia.com/gpu", Integer.toString(gpus));
    PodSpec spec = PodSpec.of(Container.of("main", "vllm:latest", r, ResourceList.of("nvidia.com/gpu",
        Integer.toString(gpus)))).withTolerations(List.of(Toleration.exists("nvidia.com/gpu", TaintEffect.NO_SCHEDULE)));
    return new Pod(new ObjectMeta(name, "default", Labels.of("app", "inference"), Labels.EMPTY,
        Optional.of(new OwnerReference("ReplicaSet", "inference-abc"))), spec);
  }

  public static Pod cpuPod(String name, String cpu, String memory) {
    return new Pod(ObjectMeta.named(name), PodSpec.of(Container.of("main", "app", ResourceList.of("cpu", cpu, "memory",
        memory), ResourceList.EMPTY)));
  }
}
