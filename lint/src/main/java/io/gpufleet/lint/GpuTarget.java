package io.gpufleet.lint;

import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.model.deviceplugin.Sharing;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.taint.Taint;
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
    for (Taint t : taints) {
      if (t.effect().blocksScheduling() && !Tolerations.tolerates(pod.spec().tolerations(), t)) {
        return false;
      }
    }
    if (!labels.containsAll(pod.spec().nodeSelector())) {
      return false;
    }
    return pod.spec().nodeAffinity().requiredMatches(name, labels);
  }
}
