package io.gpufleet.engine.dra;

import io.gpufleet.model.dra.AttributeValue;
import io.gpufleet.model.dra.CounterSet;
import io.gpufleet.model.dra.Device;
import io.gpufleet.model.dra.ResourceSlice;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.gpu.MigInstance;
import io.gpufleet.model.gpu.MigPlacement;
import io.gpufleet.model.gpu.MigProfile;
import io.gpufleet.model.resource.Quantity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * What NVIDIA's GPU kubelet plugin publishes with its DynamicMIG feature gate on (NVIDIA/k8s-dra-driver-gpu
 * at 22407113, {@code cmd/gpu-kubelet-plugin/driver.go} {@code generateSplitResourceSlices}, {@code partitions.go},
 * {@code nvlib.go} {@code inspectMigProfilesAndPlacements}): partitionable devices (KEP-4815) for Kubernetes
 * 1.35 and later. The node's pool gets one slice holding a counter set per card, then one slice per card
 * with the card itself and every MIG profile placement on it, in name order.
 *
 * <ul>
 *   <li>Counter set {@code gpu-<minor>-counter-set}: one counter per MIG capacity (its name as
 *       {@code camelToDNSName} writes it: {@code multiprocessors}, {@code copy-engines}, ...), each the
 *       largest value any profile has, and one {@code memory-slice-<i>} of 1 per memory slice
 *       ({@code PartSharedCounterSets}).
 *   <li>The card {@code gpu-<minor>}: its usual attributes, those largest capacities, and it consumes
 *       every counter of its set ({@code PartGetDevice}, {@code PartConsumesCounters}), so it cannot be
 *       allocated while any MIG device of it is, nor they while it is.
 *   <li>Each placement of each profile ({@code VisitMigProfiles}, every profile whose compute instance
 *       is its whole GPU instance): {@code gpu-<minor>-mig-<profile>-<giProfileId>-<start>}, with
 *       {@code CommonAttributesMig}'s attributes (no {@code uuid}: the MIG device does not exist until a
 *       claim with it is prepared) and {@code CommonCapacitiesMig}'s capacities (no memory slices);
 *       it consumes its capacities and the memory slices of its placement.
 * </ul>
 *
 * <p>The twin publishes the capacities the GPU catalogue knows ({@link NvidiaDraDriver#migCapacities}): a
 * figure the catalogue lacks (an H100's per-profile memory, say) is neither a capacity nor a counter,
 * where NVML would give one; the memory-slice counters, which keep placements apart, are always there.
 */
final class DynamicMig {
  private DynamicMig() {}

  /** The node's slices: its counter sets first, then each card's devices. */
  static List<ResourceSlice> slices(String nodeName, GpuModel model, int count,
      IntFunction<Map<String, AttributeValue>> card) {
    List<CounterSet> sets = new ArrayList<>();
    List<ResourceSlice> cards = new ArrayList<>();
    for (int minor = 0; minor < count; minor++) {
      Map<String, String> max = maxCapacities(model);
      int memorySlices = model.migProfiles().stream().flatMap(p -> p.placements().stream())
          .mapToInt(MigPlacement::size).max().orElse(0);
      Map<String, Quantity> all = counters(max);
      for (int s = 0; s < memorySlices; s++) {
        all.put(memorySliceCounter(s), Quantity.of(1));
      }
      String set = counterSetName(minor);
      sets.add(new CounterSet(set, all));
      Map<String, AttributeValue> attributes = card.apply(minor);
      String uuid = GpuInventory.uuid(nodeName, minor);
      TreeMap<String, Device> byName = new TreeMap<>();
      byName.put("gpu-" + minor, new Device("gpu-" + minor, NvidiaDraDriver.gpuAttributes(uuid, attributes), max)
          .consuming(List.of(new CounterSet(set, all))));
      for (MigProfile p : model.migProfiles()) {
        for (MigPlacement at : p.placements()) {
          MigInstance i = new MigInstance(p, at);
          Map<String, AttributeValue> a = new LinkedHashMap<>();
          a.put("type", new AttributeValue.Str("mig"));
          a.put("parentUUID", new AttributeValue.Str(uuid));
          a.put("profile", new AttributeValue.Str(p.name()));
          a.putAll(attributes);
          Map<String, String> capacity = NvidiaDraDriver.migCapacities(p);
          Map<String, Quantity> draw = counters(capacity);
          for (int s = at.start(); s < at.end(); s++) {
            draw.put(memorySliceCounter(s), Quantity.of(1));
          }
          String name = NvidiaDraDriver.migName(minor, i);
          byName.put(name, new Device(name, a, capacity).consuming(List.of(new CounterSet(set, draw))));
        }
      }
      cards.add(new ResourceSlice(nodeName + "-" + NvidiaDraDriver.DRIVER + "-gpu-" + minor, NvidiaDraDriver.DRIVER,
          nodeName, Optional.of(nodeName), List.copyOf(byName.values())));
    }
    List<ResourceSlice> out = new ArrayList<>();
    out.add(new ResourceSlice(nodeName + "-" + NvidiaDraDriver.DRIVER + "-counters", NvidiaDraDriver.DRIVER, nodeName,
        Optional.of(nodeName), List.of(), false, sets));
    out.addAll(cards);
    return out;
  }

  /** {@code GetSharedCounterSetName}: the card's canonical name and {@code -counter-set}. */
  static String counterSetName(int minor) {
    return "gpu-" + minor + "-counter-set";
  }

  /** {@code memsliceCounterName}. */
  static String memorySliceCounter(int slice) {
    return "memory-slice-" + slice;
  }

  /** Across all profiles, the largest value of each capacity ({@code setMax} over every placement). */
  private static Map<String, String> maxCapacities(GpuModel model) {
    Map<String, Quantity> max = new LinkedHashMap<>();
    for (MigProfile p : model.migProfiles()) {
      NvidiaDraDriver.migCapacities(p).forEach((k, v) -> max.merge(k, Quantity.parse(v),
          (a, b) -> a.compareTo(b) >= 0 ? a : b));
    }
    Map<String, String> out = new LinkedHashMap<>();
    max.forEach((k, v) -> out.put(k, v.toString()));
    return out;
  }

  /** {@code capacitiesToCounters}: each capacity as a counter named by {@code camelToDNSName}. */
  private static Map<String, Quantity> counters(Map<String, String> capacities) {
    Map<String, Quantity> out = new LinkedHashMap<>();
    capacities.forEach((k, v) -> out.put(camelToDnsName(k), Quantity.parse(v)));
    return out;
  }

  /** {@code mig.go}'s {@code camelToDNSName}: {@code copyEngines} is {@code copy-engines}. */
  static String camelToDnsName(String s) {
    String r = s.replaceAll("([a-z0-9])([A-Z])", "$1-$2").replaceAll("([A-Z]+)([A-Z][a-z])", "$1-$2");
    return NvidiaDraDriver.rfc1123(r.toLowerCase(Locale.ROOT));
  }
}
