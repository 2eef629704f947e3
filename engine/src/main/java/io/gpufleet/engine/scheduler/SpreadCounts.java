package io.gpufleet.engine.scheduler;

import io.gpufleet.model.collect.PMap;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.node.Node;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * How many pods of one namespace that one selector matches sit on each node and in each domain of
 * one topology key, over every node of an image: the numbers PodTopologySpread's PreFilter and
 * PreScore add up over all nodes each cycle (upstream's {@code countPodsMatchSelector} summed per
 * topology pair). An image makes them on first use and its derived images carry them by deltas (a
 * pod bound or removed, a node relabelled or removed), so a cycle reads them instead of walking every
 * pod of every node. Immutable; only nodes with matching pods are held.
 */
public final class SpreadCounts {

  /**
   * Which pods count, and by which node label they are grouped. The selector is never empty. Its
   * hash is kept: an image derived by a delta puts every key its counts hold into a new map.
   */
  public static final class Key {
    private final String namespace;
    private final LabelSelector selector;
    private final String topologyKey;
    private final int hash;

    public Key(String namespace, LabelSelector selector, String topologyKey) {
      this.namespace = Objects.requireNonNull(namespace, "namespace");
      this.selector = Objects.requireNonNull(selector, "selector");
      this.topologyKey = Objects.requireNonNull(topologyKey, "topologyKey");
      if (selector.isEmpty()) {
        throw new IllegalArgumentException("an empty selector counts nothing: no key for it");
      }
      this.hash = Objects.hash(namespace, selector, topologyKey);
    }

    public String namespace() {
      return namespace;
    }

    public LabelSelector selector() {
      return selector;
    }

    public String topologyKey() {
      return topologyKey;
    }

    /** Whether the pod counts: in the namespace and selected. */
    public boolean matches(PodInfo pod) {
      return pod.pod().meta().namespace().equals(namespace) && selector.matches(pod.pod().meta().labels());
    }

    /** The matching pods on one node. */
    public int count(NodeInfo node) {
      int n = 0;
      for (PodInfo p : node.pods()) {
        if (matches(p)) {
          n++;
        }
      }
      return n;
    }

    /** The node's domain: its value of the topology key, null without it. */
    String domain(Node node) {
      return node.labels().get(topologyKey).orElse(null);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && hash == k.hash && namespace.equals(k.namespace)
          && topologyKey.equals(k.topologyKey) && selector.equals(k.selector);
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public String toString() {
      return "Key[" + namespace + ", " + selector + ", " + topologyKey + "]";
    }
  }

  private final Key key;
  /** Matching pods by node name, nodes with none left out. */
  private final PMap<String, Integer> byNode;
  /** Matching pods by domain, over the nodes that carry the key; domains with none left out. */
  private final PMap<String, Integer> byDomain;
  /** Matching pods on the nodes without the key. */
  private final int unlabelled;

  private SpreadCounts(Key key, PMap<String, Integer> byNode, PMap<String, Integer> byDomain, int unlabelled) {
    this.key = key;
    this.byNode = byNode;
    this.byDomain = byDomain;
    this.unlabelled = unlabelled;
  }

  /** The counts over the given nodes, from their pods. */
  static SpreadCounts of(Key key, List<NodeInfo> nodes) {
    SpreadCounts out = new SpreadCounts(key, PMap.empty(), PMap.empty(), 0);
    for (NodeInfo node : nodes) {
      out = out.plus(node.node(), key.count(node));
    }
    return out;
  }

  public Key key() {
    return key;
  }

  /** Matching pods on the named node. */
  public int onNode(String nodeName) {
    Integer n = byNode.get(nodeName);
    return n == null ? 0 : n;
  }

  /** Matching pods over the nodes whose topology key has this value. */
  public int inDomain(String value) {
    Integer n = byDomain.get(value);
    return n == null ? 0 : n;
  }

  /** Matching pods over the nodes without the topology key. */
  public int unlabelled() {
    return unlabelled;
  }

  /** Each node with matching pods, with their number, in no particular order. */
  public void forEachNode(BiConsumer<String, Integer> action) {
    byNode.forEach(action);
  }

  /** The counts with {@code delta} matching pods more on {@code node}. */
  SpreadCounts plus(Node node, int delta) {
    if (delta == 0) {
      return this;
    }
    String domain = key.domain(node);
    return new SpreadCounts(key, add(byNode, node.name(), delta),
        domain == null ? byDomain : add(byDomain, domain, delta), domain == null ? unlabelled + delta : unlabelled);
  }

  /** The counts after a bind ({@code sign} 1) or an unbind (-1) of {@code pod} on {@code node}. */
  SpreadCounts withPod(Node node, PodInfo pod, int sign) {
    return key.matches(pod) ? plus(node, sign) : this;
  }

  /** The counts after a node's labels changed, its pods kept: its pods move to its new domain. */
  SpreadCounts relabelled(Node before, Node after) {
    int n = onNode(before.name());
    if (n == 0 || Objects.equals(key.domain(before), key.domain(after))) {
      return this;
    }
    return plus(before, -n).plus(after, n);
  }

  /** {@code map} with {@code delta} added to the count under {@code k}; a count that reaches 0 leaves. */
  static PMap<String, Integer> add(PMap<String, Integer> map, String k, int delta) {
    Integer now = map.get(k);
    int next = (now == null ? 0 : now) + delta;
    return next == 0 ? map.remove(k) : map.put(k, next);
  }

  /** Equal when every node and domain count and the unlabelled count are equal. */
  @Override
  public boolean equals(Object o) {
    return o instanceof SpreadCounts s && key.equals(s.key) && unlabelled == s.unlabelled
        && byNode.asMap().equals(s.byNode.asMap()) && byDomain.asMap().equals(s.byDomain.asMap());
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, unlabelled, byNode.size(), byDomain.size());
  }

  @Override
  public String toString() {
    return "SpreadCounts[" + key + ", byNode=" + byNode.asMap() + ", byDomain=" + byDomain.asMap() + ", unlabelled="
        + unlabelled + "]";
  }
}
