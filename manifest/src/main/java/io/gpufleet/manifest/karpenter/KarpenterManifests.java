package io.gpufleet.manifest.karpenter;

import io.gpufleet.manifest.kube.DuplicateObjects;
import io.gpufleet.manifest.kube.KubeDecoder;
import io.gpufleet.manifest.kube.KubeObject;
import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.manifest.yaml.YNode;
import io.gpufleet.manifest.yaml.YamlReader;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.model.karpenter.AutoMode;
import io.gpufleet.model.karpenter.EC2NodeClass;
import io.gpufleet.model.karpenter.NodeClassRef;
import io.gpufleet.model.karpenter.NodeOverlay;
import io.gpufleet.model.karpenter.NodePool;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The Karpenter objects of a set of manifests: NodePools and NodeOverlays (decoded and validated), node classes
 * (accepted and ignored: gpufleet needs no AMI or subnet, but each NodePool's {@code nodeClassRef}
 * must resolve, else it is reported as Karpenter would leave the NodePool not ready). Every other
 * object is passed through for the caller.
 */
public record KarpenterManifests(List<NodePool> nodePools, List<NodeOverlay> nodeOverlays, List<NodeClassRef> nodeClasses,
    List<EC2NodeClass> ec2NodeClasses, List<KubeObject> others) {

  /** Node class kinds gpufleet recognises, by API group (reference §1.1, §1.9). */
  static final Map<String, String> NODE_CLASS_GROUPS = Map.of(
      "EC2NodeClass", "karpenter.k8s.aws",
      "KWOKNodeClass", "karpenter.kwok.sh",
      AutoMode.NODE_CLASS_KIND, AutoMode.GROUP);

  /**
   * The fields of an EKS Auto Mode {@code NodeClass} spec (EKS user guide, "Create a Node Class for
   * Amazon EKS", Node Class Specification). None is modelled: each one written is said once.
   */
  static final Set<String> AUTO_MODE_NODE_CLASS_FIELDS = Set.of("role", "subnetSelectorTerms",
      "securityGroupSelectorTerms", "snatPolicy", "networkPolicy", "networkPolicyEventLogs", "ephemeralStorage",
      "advancedNetworking", "certificateBundles", "tags");

  public KarpenterManifests {
    nodePools = List.copyOf(nodePools);
    nodeOverlays = List.copyOf(nodeOverlays);
    nodeClasses = List.copyOf(nodeClasses);
    ec2NodeClasses = List.copyOf(ec2NodeClasses);
    others = List.copyOf(others);
  }

  /** Reads YAML text; problems go to the diagnostics (call {@code throwIfErrors} to stop on them). */
  public static KarpenterManifests read(String file, String text, Diagnostics diagnostics) {
    List<YNode> docs = new YamlReader().readAll(file, text);
    new DuplicateObjects(diagnostics).check(docs);
    List<KubeObject> objects = new KubeDecoder(diagnostics).decodeAll(docs);
    return of(objects, diagnostics);
  }

  /** Picks the Karpenter objects out of decoded objects and checks their cross references. */
  public static KarpenterManifests of(List<KubeObject> objects, Diagnostics diagnostics) {
    NodePoolDecoder decoder = new NodePoolDecoder(diagnostics);
    NodeOverlayDecoder overlayDecoder = new NodeOverlayDecoder(diagnostics);
    List<NodePool> pools = new ArrayList<>();
    List<NodeOverlay> overlays = new ArrayList<>();
    Map<String, Location> poolLocations = new HashMap<>();
    List<NodeClassRef> classes = new ArrayList<>();
    List<EC2NodeClass> ec2 = new ArrayList<>();
    List<KubeObject> others = new ArrayList<>();
    for (KubeObject o : objects) {
      if (o instanceof KubeObject.OtherObject other && other.kind().equals("NodePool")
          && other.apiVersion().startsWith("karpenter.sh/")) {
        NodePool pool = decoder.decode(other.cursor(), other.apiVersion());
        // A second NodePool of the same name is reported by DuplicateObjects as the objects are read.
        if (poolLocations.putIfAbsent(pool.name(), other.location()) == null) {
          pools.add(pool);
        }
      } else if (o instanceof KubeObject.OtherObject other && other.kind().equals("NodeOverlay")
          && other.apiVersion().startsWith("karpenter.sh/")) {
        overlays.add(overlayDecoder.decode(other.cursor(), other.apiVersion()));
      } else if (o instanceof KubeObject.OtherObject other && NODE_CLASS_GROUPS.containsKey(other.kind())
          && (!other.kind().equals(AutoMode.NODE_CLASS_KIND) || other.apiVersion().equals(AutoMode.GROUP + "/v1"))) {
        String group = other.apiVersion().contains("/") ? other.apiVersion().substring(0,
            other.apiVersion().indexOf('/')) : other.apiVersion();
        classes.add(new NodeClassRef(group, other.kind(), other.name()));
        if (other.kind().equals("EC2NodeClass")) {
          ec2.add(EC2NodeClassDecoder.decode(other.name(), other.cursor()));
        } else if (other.kind().equals(AutoMode.NODE_CLASS_KIND)) {
          autoModeNodeClass(other);
        }
      } else {
        others.add(o);
      }
    }
    for (NodePool pool : pools) {
      NodeClassRef ref = pool.template().nodeClassRef();
      // Auto Mode makes its "default" NodeClass with its built-in node pools (create-node-pool.adoc).
      boolean builtIn = AutoMode.isAutoMode(ref) && ref.kind().equals(AutoMode.NODE_CLASS_KIND)
          && ref.name().equals(AutoMode.DEFAULT_NODE_CLASS);
      if (!ref.name().isEmpty() && !classes.contains(ref) && !builtIn) {
        diagnostics.warning(poolLocations.get(pool.name()), "spec.template.spec.nodeClassRef",
            ref.kind() + " \"" + ref.name() + "\" (group " + ref.group() + ") is not among the manifests read: Karpenter "
                + "would not launch nodes for NodePool \"" + pool.name() + "\" until it exists; gpufleet simulates "
                + "them anyway");
      }
    }
    return new KarpenterManifests(pools, overlays, classes, ec2, others);
  }

  /**
   * The device plugins that the Bottlerocket node classes among {@code objects} bring
   * ({@link #osPlugin}), for readers that need no more of Karpenter's objects than that (smi, node
   * describe): only EC2NodeClasses are decoded.
   */
  public static List<NamedConfigs.OsPlugin> osPlugins(List<KubeObject> objects, Diagnostics diagnostics) {
    List<NamedConfigs.OsPlugin> out = new ArrayList<>();
    for (KubeObject o : objects) {
      if (o instanceof KubeObject.OtherObject other && other.kind().equals("EC2NodeClass")
          && other.apiVersion().startsWith(NODE_CLASS_GROUPS.get("EC2NodeClass") + "/")) {
        EC2NodeClass c = EC2NodeClassDecoder.decode(other.name(),
            new Cursor(other.cursor().node(), other.cursor().path(), diagnostics));
        c.devicePlugin().ifPresent(config -> out.add(osPlugin(c.name(), config)));
      }
    }
    return out;
  }

  /**
   * The device plugin built into a Bottlerocket node class's AMI, on the nodes Karpenter labels with
   * that class ({@link NodeClassRef#labelKey}): it beats the cluster's device-plugin ConfigMap there,
   * since Bottlerocket's plugin reads its settings, not the ConfigMap (docs/eks.md).
   */
  public static NamedConfigs.OsPlugin osPlugin(String nodeClass, DevicePluginConfig config) {
    NodeClassRef ref = new NodeClassRef(NodeClassRef.DEFAULT_EC2.group(), NodeClassRef.DEFAULT_EC2.kind(), nodeClass);
    return new NamedConfigs.OsPlugin(ref.labelKey(), nodeClass, "bottlerocket:" + nodeClass, config,
        "Bottlerocket's built-in device plugin, set by EC2NodeClass \"" + nodeClass + "\" userData");
  }

  /**
   * An EKS Auto Mode NodeClass: accepted so that NodePools naming it resolve; its settings (network,
   * IAM role, ephemeral storage) are not modelled, which is said once, naming those written.
   */
  private static void autoModeNodeClass(KubeObject.OtherObject nc) {
    Optional<Cursor> spec = nc.cursor().get("spec");
    if (spec.isEmpty()) {
      return;
    }
    spec.get().checkKnown(AUTO_MODE_NODE_CLASS_FIELDS, false);
    List<String> written = spec.get().entries().keySet().stream().filter(AUTO_MODE_NODE_CLASS_FIELDS::contains)
        .sorted().toList();
    if (!written.isEmpty()) {
      spec.get().warning("EKS Auto Mode NodeClass \"" + nc.name() + "\": " + String.join(", ", written)
          + " not modelled by gpufleet; its nodes are simulated with the instance type's allocatable as "
          + "Karpenter estimates it");
    }
  }
}
