package io.gpufleet.sim.testing;

import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.Disruption;
import io.gpufleet.model.karpenter.NodeClaimTemplate;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.model.workload.IntOrPercent;
import io.gpufleet.model.workload.PodDisruptionBudget;
import io.gpufleet.model.workload.PodTemplate;
import io.gpufleet.model.workload.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Builders for the cluster objects of simulation tests. */
public final class Objects {
  private Objects() {}

  public static final Taint GPU_TAINT = Taint.of("nvidia.com/gpu", "true", TaintEffect.NO_SCHEDULE);

  /** A GPU NodePool over instance families, tainted for GPU pods, with the given capacity types. */
  public static NodePool gpuPool(String name, List<String> families, String... capacityTypes) {
    List<NodePoolRequirement> reqs = new ArrayList<>();
    reqs.add(new NodePoolRequirement("karpenter.k8s.aws/instance-family",
        io.gpufleet.model.karpenter.RequirementOperator.IN, families, java.util.OptionalInt.empty()));
    if (capacityTypes.length > 0) {
      reqs.add(NodePoolRequirement.in("karpenter.sh/capacity-type", capacityTypes));
    }
    return NodePool.of(name, NodeClaimTemplate.of().withRequirements(reqs).withTaints(List.of(GPU_TAINT)));
  }

  public static NodePool withPolicy(NodePool p, ConsolidationPolicy policy, Duration consolidateAfter) {
    return p.withDisruption(new Disruption(policy, Optional.of(consolidateAfter), p.disruption().budgets()));
  }

  public static NodePool withRequirement(NodePool p, NodePoolRequirement r) {
    List<NodePoolRequirement> reqs = new ArrayList<>(p.template().requirements());
    reqs.add(r);
    return p.withTemplate(p.template().withRequirements(reqs));
  }

  public static PodSpec gpuSpec(int gpus, String cpu, String memory, String image) {
    ResourceList req = ResourceList.of("cpu", cpu, "memory", memory, "nvidia.com/gpu", Integer.toString(gpus));
    return PodSpec.of(Container.of("server", image, req, ResourceList.of("nvidia.com/gpu", Integer.toString(gpus))))
        .withTolerations(List.of(Toleration.exists("nvidia.com/gpu", TaintEffect.NO_SCHEDULE)));
  }

  /** A GPU inference Deployment, with optional traffic annotations. */
  public static Workload.Deployment inference(String name, int replicas, int gpus, Labels annotations) {
    Labels labels = Labels.of("app", name);
    ObjectMeta meta = new ObjectMeta(name, "default", labels, annotations, Optional.empty());
    return new Workload.Deployment(meta, replicas, LabelSelector.matching(labels),
        new PodTemplate(labels, Labels.EMPTY, gpuSpec(gpus, "2", "8Gi", "vllm/vllm-openai:v0.6")),
        Workload.Deployment.DEFAULT_ROLLING, Workload.Deployment.DEFAULT_ROLLING);
  }

  public static Workload.Deployment withPodAnnotations(Workload.Deployment d, Labels podAnnotations) {
    return new Workload.Deployment(d.meta(), d.replicas(), d.selector(), new PodTemplate(d.template().labels(),
        podAnnotations, d.template().spec()), d.maxSurge(), d.maxUnavailable());
  }

  public static Workload.Deployment withGrace(Workload.Deployment d, long seconds) {
    return new Workload.Deployment(d.meta(), d.replicas(), d.selector(), new PodTemplate(d.template().labels(),
        d.template().annotations(), d.template().spec().withTerminationGracePeriodSeconds(seconds)), d.maxSurge(),
        d.maxUnavailable());
  }

  public static PodDisruptionBudget minAvailable(String name, String app, int n) {
    return new PodDisruptionBudget(ObjectMeta.named(name), LabelSelector.matching(Labels.of("app", app)),
        Optional.of(new IntOrPercent.Count(n)), Optional.empty());
  }

  /**
   * A PDB of the default namespace keeping {@code n} pods available, with this selector: absent
   * (null), empty ({@code {}}) or given.
   */
  public static PodDisruptionBudget minAvailable(String name, Optional<LabelSelector> selector, int n) {
    return new PodDisruptionBudget(ObjectMeta.named(name), selector, Optional.of(new IntOrPercent.Count(n)),
        Optional.empty());
  }

  /** A node Karpenter adopts: labelled with its NodePool and instance type. */
  public static Node adopted(String name, String nodePool, String instanceType, String capacityType) {
    return Node.of(name, Labels.of("karpenter.sh/nodepool", nodePool, "node.kubernetes.io/instance-type",
        instanceType, "karpenter.sh/capacity-type", capacityType, "topology.kubernetes.io/zone", "us-east-1a"),
        List.of(), ResourceList.EMPTY);
  }
}
