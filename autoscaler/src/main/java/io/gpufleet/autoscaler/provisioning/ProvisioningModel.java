package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.autoscaler.AutoscalerSettings.GpuSizing;
import io.gpufleet.autoscaler.gpu.GpuAdvertiser;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.karpenter.EC2NodeClass;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.workload.Workload;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Every NodePool prepared for provisioning, in the order Karpenter tries them: higher weight first,
 * equal weights by name with the later name first ({@code K:pkg/utils/nodepool/nodepool.go}
 * OrderByWeight, reference §1.1). Built once per change of NodePools, catalogue or DaemonSets.
 */
public record ProvisioningModel(List<NodePoolTemplate> templates, GpuAdvertiser advertiser, GpuSizing sizing,
    NodeOverlays overlays, DraProvisioning dra) {

  public ProvisioningModel {
    templates = List.copyOf(templates);
    Objects.requireNonNull(dra, "dra");
  }

  public static ProvisioningModel of(List<NodePool> nodePools, InstanceCatalog catalog,
      List<Workload.DaemonSet> daemonSets, GpuAdvertiser advertiser, GpuSizing sizing) {
    return of(nodePools, catalog, daemonSets, advertiser, sizing, NodeOverlays.NONE);
  }

  /** As above, each NodePool seeing its instance types through the NodeOverlays in force. */
  public static ProvisioningModel of(List<NodePool> nodePools, InstanceCatalog catalog,
      List<Workload.DaemonSet> daemonSets, GpuAdvertiser advertiser, GpuSizing sizing, NodeOverlays overlays) {
    return of(nodePools, catalog, daemonSets, advertiser, sizing, overlays, Map.of());
  }

  /**
   * As above, each NodePool's instance types as its EC2NodeClass ({@code nodeClassRef}) makes them:
   * kubelet reservations, pods and root volume (a NodePool whose class is not given gets Karpenter's
   * defaults).
   */
  public static ProvisioningModel of(List<NodePool> nodePools, InstanceCatalog catalog,
      List<Workload.DaemonSet> daemonSets, GpuAdvertiser advertiser, GpuSizing sizing, NodeOverlays overlays,
      Map<String, EC2NodeClass> nodeClasses) {
    return of(nodePools, catalog, daemonSets, advertiser, sizing, overlays, nodeClasses, DraProvisioning.IGNORE);
  }

  /** As above, with pods' DRA claims treated as {@code dra} says (Karpenter ignores them by default). */
  public static ProvisioningModel of(List<NodePool> nodePools, InstanceCatalog catalog,
      List<Workload.DaemonSet> allDaemonSets, GpuAdvertiser advertiser, GpuSizing sizing, NodeOverlays overlays,
      Map<String, EC2NodeClass> nodeClasses, DraProvisioning dra) {
    List<Workload.DaemonSet> daemonSets = dra.countedDaemons(allDaemonSets);
    List<NodePool> ordered = new ArrayList<>(nodePools);
    ordered.sort(Comparator.comparingInt(NodePool::weightOrZero).reversed()
        .thenComparing(NodePool::name, Comparator.reverseOrder()));
    List<NodePoolTemplate> templates = new ArrayList<>();
    for (NodePool p : ordered) {
      templates.add(NodePoolTemplate.of(p, catalog, daemonSets, advertiser, sizing, overlays,
          nodeClassOf(p, nodeClasses)));
    }
    return new ProvisioningModel(templates, advertiser, sizing, overlays, dra);
  }

  /**
   * What sized a launch of {@code type} for {@code nodePool} other than the catalogue Karpenter reads:
   * the twin's advertised sizing, where it counts other GPUs than the type has, and the NodeOverlays
   * applied to the type. Empty when Karpenter, as it ships, would have seen the same type.
   */
  public List<String> shaping(String nodePool, InstanceType type) {
    List<String> out = new ArrayList<>();
    Optional<NodePoolTemplate> t = template(nodePool);
    if (t.isEmpty()) {
      return out;
    }
    for (TypeOption o : t.get().types()) {
      if (!o.type().name().equals(type.name())) {
        continue;
      }
      long physical = type.gpuCount();
      long counted = o.allocatable().get("nvidia.com/gpu");
      List<String> applied = overlays.appliedTo(nodePool, type.name());
      if (sizing == GpuSizing.ADVERTISED && type.gpuCount() > 0 && counted != physical && applied.isEmpty()) {
        out.add("SizedByExtension: sizing: advertised (gpufleet extension) counted " + counted
            + " nvidia.com/gpu on " + type.name() + ", which has " + physical + "; Karpenter counts " + physical);
      }
      if (!applied.isEmpty()) {
        out.add("NodeOverlayApplied: " + String.join(", ", applied) + " changed " + type.name() + " for NodePool "
            + nodePool);
      }
    }
    return out;
  }

  /** The EC2NodeClass a NodePool's nodeClassRef names, or Karpenter's defaults. */
  public static EC2NodeClass nodeClassOf(NodePool p,
      Map<String, EC2NodeClass> nodeClasses) {
    var ref = p.template().nodeClassRef();
    EC2NodeClass c = ref.kind().equals("EC2NodeClass") ? nodeClasses.get(ref.name()) : null;
    return c == null ? EC2NodeClass.defaults(ref.name()) : c;
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
