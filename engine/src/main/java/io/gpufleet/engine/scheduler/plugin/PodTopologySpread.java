package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.model.label.LabelSelector;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * PodTopologySpread scoring with kube-scheduler's default system constraints ({@code
 * defaultingType: System}): a pod without constraints of its own that a ReplicaSet or StatefulSet
 * controls is spread softly ({@code ScheduleAnyway}) by {@code kubernetes.io/hostname} (maxSkew 3)
 * and {@code topology.kubernetes.io/zone} (maxSkew 5), counting the pods its controller's selector
 * matches in its namespace. Source: kubernetes/kubernetes pkg/scheduler/framework/plugins/
 * podtopologyspread/plugin.go ({@code systemDefaultConstraints}), common.go ({@code
 * buildDefaultConstraints}), scoring.go ({@code PreScore}, {@code Score}, {@code NormalizeScore},
 * {@code scoreForCount}, {@code topologyNormalizingWeight}).
 *
 * <p>Defaults as upstream: nodeAffinityPolicy Honor (only nodes the pod's node selector and required
 * affinity admit are counted), nodeTaintsPolicy Ignore. System-defaulted constraints do not require
 * nodes to carry every topology key, so no node is ignored; a node without the zone label counts in
 * the empty-valued zone, as upstream. Pods with constraints of their own are not read by the twin
 * yet (the manifest reader warns), so the defaults apply to them instead.
 */
public final class PodTopologySpread implements ScorePlugin {

  public static final String NAME = "PodTopologySpread";
  public static final String HOSTNAME = "kubernetes.io/hostname";
  public static final String ZONE = "topology.kubernetes.io/zone";

  /** One soft constraint: its topology key and maxSkew. */
  public record Constraint(String topologyKey, int maxSkew) {}

  /** {@code systemDefaultConstraints}, in upstream's order. */
  public static final List<Constraint> SYSTEM_DEFAULT_CONSTRAINTS =
      List.of(new Constraint(HOSTNAME, 3), new Constraint(ZONE, 5));

  private final SpreadSelectors selectors;

  public PodTopologySpread(SpreadSelectors selectors) {
    this.selectors = selectors;
  }

  public SpreadSelectors selectors() {
    return selectors;
  }

  @Override
  public String pluginName() {
    return NAME;
  }

  /** Upstream's PreScore returns Skip when the pod gets no soft constraint; so does this. */
  @Override
  public boolean appliesTo(PodInfo pod) {
    return selector(pod).isPresent();
  }

  private Optional<LabelSelector> selector(PodInfo pod) {
    return selectors.selectorFor(pod.pod()).filter(s -> !s.isEmpty());
  }

  @Override
  public Optional<ScorePlugin> preScore(PodInfo pod, ClusterSnapshot snapshot) {
    Optional<LabelSelector> selector = selector(pod);
    if (selector.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Cycle(pod, selector.get(), snapshot));
  }

  /** Not scored without PreScore state; {@link #preScore} makes the per-cycle scorer. */
  @Override
  public long score(PodInfo pod, NodeInfo node) {
    throw new IllegalStateException("PodTopologySpread scores through preScore");
  }

  /** {@code countPodsMatchSelector}: the node's pods in the pod's namespace that the selector matches. */
  static int countMatching(NodeInfo node, LabelSelector selector, String namespace) {
    int n = 0;
    for (PodInfo p : node.pods()) {
      if (p.pod().meta().namespace().equals(namespace) && selector.matches(p.pod().meta().labels())) {
        n++;
      }
    }
    return n;
  }

  /**
   * The state of one scheduling cycle. The twin scores a node as soon as it passes the filters,
   * before the feasible set is known, while upstream's weights depend on that set (the number of
   * feasible nodes and of their zones); so {@link #score} records the node's counts and
   * {@link #normalize} computes upstream's Score and NormalizeScore once every feasible node is in.
   */
  private static final class Cycle implements ScorePlugin {
    private final PodInfo pod;
    private final LabelSelector selector;
    private final Map<String, Integer> zoneCounts = new HashMap<>();
    private final List<NodeInfo> scored = new java.util.ArrayList<>();

    Cycle(PodInfo pod, LabelSelector selector, ClusterSnapshot snapshot) {
      this.pod = pod;
      this.selector = selector;
      String namespace = pod.pod().meta().namespace();
      for (NodeInfo node : snapshot.nodes()) {
        // nodeAffinityPolicy Honor: only nodes the pod could be placed on by affinity count.
        if (pod.nodeConstrained() && !NodeAffinity.matches(pod.pod().spec(), node)) {
          continue;
        }
        String zone = node.node().labels().get(ZONE).orElse("");
        zoneCounts.merge(zone, countMatching(node, selector, namespace), Integer::sum);
      }
    }

    @Override
    public String pluginName() {
      return NAME;
    }

    @Override
    public long score(PodInfo p, NodeInfo node) {
      scored.add(node);
      return 0;
    }

    @Override
    public void normalize(PodInfo p, long[] scores) {
      int feasible = scores.length;
      Set<String> zones = new HashSet<>();
      for (int j = 0; j < feasible; j++) {
        zones.add(scored.get(j).node().labels().get(ZONE).orElse(""));
      }
      double hostWeight = Math.log(feasible + 2.0);
      double zoneWeight = Math.log(zones.size() + 2.0);
      String namespace = pod.pod().meta().namespace();
      long min = Long.MAX_VALUE;
      long max = 0;
      for (int j = 0; j < feasible; j++) {
        NodeInfo node = scored.get(j);
        double s = 0;
        for (Constraint c : SYSTEM_DEFAULT_CONSTRAINTS) {
          Optional<String> value = node.node().labels().get(c.topologyKey());
          if (value.isEmpty()) {
            continue;
          }
          boolean host = c.topologyKey().equals(HOSTNAME);
          long count = host ? countMatching(node, selector, namespace) : zoneCounts.getOrDefault(value.get(), 0);
          s += count * (host ? hostWeight : zoneWeight) + (c.maxSkew() - 1);
        }
        scores[j] = Math.round(s);
        min = Math.min(min, scores[j]);
        max = Math.max(max, scores[j]);
      }
      for (int j = 0; j < feasible; j++) {
        scores[j] = max == 0 ? MAX_NODE_SCORE : MAX_NODE_SCORE * (max + min - scores[j]) / max;
      }
    }
  }
}
