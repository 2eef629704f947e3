package io.gpufleet.engine.scheduler;

import io.gpufleet.model.node.Node;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An immutable image of the nodes and the pods bound to them, in a fixed node order (the order
 * the scheduler iterates). Every change returns a new image that shares the untouched nodes.
 */
public final class ClusterSnapshot {

  private final NodeInfo[] nodes;
  private final Map<String, Integer> index;
  /**
   * Each node's value of a label, by node index, made on first use: shared with every image a bind
   * or an unbind derives from this one, since those keep every node and its labels where they were.
   */
  private final LabelColumns columns;
  /** Pods with pod (anti-)affinity, and with required anti-affinity, over all nodes: InterPodAffinity skips at 0. */
  private final int podsWithAffinity;
  private final int podsWithRequiredAntiAffinity;

  private ClusterSnapshot(NodeInfo[] nodes, Map<String, Integer> index, int podsWithAffinity,
      int podsWithRequiredAntiAffinity) {
    this(nodes, index, podsWithAffinity, podsWithRequiredAntiAffinity, new LabelColumns());
  }

  private ClusterSnapshot(NodeInfo[] nodes, Map<String, Integer> index, int podsWithAffinity,
      int podsWithRequiredAntiAffinity, LabelColumns columns) {
    this.nodes = nodes;
    this.index = index;
    this.columns = columns;
    this.podsWithAffinity = podsWithAffinity;
    this.podsWithRequiredAntiAffinity = podsWithRequiredAntiAffinity;
  }

  public int podsWithAffinity() {
    return podsWithAffinity;
  }

  public int podsWithRequiredAntiAffinity() {
    return podsWithRequiredAntiAffinity;
  }

  public static ClusterSnapshot of(List<Node> nodes) {
    NodeInfo[] infos = new NodeInfo[nodes.size()];
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < infos.length; i++) {
      infos[i] = NodeInfo.of(nodes.get(i));
      if (index.put(infos[i].name(), i) != null) {
        throw new IllegalArgumentException("duplicate node name " + infos[i].name());
      }
    }
    return new ClusterSnapshot(infos, Map.copyOf(index), 0, 0);
  }

  public static ClusterSnapshot ofInfos(List<NodeInfo> infos) {
    NodeInfo[] arr = infos.toArray(NodeInfo[]::new);
    Map<String, Integer> index = new HashMap<>();
    int affinity = 0;
    int anti = 0;
    for (int i = 0; i < arr.length; i++) {
      if (index.put(arr[i].name(), i) != null) {
        throw new IllegalArgumentException("duplicate node name " + arr[i].name());
      }
      affinity += arr[i].podsWithAffinity().size();
      anti += arr[i].podsWithRequiredAntiAffinity().size();
    }
    return new ClusterSnapshot(arr, Map.copyOf(index), affinity, anti);
  }

  public int size() {
    return nodes.length;
  }

  public NodeInfo get(int i) {
    return nodes[i];
  }

  public Optional<NodeInfo> node(String name) {
    Integer i = index.get(name);
    return i == null ? Optional.empty() : Optional.of(nodes[i]);
  }

  public List<NodeInfo> nodes() {
    return List.of(nodes);
  }

  /** The image after binding a pod to a node. */
  public ClusterSnapshot bind(PodInfo pod, String nodeName) {
    int i = indexOf(nodeName);
    return replace(i, nodes[i].withPod(pod));
  }

  /** The image after a pod leaves a node. */
  public ClusterSnapshot unbind(String podKey, String nodeName) {
    int i = indexOf(nodeName);
    return replace(i, nodes[i].withoutPod(podKey));
  }

  /** The image with a node changed (labels, taints, allocatable, cordon), its pods kept. */
  public ClusterSnapshot withNode(Node changed) {
    Integer i = index.get(changed.name());
    if (i == null) {
      return addNode(changed);
    }
    return replace(i, nodes[i].withNode(changed));
  }

  public ClusterSnapshot addNode(Node node) {
    if (index.containsKey(node.name())) {
      throw new IllegalArgumentException("node " + node.name() + " already exists");
    }
    NodeInfo[] next = Arrays.copyOf(nodes, nodes.length + 1);
    next[nodes.length] = NodeInfo.of(node);
    Map<String, Integer> idx = new HashMap<>(index);
    idx.put(node.name(), nodes.length);
    return new ClusterSnapshot(next, Map.copyOf(idx), podsWithAffinity, podsWithRequiredAntiAffinity);
  }

  /** The image without a node; its pods go with it (the caller decides what becomes of them). */
  public ClusterSnapshot removeNode(String name) {
    int i = indexOf(name);
    List<NodeInfo> next = new ArrayList<>(Arrays.asList(nodes));
    next.remove(i);
    return ofInfos(next);
  }

  /** The node's index, or -1 when there is none by that name. */
  int position(String nodeName) {
    Integer i = index.get(nodeName);
    return i == null ? -1 : i;
  }

  private int indexOf(String nodeName) {
    Integer i = index.get(nodeName);
    if (i == null) {
      throw new IllegalArgumentException("no node named " + nodeName);
    }
    return i;
  }

  private ClusterSnapshot replace(int i, NodeInfo info) {
    NodeInfo[] next = nodes.clone();
    next[i] = info;
    // The same Node object keeps its labels: the label columns stay valid for the new image.
    LabelColumns kept = info.node() == nodes[i].node() ? columns : new LabelColumns();
    return new ClusterSnapshot(next, index,
        podsWithAffinity - nodes[i].podsWithAffinity().size() + info.podsWithAffinity().size(),
        podsWithRequiredAntiAffinity - nodes[i].podsWithRequiredAntiAffinity().size()
            + info.podsWithRequiredAntiAffinity().size(), kept);
  }

  /**
   * The value of label {@code key} on every node, by node index ({@code null} where a node lacks it):
   * a topology domain read once per image lineage instead of once per node per scheduling cycle.
   */
  public LabelColumn labelColumn(String key) {
    return columns.byKey.computeIfAbsent(key, k -> {
      String[] values = new String[nodes.length];
      for (int i = 0; i < nodes.length; i++) {
        values[i] = nodes[i].node().labels().get(k).orElse(null);
      }
      return new LabelColumn(values);
    });
  }

  /**
   * Whether any node reports an image it holds: ImageLocality counts image holders over every node
   * for each pod, and skips at once when none holds any. Known once per image lineage, as the label
   * columns are, since it reads only the nodes themselves.
   */
  public boolean anyNodeHoldsImages() {
    int known = columns.anyImages;
    if (known < 0) {
      known = 0;
      for (NodeInfo n : nodes) {
        if (!n.node().images().isEmpty()) {
          known = 1;
          break;
        }
      }
      columns.anyImages = known;
    }
    return known == 1;
  }

  /** One label's values by node index; read-only. */
  public static final class LabelColumn {
    private final String[] values;

    private LabelColumn(String[] values) {
      this.values = values;
    }

    /** The label's value on node {@code i}, or null when the node has no such label. */
    public String get(int i) {
      return values[i];
    }
  }

  /** The columns made so far; safe to share between threads, as images are. */
  private static final class LabelColumns {
    /** -1 until known, then 1 when some node holds an image, else 0 (racing threads compute the same). */
    private volatile int anyImages = -1;
    private final java.util.concurrent.ConcurrentHashMap<String, LabelColumn> byKey =
        new java.util.concurrent.ConcurrentHashMap<>();
  }
}
