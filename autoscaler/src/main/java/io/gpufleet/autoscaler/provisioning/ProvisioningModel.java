package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.autoscaler.AutoscalerSettings.GpuSizing;
import io.gpufleet.autoscaler.gpu.GpuAdvertiser;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.workload.Workload;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Every NodePool prepared for provisioning, in the order Karpenter tries them: higher weight first,
 * equal weights by name with the later name first ({@code K:pkg/utils/nodepool/nodepool.go}
 * OrderByWeight, reference §1.1). Built once per change of NodePools, catalogue or DaemonSets.
 */
public record ProvisioningModel(List<NodePoolTemplate> templates, GpuAdvertiser advertiser, GpuSizing sizing) {

  public ProvisioningModel {
    templates = List.copyOf(templates);
  }

  public static ProvisioningModel of(List<NodePool> nodePools, InstanceCatalog catalog,
      List<Workload.DaemonSet> daemonSets, GpuAdvertiser advertiser, GpuSizing sizing) {
    List<NodePool> ordered = new ArrayList<>(nodePools);
    ordered.sort(Comparator.comparingInt(NodePool::weightOrZero).reversed()
        .thenComparing(NodePool::name, Comparator.reverseOrder()));
    List<NodePoolTemplate> templates = new ArrayList<>();
    for (NodePool p : ordered) {
      templates.add(NodePoolTemplate.of(p, catalog, daemonSets, advertiser, sizing));
    }
    return new ProvisioningModel(templates, advertiser, sizing);
  }

  public Optional<NodePoolTemplate> template(String nodePool) {
    for (NodePoolTemplate t : templates) {
      if (t.name().equals(nodePool)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }
}
