package io.gpufleet.cli;

import io.gpufleet.engine.deviceplugin.GpuOperator;
import io.gpufleet.engine.deviceplugin.NodeGpus;
import io.gpufleet.engine.deviceplugin.Registration;
import io.gpufleet.engine.mig.MigManager;
import io.gpufleet.manifest.ManifestBundle;
import io.gpufleet.manifest.deviceplugin.DevicePluginManifests;
import io.gpufleet.manifest.karpenter.KarpenterManifests;
import io.gpufleet.manifest.kube.KubeObject;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.manifest.yaml.YNode;
import io.gpufleet.manifest.yaml.YPath;
import io.gpufleet.manifest.yaml.YamlReader;
import io.gpufleet.model.deviceplugin.MigPartedConfig;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.workload.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a manifest file of nodes, device-plugin and mig-parted ConfigMaps, pods and workloads, and
 * registers each GPU node through the engine's {@link GpuOperator} (MIG manager, device plugin,
 * GFD), as the simulator does: wiring only.
 */
record GpuClusterFile(List<GpuNode> nodes, List<Pod> pods, List<Workload> workloads, ManifestBundle bundle) {

  /** A node after registration; {@code inventory} is empty for nodes without GPUs. */
  record GpuNode(Node node, Optional<Registration> registration, Optional<GpuInventory> inventory,
      String inventorySource, NamedConfigs.Selection selection) {}

  static GpuClusterFile read(ManifestBundle bundle) {
    Diagnostics diagnostics = new Diagnostics();
    List<KubeObject> objects = bundle.objects();
    NamedConfigs configs = NamedConfigs.NONE;
    MigPartedConfig migParted = MigPartedConfig.of(Map.of());
    List<KubeObject.NodeObject> nodeObjects = new ArrayList<>();
    List<Pod> pods = new ArrayList<>();
    List<Workload> workloads = new ArrayList<>();
    for (KubeObject o : objects) {
      switch (o) {
        case KubeObject.ConfigMapObject cm -> {
          switch (DevicePluginManifests.kind(cm)) {
            case DEVICE_PLUGIN -> configs = DevicePluginManifests.namedConfigs(cm, bundle.text(cm), diagnostics);
            case MIG_PARTED -> migParted = DevicePluginManifests.migParted(cm, bundle.text(cm), diagnostics);
            case OTHER -> { }
          }
        }
        case KubeObject.NodeObject n -> nodeObjects.add(n);
        case KubeObject.PodObject p -> {
          if (!p.finished()) {
            pods.add(p.pod());
          }
        }
        case KubeObject.WorkloadObject w -> workloads.add(w.workload());
        default -> { }
      }
    }
    // A Bottlerocket node class's own plugin serves its nodes (docs/eks.md).
    configs = configs.withOsPlugins(KarpenterManifests.osPlugins(objects, diagnostics));
    diagnostics.throwIfErrors();
    List<GpuNode> nodes = new ArrayList<>();
    GpuOperator operator = new GpuOperator(configs, new MigManager(migParted), GpuCatalog.builtIn());
    for (KubeObject.NodeObject n : nodeObjects) {
      nodes.add(register(n, bundle, operator, diagnostics));
    }
    diagnostics.throwIfErrors();
    return new GpuClusterFile(nodes, pods, workloads, bundle);
  }

  private static GpuNode register(KubeObject.NodeObject n, ManifestBundle bundle, GpuOperator operator,
      Diagnostics diagnostics) {
    Node node = n.node();
    NamedConfigs.Selection selection = operator.configs().select(node.labels());
    // A node named only by its instance type gets that type's GPUs from the built-in catalogue.
    NodeGpus.Found found = NodeGpus.of(node, operator.catalog(), InstanceCatalog.builtIn().instanceTypeGpus());
    switch (found) {
      case NodeGpus.Found.NoGpus none -> {
        return new GpuNode(node, Optional.empty(), Optional.empty(), "no GPUs found", selection);
      }
      case NodeGpus.Found.Unresolved u -> {
        diagnostics.add(ManifestProblem.error(locate(bundle, n, u.field()), u.field(), u.reason()));
        return new GpuNode(node, Optional.empty(), Optional.empty(), u.reason(), selection);
      }
      case NodeGpus.Found.Gpus g when !GpuOperator.runsDevicePlugin(node.labels()) -> {
        // Left to NVIDIA's DRA driver: no device plugin registers, the driver's slice offers the cards.
        return new GpuNode(node, Optional.empty(), Optional.of(g.inventory()), g.source(), selection);
      }
      case NodeGpus.Found.Gpus g -> {
        // A node that registers with a mig.config label has had the MIG manager's one pass.
        Registration r = operator.register(node, g.inventory());
        return new GpuNode(r.node(), Optional.of(r), Optional.of(g.inventory()), g.source(), selection);
      }
    }
  }

  /** Where a field of a node was written: its file's located trees again, read only on this error path. */
  private static Location locate(ManifestBundle bundle, KubeObject.NodeObject n, String path) {
    List<YNode> docs = new YamlReader().readAll(n.location().file(), bundle.text(n));
    for (YNode d : docs) {
      YNode found = find(d, n.location());
      if (found != null) {
        return YPath.locate(found, path);
      }
    }
    return n.location();
  }

  /** The document, or the item of a {@code kind: List}, that starts at {@code at}. */
  private static YNode find(YNode doc, Location at) {
    if (doc.location().equals(at)) {
      return doc;
    }
    if (doc instanceof YNode.YMap m && m.entries().get("items") != null
        && m.entries().get("items").value() instanceof YNode.YList l) {
      return l.items().stream().filter(i -> i.location().equals(at)).findFirst().orElse(null);
    }
    return null;
  }
}
