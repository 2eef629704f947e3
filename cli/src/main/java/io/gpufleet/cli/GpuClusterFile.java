package io.gpufleet.cli;

import io.gpufleet.engine.deviceplugin.GpuOperator;
import io.gpufleet.engine.deviceplugin.NodeGpus;
import io.gpufleet.engine.deviceplugin.Registration;
import io.gpufleet.engine.mig.MigManager;
import io.gpufleet.manifest.ManifestBundle;
import io.gpufleet.manifest.ManifestReader;
import io.gpufleet.manifest.deviceplugin.DevicePluginManifests;
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
import java.nio.file.Path;
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

  static GpuClusterFile read(Path file) {
    String text = Cli.readFile(file);
    String name = file.toString();
    ManifestBundle bundle = new ManifestReader().read(name, text);
    // The located trees again, for embedded configs and for pointing at a node's fields.
    List<YNode> docs = new YamlReader().readAll(name, text);
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
            case DEVICE_PLUGIN -> configs = DevicePluginManifests.namedConfigs(cm, text, diagnostics);
            case MIG_PARTED -> migParted = DevicePluginManifests.migParted(cm, text, diagnostics);
            case OTHER -> { }
          }
        }
        case KubeObject.NodeObject n -> nodeObjects.add(n);
        case KubeObject.PodObject p -> pods.add(p.pod());
        case KubeObject.WorkloadObject w -> workloads.add(w.workload());
        default -> { }
      }
    }
    diagnostics.throwIfErrors();
    List<GpuNode> nodes = new ArrayList<>();
    GpuOperator operator = new GpuOperator(configs, new MigManager(migParted), GpuCatalog.builtIn());
    for (KubeObject.NodeObject n : nodeObjects) {
      nodes.add(register(n, docs, operator, diagnostics));
    }
    diagnostics.throwIfErrors();
    return new GpuClusterFile(nodes, pods, workloads, bundle);
  }

  private static GpuNode register(KubeObject.NodeObject n, List<YNode> docs, GpuOperator operator,
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
        diagnostics.add(ManifestProblem.error(locate(docs, n.location(), u.field()), u.field(), u.reason()));
        return new GpuNode(node, Optional.empty(), Optional.empty(), u.reason(), selection);
      }
      case NodeGpus.Found.Gpus g -> {
        // A node that registers with a mig.config label has had the MIG manager's one pass.
        Registration r = operator.register(node, g.inventory());
        return new GpuNode(r.node(), Optional.of(r), Optional.of(g.inventory()), g.source(), selection);
      }
    }
  }

  private static Location locate(List<YNode> docs, Location objectAt, String path) {
    for (YNode d : docs) {
      if (d.location().equals(objectAt)) {
        return YPath.locate(d, path);
      }
    }
    return objectAt;
  }
}
