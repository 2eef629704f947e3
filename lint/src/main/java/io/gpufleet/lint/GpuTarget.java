package io.gpufleet.lint;

import io.gpufleet.model.affinity.NodeAffinity;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.model.deviceplugin.Sharing;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.model.taint.Tolerations;
import java.util.List;
import java.util.Optional;

/**
 * Somewhere a GPU pod could run: an existing GPU Node, or a node a NodePool could launch (one per
 * GPU instance type and capacity type its requirements allow), with the labels and taints such a
 * node carries, its GPUs and the device-plugin config it would run.
 *
 * @param source   the Node or NodePool manifest
 * @param name     the node's name, or {@code <pool>/<instance type>/<capacity type>} for one a pool could launch
 * @param pool     the NodePool that owns or would launch it, when it is in the input
 * @param plugin   which named device-plugin config it runs (k8s-gpu-semantics §2.3)
 */
public record GpuTarget(Located<?> source, String name, Labels labels, List<Taint> taints, Optional<GpuModel> gpu,
    int gpuCount, Optional<Located<NodePool>> pool, NamedConfigs.Selection plugin) {

  public GpuTarget {
    taints = List.copyOf(taints);
  }

  public Optional<String> capacityType() {
    return labels.get(KarpenterLabels.CAPACITY_TYPE);
  }

  public DevicePluginConfig config() {
    return plugin.config();
  }

  public boolean timeSliced() {
    return config().sharing() instanceof Sharing.TimeSlicing;
  }

  public boolean mps() {
    return config().sharing() instanceof Sharing.Mps;
  }

  /**
   * Whether a pod of this spec passes kube-scheduler's TaintToleration and NodeAffinity filters
   * here (NoSchedule and NoExecute taints; nodeSelector and required node affinity). Resources are
   * not compared: the rules ask where a pod may go, not whether it fits now.
   */
  public boolean admits(PodSite pod) {
    return admits(Constraints.of(pod));
  }

  /** As {@link #admits(PodSite)}, for a pod of these constraints. */
  public boolean admits(Constraints pod) {
    for (Taint t : taints) {
      if (t.effect().blocksScheduling() && !Tolerations.tolerates(pod.tolerations(), t)) {
        return false;
      }
    }
    if (!labels.containsAll(pod.nodeSelector())) {
      return false;
    }
    return pod.nodeAffinity().requiredMatches(name, labels);
  }

  /**
   * All of a pod spec that {@link #admits} reads: pods whose constraints are equal are admitted by
   * the same targets.
   */
  public record Constraints(List<Toleration> tolerations, Labels nodeSelector, NodeAffinity nodeAffinity) {

    public Constraints {
      tolerations = List.copyOf(tolerations);
    }

    public static Constraints of(PodSite pod) {
      return new Constraints(pod.spec().tolerations(), pod.spec().nodeSelector(), pod.spec().nodeAffinity());
    }
  }
}
