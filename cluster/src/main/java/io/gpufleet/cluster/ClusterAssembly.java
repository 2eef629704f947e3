package io.gpufleet.cluster;

import io.gpufleet.engine.deviceplugin.GpuOperator;
import io.gpufleet.engine.deviceplugin.NodeGpus;
import io.gpufleet.engine.dra.NvidiaDraDriver;
import io.gpufleet.engine.mig.MigManager;
import io.gpufleet.manifest.ManifestBundle;
import io.gpufleet.manifest.deviceplugin.DevicePluginManifests;
import io.gpufleet.manifest.karpenter.KarpenterManifests;
import io.gpufleet.manifest.kube.KubeDecoder;
import io.gpufleet.manifest.kube.KubeObject;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.manifest.yaml.YNode;
import io.gpufleet.manifest.yaml.YPath;
import io.gpufleet.manifest.yaml.YamlReader;
import io.gpufleet.model.deviceplugin.MigPartedConfig;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.node.Node;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds the one {@link Cluster} from what was read: the device-plugin and mig-parted ConfigMaps
 * configure the GPU Operator, each node registers through it as it is now ({@link
 * GpuOperator#registerObserved}: a node that reports its GPU resources keeps them), a node left to
 * NVIDIA's DRA driver gets GFD's labels and no GPU resources, and the driver publishes its slices.
 * The objects arrive decoded and admitted ({@link io.gpufleet.manifest.ManifestReader}).
 */
public final class ClusterAssembly {
  private ClusterAssembly() {}

  /** The cluster the bundle describes; throws {@code ManifestException} with every error found. */
  public static Cluster assemble(ManifestBundle bundle, ClusterSettings settings) {
    return assemble(bundle, settings, Optional.empty());
  }

  /**
   * As {@link #assemble(ManifestBundle, ClusterSettings)}, placing warnings with the caller's located
   * trees of every object ({@link KubeDecoder#byStart}) where it already holds them, instead of reading
   * each file that warns again.
   */
  public static Cluster assemble(ManifestBundle bundle, ClusterSettings settings, Map<Location, YNode> treesByStart) {
    return assemble(bundle, settings, Optional.of(treesByStart));
  }

  private static Cluster assemble(ManifestBundle bundle, ClusterSettings settings,
      Optional<Map<Location, YNode>> treesByStart) {
    Diagnostics diagnostics = new Diagnostics();
    NamedConfigs configs = NamedConfigs.NONE;
    MigPartedConfig migParted = MigPartedConfig.of(Map.of());
    for (KubeObject.ConfigMapObject cm : bundle.configMaps()) {
      switch (DevicePluginManifests.kind(cm)) {
        case DEVICE_PLUGIN -> configs = DevicePluginManifests.namedConfigs(cm, bundle.text(cm), diagnostics);
        case MIG_PARTED -> migParted = DevicePluginManifests.migParted(cm, bundle.text(cm), diagnostics);
        case OTHER -> { }
      }
    }
    // A Bottlerocket node class's own plugin serves its nodes, ahead of the ConfigMap (docs/eks.md).
    configs = configs.withOsPlugins(KarpenterManifests.osPlugins(bundle.objects(), diagnostics));
    diagnostics.throwIfErrors();
    MigManager mig = new MigManager(migParted);
    GpuOperator operator = new GpuOperator(configs, mig, settings.gpus());
    List<ClusterNode> nodes = new ArrayList<>();
    Locator where = new Locator(bundle, treesByStart);
    for (KubeObject o : bundle.objects()) {
      if (o instanceof KubeObject.NodeObject n) {
        nodes.add(register(n, where, operator, settings, diagnostics));
      }
    }
    diagnostics.throwIfErrors();
    // A node whose device plugin exited (a config it refuses) advertises nothing, yet the plugin, not
    // NVIDIA's DRA driver, is what the operator runs there: the driver publishes nothing for it.
    List<Node> registered = nodes.stream()
        .filter(n -> n.registration().flatMap(r -> r.advertisement().pluginError()).isEmpty())
        .map(ClusterNode::node).toList();
    // The driver lays out a DRA node's cards with the same MIG manager, a custom mig-parted config included.
    DraObjects dra = new NvidiaDraDriver(settings.gpus(), mig, settings.draDriver()).published(bundle.dra(), registered);
    List<ManifestProblem> warnings = new ArrayList<>(bundle.warnings());
    warnings.addAll(diagnostics.warnings());
    return new Cluster(nodes, bundle.pods(), bundle.succeededPods(), bundle.workloads(), bundle.pdbs(), dra, operator,
        warnings, bundle);
  }

  private static ClusterNode register(KubeObject.NodeObject n, Locator where, GpuOperator operator,
      ClusterSettings settings, Diagnostics diagnostics) {
    Node node = n.node();
    NamedConfigs.Selection selection = operator.configs().select(node.labels());
    NodeGpus.Found found = NodeGpus.of(node, operator.catalog(), settings.instances().instanceTypeGpus());
    if (found instanceof NodeGpus.Found.Gpus g) {
      for (NodeGpus.Warning w : g.warnings()) {
        diagnostics.add(ManifestProblem.warning(where.locate(n, w.field()), w.field(), w.message()));
      }
    }
    return switch (found) {
      case NodeGpus.Found.NoGpus none ->
          new ClusterNode(node, Optional.empty(), Optional.empty(), "no GPUs found", selection, Optional.empty());
      case NodeGpus.Found.Invalid u -> {
        // The user's own statement (gpufleet's annotation) that does not read: an error, as written.
        diagnostics.add(ManifestProblem.error(where.locate(n, u.field()), u.field(), u.reason()));
        yield new ClusterNode(node, Optional.empty(), Optional.empty(), u.reason(), selection, Optional.empty());
      }
      case NodeGpus.Found.Unresolved u -> {
        // The node's own labels: reported, and the node read without modelled GPUs, so the others still are.
        diagnostics.warning(where.locate(n, u.field()), u.field(), "node \"" + node.name() + "\": " + u.reason()
            + "; read without modelled GPUs");
        yield new ClusterNode(node, Optional.empty(), Optional.empty(), u.reason(), selection, Optional.empty());
      }
      case NodeGpus.Found.Gpus g when !GpuOperator.runsDevicePlugin(node.labels()) ->
          // Left to NVIDIA's DRA driver: no device plugin registers, the driver's slice offers the cards.
          new ClusterNode(operator.leftToDraDriver(node, g.inventory()), Optional.empty(), Optional.of(g.inventory()),
              g.source(), selection, Optional.empty());
      case NodeGpus.Found.Gpus g -> {
        GpuOperator.Reconciled r = operator.registerObserved(node, g.inventory());
        r.disagreement().ifPresent(d -> diagnostics.warning(where.locate(n, "status.capacity"), "status.capacity", d));
        // The plugin (or the MPS control daemon it waits for) exits with this error, as upstream's logs it:
        // said here, since the node otherwise just advertises nothing.
        r.registration().advertisement().pluginError().ifPresent(e -> diagnostics.warning(where.locate(n,
            "metadata.name"), "metadata.name", "node \"" + node.name() + "\": the NVIDIA device plugin under config \""
            + selection.name() + "\" (" + selection.reason() + ") exits: " + e + "; the node advertises no GPUs"));
        yield new ClusterNode(r.registration().node(), Optional.of(r.registration()), Optional.of(g.inventory()),
            g.source(), selection, r.disagreement());
      }
    };
  }

  /**
   * Where a field of a node was written: the caller's trees where given, else its file's located
   * trees again, read only when a problem is reported, and then once per file for the whole assembly
   * (per node, a dump of 1,200 nodes that each warn took 45 s to read instead of 1 s).
   */
  private static final class Locator {
    /** Each file's text by its name, the first source of a name winning, as {@link ManifestBundle#text}. */
    private final Map<String, String> texts = new HashMap<>();
    /** Per file, each document and {@code kind: List} item by where it starts ({@link KubeDecoder#byStart}). */
    private final Map<String, Map<Location, YNode>> starts = new HashMap<>();
    private final Optional<Map<Location, YNode>> given;

    Locator(ManifestBundle bundle, Optional<Map<Location, YNode>> given) {
      this.given = given;
      // Looked up here once: ManifestBundle.text scans the sources, once per file of a directory of them.
      bundle.sources().forEach(s -> texts.putIfAbsent(s.name(), s.text()));
    }

    Location locate(KubeObject.NodeObject n, String path) {
      YNode found = given.isPresent() ? given.get().get(n.location()) : starts.computeIfAbsent(n.location().file(),
          f -> KubeDecoder.byStart(new YamlReader().readAll(f, texts.getOrDefault(f, "")))).get(n.location());
      return found == null ? n.location() : YPath.locate(found, path);
    }
  }
}
