package io.gpufleet.autoscaler.gpu;

import io.gpufleet.engine.deviceplugin.Advertisement;
import io.gpufleet.engine.deviceplugin.GfdLabels;
import io.gpufleet.engine.mig.MigManager;
import io.gpufleet.model.deviceplugin.MigPartedConfig;
import io.gpufleet.engine.deviceplugin.NodeDevices;
import io.gpufleet.model.cloud.GpuSpec;
import io.gpufleet.model.cloud.InstanceLabels;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.gpu.MigLayout;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The NVIDIA device plugin as the engine emulates it ({@code engine.deviceplugin}), with the named
 * configs of its ConfigMap: a node's config comes from its {@code nvidia.com/device-plugin.config}
 * label (or the default), its GPU model from the instance type's GPU name and memory in the GPU
 * catalogue. A GPU the catalogue does not know is advertised whole, one resource per card, without
 * GFD labels. Results are kept per config, instance type and GPUs, since provisioning asks often.
 */
public final class NvidiaDevicePlugin implements GpuAdvertiser {

  /** No ConfigMap: every node runs the plugin's built-in defaults (exclusive GPUs). */
  public static final NvidiaDevicePlugin DEFAULTS = new NvidiaDevicePlugin(NamedConfigs.NONE, GpuCatalog.builtIn());

  private final NamedConfigs configs;
  private final MigManager migManager;
  private final GpuCatalog catalog;
  // A pure function's memo, safe to share between runs and threads (DEFAULTS is shared).
  private final Map<List<Object>, Advertised> memo = new ConcurrentHashMap<>();

  public NvidiaDevicePlugin(NamedConfigs configs, GpuCatalog catalog) {
    this(configs, MigManager.STOCK, catalog);
  }

  /** With the MIG manager that lays out nodes labelled {@code nvidia.com/mig.config} (custom configs too). */
  public NvidiaDevicePlugin(NamedConfigs configs, MigManager migManager, GpuCatalog catalog) {
    this.configs = configs;
    this.migManager = migManager;
    this.catalog = catalog;
  }

  /** One named config, used on every node (the helm {@code single} fallback). */
  public static NvidiaDevicePlugin withConfig(String name, DevicePluginConfig config) {
    return new NvidiaDevicePlugin(NamedConfigs.of(Map.of(name, config), Optional.empty()), GpuCatalog.builtIn());
  }

  public NamedConfigs configs() {
    return configs;
  }

  @Override
  public Advertised advertise(Labels nodeLabels, Optional<GpuSpec> gpus) {
    if (gpus.isEmpty() || !gpus.get().manufacturer().equals("nvidia")) {
      return Advertised.NOTHING;
    }
    List<Object> key = List.of(nodeLabels.get(CONFIG_LABEL).orElse(""),
        nodeLabels.get(MigPartedConfig.CONFIG_LABEL).orElse(""),
        nodeLabels.get(InstanceLabels.INSTANCE_TYPE).orElse(""), gpus.get());
    return memo.computeIfAbsent(key, k -> compute(nodeLabels, gpus.get()));
  }

  private Advertised compute(Labels nodeLabels, GpuSpec gpus) {
    Optional<GpuModel> model = model(gpus);
    if (model.isEmpty()) {
      return new Advertised(ResourceList.EMPTY.with(ResourceName.NVIDIA_GPU, Quantity.of(gpus.count())), Labels.EMPTY);
    }
    DevicePluginConfig config = configs.select(nodeLabels).config();
    GpuInventory inventory = new GpuInventory(nodeLabels.get(InstanceLabels.HOSTNAME).orElse("node"), model.get(),
        gpus.count());
    MigLayout layout = migLayout(nodeLabels, inventory);
    Advertisement ad = Advertisement.of(inventory, config, layout);
    ResourceList resources = ResourceList.EMPTY;
    for (var e : ad.counts().entrySet()) {
      resources = resources.with(e.getKey(), Quantity.of(e.getValue()));
    }
    Labels labels = GfdLabels.of(inventory, config, layout, ad, nodeLabels.get(GfdLabels.INSTANCE_TYPE));
    return new Advertised(resources, labels);
  }

  /**
   * The node's devices under the config its labels pick, with UUIDs derived from the node's name
   * (so they differ between nodes and repeat between runs). Not memoised: devices are per node.
   */
  @Override
  public Optional<NodeDevices> devices(String nodeName, Labels nodeLabels, Optional<GpuSpec> gpus) {
    if (gpus.isEmpty() || !gpus.get().manufacturer().equals("nvidia")) {
      return Optional.empty();
    }
    Optional<GpuModel> model = model(gpus.get());
    if (model.isEmpty()) {
      return Optional.empty();
    }
    DevicePluginConfig config = configs.select(nodeLabels).config();
    GpuInventory inventory = new GpuInventory(nodeName, model.get(), gpus.get().count());
    Advertisement ad = Advertisement.of(inventory, config, migLayout(nodeLabels, inventory));
    return Optional.of(new NodeDevices(inventory, config.sharing(), config.flags().sharedDevicesAllocationPolicy(),
        ad.devices(), new java.util.TreeMap<>()));
  }

  /**
   * The MIG layout the MIG manager applies for the node's {@code nvidia.com/mig.config} label
   * ({@link MigManager#configure}); a config the GPU cannot take leaves the GPUs whole, as a failed
   * MIG manager run does.
   */
  private MigLayout migLayout(Labels nodeLabels, GpuInventory inventory) {
    return migManager.configure(nodeLabels, inventory).layout();
  }

  /** The catalogue model of an instance type's GPUs ({@link GpuSpec#catalogName()}). */
  Optional<GpuModel> model(GpuSpec gpus) {
    return catalog.find(gpus.catalogName());
  }

  /** Whether a label key is GPU Feature Discovery's, to be replaced when the plugin re-registers. */
  public static boolean gfdLabel(String key) {
    return GfdLabels.ownedByGfd(key);
  }
}
