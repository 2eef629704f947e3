package io.gpufleet.engine.deviceplugin;

import io.gpufleet.engine.mig.MigManager;
import io.gpufleet.model.cloud.GpuSpec;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.gpu.MigLayout;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The GPU Operator's node software with its ConfigMaps: the MIG manager (stock and custom
 * mig-parted configs), the NVIDIA device plugin (named configs, picked per node by
 * {@code nvidia.com/device-plugin.config}) and GPU Feature Discovery, over the GPU catalogue. The
 * one way a GPU node registers: {@code node describe}, {@code smi} and {@code schedule}, the
 * autoscaler's view of a node it launches and the simulator's kubelet all call {@link #register}.
 *
 * <p>Registering is two steps that the simulator may later run at different times: the MIG
 * manager's pass ({@link #migPass}), which lays out the GPUs and sets {@code mig.config.state}, and
 * the plugin's registration ({@link #registerPlugin}), which advertises the devices and lets GFD
 * label the node.
 */
public record GpuOperator(NamedConfigs configs, MigManager migManager, GpuCatalog catalog) {

  /** No ConfigMaps: the plugin's built-in defaults (exclusive GPUs) and the stock mig-parted configs. */
  public static final GpuOperator DEFAULTS = new GpuOperator(NamedConfigs.NONE, MigManager.STOCK, GpuCatalog.builtIn());

  public GpuOperator {
    Objects.requireNonNull(configs, "configs");
    Objects.requireNonNull(migManager, "migManager");
    Objects.requireNonNull(catalog, "catalog");
  }

  /** One named config, used on every node (the helm {@code single} fallback). */
  /**
   * The GPU Operator's per-node switch for its device-plugin operand: no plugin runs on a node
   * labelled {@code nvidia.com/gpu.deploy.device-plugin=false}, which is how a node is left to
   * NVIDIA's DRA driver (both handing out the same cards would give each twice).
   */
  public static final String DEPLOY_DEVICE_PLUGIN = "nvidia.com/gpu.deploy.device-plugin";

  /** Whether the operator runs its device plugin on a node with these labels. */
  public static boolean runsDevicePlugin(Labels labels) {
    return !labels.get(DEPLOY_DEVICE_PLUGIN).equals(Optional.of("false"));
  }

  public static GpuOperator withConfig(String name, DevicePluginConfig config) {
    return DEFAULTS.withConfigs(NamedConfigs.of(Map.of(name, config), Optional.empty()));
  }

  public GpuOperator withConfigs(NamedConfigs c) {
    return new GpuOperator(c, migManager, catalog);
  }

  /**
   * A node registering with these GPUs: the MIG manager's pass for its {@code nvidia.com/mig.config},
   * then the device plugin under the config its labels pick, and GFD. The warnings are the plugin's,
   * then the MIG manager's.
   */
  public Registration register(Node node, GpuInventory inventory) {
    MigManager.Pass pass = migPass(node, inventory);
    Node labelled = node.withLabels(pass.labelled(node.labels()));
    return registerPlugin(labelled, inventory, pass.layout()).withWarnings(pass.warnings());
  }

  /**
   * A node with a cloud instance's GPUs registering: as {@link #register(Node, GpuInventory)} for a
   * card the catalogue knows (by {@link GpuSpec#catalogName()}); a card it does not know is
   * advertised whole, one {@code nvidia.com/gpu} each, without GFD labels or modelled devices. A node
   * without NVIDIA GPUs runs no plugin: it is returned as it is, advertising nothing.
   */
  public Registration register(Node node, Optional<GpuSpec> gpus) {
    MigManager.Pass pass = migPass(node, gpus);
    return registerPlugin(node.withLabels(pass.labelled(node.labels())), gpus, pass.layout())
        .withWarnings(pass.warnings());
  }

  /** The GPUs the operator can model one by one: NVIDIA cards the catalogue knows. */
  public Optional<GpuInventory> inventory(Node node, Optional<GpuSpec> gpus) {
    return gpus.filter(g -> g.manufacturer().equals("nvidia"))
        .flatMap(g -> catalog.find(g.catalogName()).map(m -> new GpuInventory(node.name(), m, g.count())));
  }

  /** The MIG manager's pass over a node with a cloud instance's GPUs; nothing for cards it cannot model. */
  public MigManager.Pass migPass(Node node, Optional<GpuSpec> gpus) {
    return inventory(node, gpus).map(i -> migPass(node, i)).orElse(MigManager.Pass.NOTHING);
  }

  /**
   * The plugin registering on a node with a cloud instance's GPUs, laid out as the MIG manager left
   * them: a card the catalogue does not know is advertised whole, one {@code nvidia.com/gpu} each,
   * without GFD labels or modelled devices; a node without NVIDIA GPUs runs no plugin and advertises
   * nothing.
   */
  public Registration registerPlugin(Node node, Optional<GpuSpec> gpus, MigLayout layout) {
    if (gpus.isEmpty() || !gpus.get().manufacturer().equals("nvidia")) {
      return new Registration(node, Advertisement.NOTHING, Optional.empty(), List.of());
    }
    return inventory(node, gpus).map(i -> registerPlugin(node, i, layout))
        .orElseGet(() -> DevicePlugin.registerUnknownCards(node, gpus.get().count()));
  }

  /**
   * The MIG manager's decision on a running node whose {@code nvidia.com/mig.config} may have
   * changed ({@link MigManager#reconcile}); empty for cards it cannot model.
   */
  public Optional<MigManager.Decision> reconcileMig(Node node, Optional<GpuSpec> gpus, MigLayout current,
      List<Pod> podsOnNode) {
    return inventory(node, gpus).map(i -> MigManager.reconcile(node, i, migManager.configsFor(i.model()), current,
        podsOnNode, false));
  }

  /** The MIG manager's pass over the node: its GPUs' layout and the state it reports. */
  public MigManager.Pass migPass(Node node, GpuInventory inventory) {
    return migManager.configure(node.labels(), inventory);
  }

  /** The device plugin registering on a node whose GPUs have this layout, under the config its labels pick. */
  public Registration registerPlugin(Node node, GpuInventory inventory, MigLayout layout) {
    NamedConfigs.Selection selection = configs.select(node.labels());
    if (selection.failed()) {
      return DevicePlugin.configManagerFailed(node, selection.error().orElseThrow());
    }
    return DevicePlugin.register(node, inventory, selection.config(), layout);
  }
}
