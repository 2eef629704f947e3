package io.gpufleet.engine.deviceplugin;

import io.gpufleet.engine.mig.MigManager;
import io.gpufleet.model.cloud.GpuSpec;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.MigStrategy;
import io.gpufleet.model.deviceplugin.Sharing;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.gpu.MigLayout;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.stream.Collectors;

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

  /** One named config, used on every node (the helm {@code single} fallback). */
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

  /**
   * A registration and, where the node's own report differs from what the selected config would
   * advertise, a sentence that names both and their sources.
   */
  public record Reconciled(Registration registration, Optional<String> disagreement) {}

  /**
   * A node of the cluster as it is now. A node written without GPU resources in its status has not
   * registered: it registers as {@link #register(Node, GpuInventory)} does. A node that reports them
   * (a dump) registered already, and its report is its state: its capacity, allocatable and labels
   * stay as reported. Where the config selected for it would advertise other counts, the devices are
   * modelled under the config its report shows (GFD's sharing labels, a renamed resource, the MIG
   * strategy label), and the disagreement is said once; the selected config drives only what changes
   * next (a relabel, a MIG reconfiguration, a new node).
   */
  public Reconciled registerObserved(Node node, GpuInventory inventory) {
    Registration model = register(node, inventory);
    Optional<ObservedGpus> seen = ObservedGpus.of(node);
    if (seen.isEmpty()) {
      // Labels a real GFD wrote (the CUDA driver's, its timestamp) say the node was dumped with its
      // labels, its status left out: its labels are its state, the advertisement the model's.
      return new Reconciled(ObservedGpus.labelledByGfd(node) ? asReported(model, node) : model, Optional.empty());
    }
    ObservedGpus observed = seen.get();
    if (observed.reports(model.advertisement().counts())) {
      return new Reconciled(asReported(model, node), Optional.empty());
    }
    MigManager.Pass pass = migPass(node, inventory);
    Node labelled = node.withLabels(pass.labelled(node.labels()));
    DevicePluginConfig implied = observed.impliedConfig(inventory);
    Optional<Registration> byReport = Optional.of(DevicePlugin.register(labelled, inventory, implied, pass.layout()))
        .filter(r -> observed.reports(r.advertisement().counts()));
    NamedConfigs.Selection selection = configs.select(node.labels());
    String note = "node " + node.name() + " reports " + counts(observed.capacity()) + " (its status); the "
        + "device-plugin config selected for it (" + selection.name() + ", " + selection.reason() + ") would "
        + "advertise " + (model.advertisement().counts().isEmpty() ? "nothing" : counts(model.advertisement().counts()))
        + "; gpufleet takes the node's report as its state now"
        + byReport.map(r -> " (its devices modelled as " + describe(implied) + ", as its labels and resources show)")
            .orElse(" (its devices as the selected config lays them out, its counts as reported)")
        + " and registers it as the config says only when its config label, its MIG layout or the node changes";
    return new Reconciled(asReported(byReport.orElse(model), node), Optional.of(note));
  }

  /** A registration with the node's reported GPU resources and labels. */
  private static Registration asReported(Registration r, Node reported) {
    Node n = r.node();
    // Its labels as reported win. Where GFD runs on it (it has GFD's labels), GFD's labels it lacks are
    // the model's; a node without GFD gets none the twin would invent.
    boolean gfdRuns = reported.labels().map().keySet().stream().anyMatch(GfdLabels::ownedByGfd);
    Node labelled = n.withLabels(gfdRuns ? n.labels().withAll(reported.labels()) : reported.labels())
        .withResources(withGpusOf(n.capacity(), reported.capacity()),
            withGpusOf(n.allocatable(), reported.allocatable()));
    return new Registration(labelled, r.advertisement(), r.devices(), r.warnings());
  }

  /** {@code list} with each GPU resource {@code reported} names set to the reported quantity. */
  private static ResourceList withGpusOf(ResourceList list, ResourceList reported) {
    ResourceList out = list;
    for (ResourceName name : reported.names()) {
      if (name.isNvidiaGpuLike()) {
        out = out.with(name, reported.getOrZero(name));
      }
    }
    return out;
  }

  private static String counts(SortedMap<ResourceName, Long> counts) {
    return counts.entrySet().stream().map(e -> e.getKey().name() + ": " + e.getValue())
        .collect(Collectors.joining(", "));
  }

  private static String describe(DevicePluginConfig c) {
    Sharing s = c.sharing();
    int replicas = s.replicas("nvidia.com/gpu");
    return (replicas > 1 ? s.strategy() + ", " + replicas + " replicas" + (s.renamed() ? ", renamed" : "") : "exclusive")
        + (c.flags().migStrategy() == MigStrategy.NONE ? "" : ", MIG strategy " + c.flags().migStrategy().wireName());
  }

  /**
   * A node whose GPUs are left to NVIDIA's DRA driver (its labels turn the GPU Operator's device plugin
   * off): no GPU resource is advertised, not even as 0, and GPU Feature Discovery, which the operator
   * still runs, labels the cards as beside a device plugin with no config (no sharing). The labels it
   * was written with win. The driver's kubelet plugin publishes the node's ResourceSlice from these
   * labels as the node registers ({@code NvidiaDraDriver#slice}).
   */
  public Node leftToDraDriver(Node booted, Optional<GpuSpec> gpus, MigLayout layout) {
    Node bare = booted.withResources(booted.capacity().withoutNvidiaGpus(), booted.allocatable().withoutNvidiaGpus());
    Node gfd = withConfigs(NamedConfigs.NONE).registerPlugin(bare, gpus, layout).node();
    return bare.withLabels(GfdLabels.ownedIn(gfd.labels()).withAll(bare.labels()));
  }

  /** As {@link #leftToDraDriver(Node, Optional, MigLayout)} for a node of a manifest, after the MIG manager's pass. */
  public Node leftToDraDriver(Node node, GpuInventory inventory) {
    MigManager.Pass pass = migPass(node, inventory);
    Node bare = node.withLabels(pass.labelled(node.labels()))
        .withResources(node.capacity().withoutNvidiaGpus(), node.allocatable().withoutNvidiaGpus());
    Node gfd = withConfigs(NamedConfigs.NONE).registerPlugin(bare, inventory, pass.layout()).node();
    return bare.withLabels(GfdLabels.ownedIn(gfd.labels()).withAll(bare.labels()));
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
