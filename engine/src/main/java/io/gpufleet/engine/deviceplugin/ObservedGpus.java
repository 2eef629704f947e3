package io.gpufleet.engine.deviceplugin;

import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.Flags;
import io.gpufleet.model.deviceplugin.MigStrategy;
import io.gpufleet.model.deviceplugin.ReplicatedResource;
import io.gpufleet.model.deviceplugin.SharingSpec;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a node of a cluster dump reports of its GPUs: the GPU resources of {@code status.capacity}
 * (non-zero: the kubelet keeps a resource no longer advertised at 0) and the labels GFD put on it.
 * A node that reports GPU resources registered already; its report is the truth of "now".
 */
public record ObservedGpus(SortedMap<ResourceName, Long> capacity, Labels labels) {

  public ObservedGpus {
    capacity = new TreeMap<>(capacity);
  }

  /** The report of a node whose status names a GPU resource; empty for a node written without one. */
  public static Optional<ObservedGpus> of(Node node) {
    SortedMap<ResourceName, Long> capacity = gpuCounts(node.capacity());
    if (capacity.isEmpty()) {
      capacity = gpuCounts(node.allocatable());
    }
    boolean named = node.capacity().names().stream().anyMatch(ResourceName::isNvidiaGpuLike)
        || node.allocatable().names().stream().anyMatch(ResourceName::isNvidiaGpuLike);
    return named ? Optional.of(new ObservedGpus(capacity, node.labels())) : Optional.empty();
  }

  /**
   * Whether a real GFD labelled the node: it carries a GFD label the twin does not compute (the CUDA
   * driver's version, GFD's timestamp), which no hand-written node needs.
   */
  static boolean labelledByGfd(Node node) {
    return node.labels().map().keySet().stream().anyMatch(k -> GfdLabels.ownedByGfd(k) && !GfdLabels.modelled(k));
  }

  /** The non-zero GPU resources of a resource list. */
  static SortedMap<ResourceName, Long> gpuCounts(ResourceList list) {
    SortedMap<ResourceName, Long> out = new TreeMap<>();
    for (ResourceName name : list.names()) {
      long v = list.getOrZero(name).value();
      if (name.isNvidiaGpuLike() && v > 0) {
        out.put(name, v);
      }
    }
    return out;
  }

  /** Whether an advertisement's counts are what the node reports. */
  boolean reports(SortedMap<ResourceName, Long> advertised) {
    SortedMap<ResourceName, Long> nonZero = new TreeMap<>(advertised);
    nonZero.values().removeIf(v -> v <= 0);
    return capacity.equals(nonZero);
  }

  /**
   * The device-plugin config the report shows running, where it says: GFD's
   * {@code nvidia.com/gpu.sharing-strategy} and {@code nvidia.com/gpu.replicas} (internal/lm/resource.go
   * writes both from the config's sharing of {@code nvidia.com/gpu}), a {@code nvidia.com/gpu.shared}
   * resource for {@code renameByDefault}, {@code nvidia.com/mig.strategy} for the MIG strategy. Without
   * the sharing labels, a whole-GPU count that is a multiple of the cards is read as time-slicing with
   * that many replicas; a report that shows no sharing shows the plugin's defaults (exclusive cards).
   */
  public DevicePluginConfig impliedConfig(GpuInventory inventory) {
    Flags flags = Flags.DEFAULTS;
    Optional<MigStrategy> mig = labels.get(GfdLabels.MIG_STRATEGY).flatMap(ObservedGpus::migStrategy);
    if (mig.isPresent()) {
      flags = flags.withMigStrategy(mig.get());
    }
    boolean renamed = capacity.containsKey(ResourceName.NVIDIA_GPU_SHARED);
    String strategy = labels.get(GfdLabels.SHARING_STRATEGY).orElse("");
    int replicas = labels.get(GfdLabels.REPLICAS).flatMap(ObservedGpus::integer).orElse(0);
    if (replicas <= 1 && !strategy.equals("none") && mig.isEmpty() && inventory.count() > 0) {
      long whole = capacity.getOrDefault(renamed ? ResourceName.NVIDIA_GPU_SHARED : ResourceName.NVIDIA_GPU,
          0L);
      if (whole > inventory.count() && whole % inventory.count() == 0) {
        replicas = (int) (whole / inventory.count());
        strategy = strategy.isEmpty() ? "time-slicing" : strategy;
      }
    }
    if (replicas > 1 && (strategy.equals("time-slicing") || strategy.equals("mps"))) {
      SharingSpec spec = new SharingSpec(renamed, false, List.of(ReplicatedResource.of("nvidia.com/gpu", replicas)));
      return strategy.equals("mps")
          ? new DevicePluginConfig(flags, Optional.empty(), Optional.of(spec))
          : new DevicePluginConfig(flags, Optional.of(spec), Optional.empty());
    }
    return DevicePluginConfig.DEFAULT.withFlags(flags);
  }

  private static Optional<MigStrategy> migStrategy(String v) {
    return switch (v) {
      case "single" -> Optional.of(MigStrategy.SINGLE);
      case "mixed" -> Optional.of(MigStrategy.MIXED);
      case "none" -> Optional.of(MigStrategy.NONE);
      default -> Optional.empty();
    };
  }

  private static Optional<Integer> integer(String v) {
    try {
      return Optional.of(Integer.parseInt(v.strip()));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
