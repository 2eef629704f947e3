package io.gpufleet.engine.deviceplugin;

import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.gpu.MigLayout;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The NVIDIA device plugin and GPU Feature Discovery on one node, as pure functions: what a node
 * advertises and is labelled when it registers, and which devices a pod's containers get when the
 * kubelet admits it. {@link GpuOperator} picks the config and runs the MIG manager first; every
 * command and the simulator register nodes through it.
 */
public final class DevicePlugin {
  private DevicePlugin() {}

  /**
   * The node as it (re-)registers with these GPUs, device-plugin config and MIG layout: the
   * simulator calls it when a node joins and whenever its {@code nvidia.com/device-plugin.config} or
   * {@code nvidia.com/mig.config} outcome changes.
   *
   * <p>Capacity and allocatable get each advertised resource ({@code nvidia.com/gpu},
   * {@code nvidia.com/gpu.shared}, {@code nvidia.com/mig-*}); a GPU resource the node had before and
   * no longer advertises stays at 0, as the kubelet keeps it. GFD's labels replace the ones GFD set
   * before; the user's and the GPU Operator's labels, and GFD's labels of what the twin does not
   * model (the CUDA driver's version), are kept. Existing pods are not re-admitted:
   * the returned device state is empty, and the caller re-allocates the pods it keeps.
   */
  public static Registration register(Node node, GpuInventory inventory, DevicePluginConfig config, MigLayout layout) {
    Advertisement ad = Advertisement.of(inventory, config, layout);
    Labels gfd = GfdLabels.of(inventory, config, layout, ad, node.labels().get(GfdLabels.INSTANCE_TYPE));
    NodeDevices devices = new NodeDevices(inventory, config.sharing(),
        config.flags().sharedDevicesAllocationPolicy(), ad.devices(), new TreeMap<>());
    // A plugin that exits logs its error (the MPS control daemon's "invalid MPS configuration: ..."):
    // it goes with the registration, so the node that advertises nothing says why.
    List<String> warnings = new ArrayList<>(ad.warnings());
    ad.pluginError().ifPresent(e -> warnings.add("the device plugin exits: " + e + "; the node advertises no GPUs"));
    return new Registration(withAdvertised(node, ad.counts(), gfd), ad, Optional.of(devices), warnings);
  }

  /**
   * The plugin's config-manager init container failed (an unknown {@code nvidia.com/device-plugin.config},
   * or several configs and no default): the plugin and GFD never start, so nothing is advertised
   * (a GPU resource advertised before stays at 0, as the kubelet keeps it) and GFD's labels stay as
   * they were. The error is the registration's one warning.
   */
  static Registration configManagerFailed(Node node, String error) {
    Advertisement ad = Advertisement.NOTHING;
    return new Registration(withAdvertised(node, ad.counts(), GfdLabels.ownedIn(node.labels())), ad, Optional.empty(),
        List.of(error + "; the device plugin does not start and advertises nothing"));
  }

  /**
   * Cards the GPU catalogue does not know: the plugin advertises each one whole as
   * {@code nvidia.com/gpu}, and gpufleet has no GFD labels and no individual devices for them.
   */
  static Registration registerUnknownCards(Node node, int count) {
    Advertisement ad = new Advertisement(List.of(), new TreeMap<>(Map.of(ResourceName.NVIDIA_GPU, (long) count)),
        Advertisement.MigMode.WHOLE_GPUS, Optional.empty(), List.of());
    return new Registration(withAdvertised(node, ad.counts(), Labels.EMPTY), ad, Optional.empty(), List.of());
  }

  /**
   * The node with what a registration advertises: capacity and allocatable get each advertised
   * resource, a GPU resource no longer advertised stays at 0 (as the kubelet keeps it), and GFD's
   * labels replace the ones of the twin's GFD set before; GFD's labels it does not model stay.
   */
  private static Node withAdvertised(Node node, Map<ResourceName, Long> counts, Labels gfd) {
    TreeMap<String, String> labels = new TreeMap<>();
    node.labels().map().forEach((k, v) -> {
      if (!GfdLabels.modelled(k)) {
        labels.put(k, v);
      }
    });
    labels.putAll(gfd.map());
    return node.withLabels(Labels.of(labels))
        .withResources(withGpuResources(node.capacity(), counts), withGpuResources(node.allocatable(), counts));
  }

  private static ResourceList withGpuResources(ResourceList list, Map<ResourceName, Long> counts) {
    ResourceList out = list;
    for (ResourceName name : list.names()) {
      if (name.isNvidiaGpuLike() && !counts.containsKey(name)) {
        out = out.with(name, Quantity.ZERO);
      }
    }
    for (var e : counts.entrySet()) {
      out = out.with(e.getKey(), Quantity.of(e.getValue()));
    }
    return out;
  }

  /** The kubelet's {@code Allocate} for a pod bound to the node; see {@link DeviceAllocation#allocate}. */
  public static DeviceAllocation.Result allocate(NodeDevices state, Pod pod) {
    return DeviceAllocation.allocate(state, pod);
  }

  /** Allocates pods in order, as a kubelet admitting them one after another. */
  public static List<DeviceAllocation.Result> allocateAll(NodeDevices state, List<Pod> pods) {
    List<DeviceAllocation.Result> out = new ArrayList<>();
    NodeDevices s = state;
    for (Pod p : pods) {
      DeviceAllocation.Result r = DeviceAllocation.allocate(s, p);
      if (r instanceof DeviceAllocation.Result.Granted g) {
        s = g.next();
      }
      out.add(r);
    }
    return out;
  }
}
