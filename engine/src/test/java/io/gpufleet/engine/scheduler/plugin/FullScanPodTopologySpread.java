package io.gpufleet.engine.scheduler.plugin;

import static io.gpufleet.engine.scheduler.plugin.PodTopologySpread.HOSTNAME;
import static io.gpufleet.engine.scheduler.plugin.PodTopologySpread.NAME;
import static io.gpufleet.engine.scheduler.plugin.PodTopologySpread.REASON_MISSING_LABEL;
import static io.gpufleet.engine.scheduler.plugin.PodTopologySpread.REASON_SKEW;
import static io.gpufleet.engine.scheduler.plugin.PodTopologySpread.SYSTEM_DEFAULT_CONSTRAINTS;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.pod.TopologySpreadConstraint;
import io.gpufleet.model.pod.TopologySpreadConstraint.NodeInclusionPolicy;
import io.gpufleet.model.pod.TopologySpreadConstraint.WhenUnsatisfiable;
import io.gpufleet.model.taint.Tolerations;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The test oracle: PodTopologySpread as it was before its counts followed the image by deltas,
 * counting matching pods over every node's pods in each cycle (upstream's {@code calPreFilterState}
 * and {@code initPreScoreState} as written). Tests check the plugin decides and scores exactly as this.
 */
final class FullScanPodTopologySpread implements FilterPlugin, ScorePlugin {

  private final SpreadSelectors selectors;

  FullScanPodTopologySpread(SpreadSelectors selectors) {
    this.selectors = selectors;
  }

  public SpreadSelectors selectors() {
    return selectors;
  }

  @Override
  public String pluginName() {
    return NAME;
  }

  /**
   * A constraint as the plugin applies it: the selector with {@code matchLabelKeys} merged in (absent:
   * selects nothing), and the node inclusion policies resolved.
   */
  record Spread(int maxSkew, String topologyKey, Optional<LabelSelector> selector, int minDomains,
      boolean honorAffinity, boolean honorTaints) {

    boolean selects(Labels labels) {
      return selector.isPresent() && selector.get().matches(labels);
    }

    /** {@code countPodsMatchSelector}: an empty or absent selector counts nothing. */
    int count(NodeInfo node, String namespace) {
      if (selector.isEmpty() || selector.get().isEmpty()) {
        return 0;
      }
      int n = 0;
      for (PodInfo p : node.pods()) {
        if (p.pod().meta().namespace().equals(namespace) && selector.get().matches(p.pod().meta().labels())) {
          n++;
        }
      }
      return n;
    }

    /** {@code matchNodeInclusionPolicies}. */
    boolean includes(PodInfo pod, NodeInfo node) {
      if (honorAffinity && pod.nodeConstrained() && !NodeAffinity.matches(pod.pod().spec(), node)) {
        return false;
      }
      return !honorTaints || Tolerations.firstUntoleratedBlockingOrNull(node.node().taints(),
          pod.pod().spec().tolerations()) == null;
    }
  }

  /** {@code filterTopologySpreadConstraints}: the pod's constraints of one kind, selectors merged. */
  static List<Spread> constraints(List<TopologySpreadConstraint> written, Labels podLabels, WhenUnsatisfiable action,
      Optional<LabelSelector> override) {
    List<Spread> out = new ArrayList<>();
    for (TopologySpreadConstraint c : written) {
      if (c.whenUnsatisfiable() != action) {
        continue;
      }
      Optional<LabelSelector> selector = override.isPresent() ? override : c.labelSelector();
      if (selector.isPresent() && !c.matchLabelKeys().isEmpty()) {
        Map<String, String> values = new TreeMap<>();
        for (String key : c.matchLabelKeys()) {
          podLabels.get(key).ifPresent(v -> values.put(key, v));
        }
        if (!values.isEmpty()) {
          LabelSelector s = selector.get();
          selector = Optional.of(new LabelSelector(s.matchLabels().withAll(Labels.of(values)), s.matchExpressions()));
        }
      }
      out.add(new Spread(c.maxSkew(), c.topologyKey(), selector, c.minDomains().orElse(1),
          c.nodeAffinityPolicy() == NodeInclusionPolicy.HONOR, c.nodeTaintsPolicy() == NodeInclusionPolicy.HONOR));
    }
    return out;
  }

  /** {@code nodeLabelsMatchSpreadConstraints}: the node carries every constraint's topology key. */
  static boolean hasAllKeys(NodeInfo node, List<Spread> constraints) {
    Labels labels = node.node().labels();
    for (Spread c : constraints) {
      if (!labels.has(c.topologyKey())) {
        return false;
      }
    }
    return true;
  }

  // ---- Filter ----

  @Override
  public Optional<FilterPlugin> forCycle(PodInfo pod, ClusterSnapshot snapshot) {
    var written = pod.pod().spec().topologySpreadConstraints();
    if (written.isEmpty()) {
      return Optional.empty();
    }
    List<Spread> hard = constraints(written, pod.pod().meta().labels(), WhenUnsatisfiable.DO_NOT_SCHEDULE,
        Optional.empty());
    return hard.isEmpty() ? Optional.empty() : Optional.of(new FilterCycle(pod, hard, snapshot));
  }

  /** Not filtered without PreFilter state; {@link #forCycle} makes the per-cycle filter. */
  @Override
  public Status filter(PodInfo pod, NodeInfo node) {
    throw new IllegalStateException("PodTopologySpread filters through forCycle");
  }

  /** {@code preFilterState}: matching pods per domain of each hard constraint, over every node. */
  private static final class FilterCycle implements FilterPlugin {
    private final PodInfo pod;
    private final List<Spread> constraints;
    private final ClusterSnapshot snapshot;
    private final List<Map<String, Integer>> counts = new ArrayList<>();
    private final int[] min;

    FilterCycle(PodInfo pod, List<Spread> constraints, ClusterSnapshot snapshot) {
      this.pod = pod;
      this.constraints = constraints;
      this.snapshot = snapshot;
      String namespace = pod.pod().meta().namespace();
      for (int i = 0; i < constraints.size(); i++) {
        counts.add(new HashMap<>());
      }
      for (NodeInfo node : snapshot.nodes()) {
        if (!hasAllKeys(node, constraints)) {
          continue;
        }
        for (int i = 0; i < constraints.size(); i++) {
          Spread c = constraints.get(i);
          if (c.includes(pod, node)) {
            counts.get(i).merge(node.node().labels().get(c.topologyKey()).orElseThrow(), c.count(node, namespace),
                Integer::sum);
          }
        }
      }
      min = new int[constraints.size()];
      for (int i = 0; i < min.length; i++) {
        min[i] = minMatch(i, null, 0);
      }
    }

    /** {@code minMatchNum}: the smallest domain count (with one domain's count replaced), 0 below minDomains. */
    private int minMatch(int i, String replaced, int replacement) {
      Map<String, Integer> byDomain = counts.get(i);
      if (byDomain.size() < constraints.get(i).minDomains()) {
        return 0;
      }
      int m = Integer.MAX_VALUE;
      for (Map.Entry<String, Integer> e : byDomain.entrySet()) {
        m = Math.min(m, e.getKey().equals(replaced) ? replacement : e.getValue());
      }
      return m;
    }

    @Override
    public String pluginName() {
      return NAME;
    }

    @Override
    public Status filter(PodInfo p, NodeInfo node) {
      // Preemption filters a node with victims removed: its domain counts change by what left it (RemovePod).
      NodeInfo original = snapshot.node(node.name()).orElse(node);
      boolean changed = original != node && hasAllKeys(original, constraints);
      Labels podLabels = pod.pod().meta().labels();
      String namespace = pod.pod().meta().namespace();
      for (int i = 0; i < constraints.size(); i++) {
        Spread c = constraints.get(i);
        Optional<String> value = node.node().labels().get(c.topologyKey());
        if (value.isEmpty()) {
          return Status.unresolvable(NAME, REASON_MISSING_LABEL);
        }
        int matching = counts.get(i).getOrDefault(value.get(), 0);
        int minimum = min[i];
        if (changed && c.includes(pod, original)) {
          int delta = c.count(node, namespace) - c.count(original, namespace);
          if (delta != 0) {
            matching += delta;
            minimum = minMatch(i, value.get(), matching);
          }
        }
        int self = c.selects(podLabels) ? 1 : 0;
        if ((long) matching + self - minimum > c.maxSkew()) {
          return Status.unschedulable(NAME, REASON_SKEW);
        }
      }
      return Status.SUCCESS;
    }
  }

  // ---- Score ----

  @Override
  public boolean appliesTo(PodInfo pod) {
    return !softConstraints(pod).isEmpty();
  }

  /** The pod's soft constraints, or the system defaults over its controller's selector when it wrote none. */
  private List<Spread> softConstraints(PodInfo pod) {
    var written = pod.pod().spec().topologySpreadConstraints();
    Labels labels = pod.pod().meta().labels();
    if (!written.isEmpty()) {
      return constraints(written, labels, WhenUnsatisfiable.SCHEDULE_ANYWAY, Optional.empty());
    }
    Optional<LabelSelector> selector = selectors.selectorFor(pod.pod()).filter(s -> !s.isEmpty());
    if (selector.isEmpty()) {
      return List.of();
    }
    return constraints(SYSTEM_DEFAULT_CONSTRAINTS, labels, WhenUnsatisfiable.SCHEDULE_ANYWAY, selector);
  }

  @Override
  public Optional<ScorePlugin> preScore(PodInfo pod, ClusterSnapshot snapshot) {
    List<Spread> soft = softConstraints(pod);
    if (soft.isEmpty() || snapshot.size() == 0) {
      return Optional.empty();
    }
    // Only constraints written in the pod require nodes to carry every topology key.
    boolean requireAll = !pod.pod().spec().topologySpreadConstraints().isEmpty();
    return Optional.of(new ScoreCycle(pod, soft, requireAll, snapshot));
  }

  /** Not scored without PreScore state; {@link #preScore} makes the per-cycle scorer. */
  @Override
  public long score(PodInfo pod, NodeInfo node) {
    throw new IllegalStateException("PodTopologySpread scores through preScore");
  }

  /**
   * The state of one scoring cycle. The twin scores a node as soon as it passes the filters, before
   * the feasible set is known, while upstream's weights depend on that set (the number of feasible
   * nodes and of their domains); so {@link #score} records the node and {@link #normalize} computes
   * upstream's Score and NormalizeScore once every feasible node is in.
   */
  private static final class ScoreCycle implements ScorePlugin {
    private final PodInfo pod;
    private final List<Spread> constraints;
    private final boolean requireAll;
    /** Matching pods per domain of each constraint other than hostname, over every node. */
    private final List<Map<String, Integer>> counts = new ArrayList<>();
    private final List<NodeInfo> scored = new ArrayList<>();

    ScoreCycle(PodInfo pod, List<Spread> constraints, boolean requireAll, ClusterSnapshot snapshot) {
      this.pod = pod;
      this.constraints = constraints;
      this.requireAll = requireAll;
      String namespace = pod.pod().meta().namespace();
      boolean perDomain = false;
      for (Spread c : constraints) {
        counts.add(new HashMap<>());
        perDomain |= !c.topologyKey().equals(HOSTNAME);
      }
      if (!perDomain) {
        return;
      }
      // Each node's domain comes from the image's label columns: one lookup by index, not a label map per node.
      List<ClusterSnapshot.LabelColumn> domains = new ArrayList<>();
      for (Spread c : constraints) {
        domains.add(c.topologyKey().equals(HOSTNAME) ? null : snapshot.labelColumn(c.topologyKey()));
      }
      for (int k = 0; k < snapshot.size(); k++) {
        NodeInfo node = snapshot.get(k);
        if (requireAll && !hasAllKeys(node, constraints)) {
          continue;
        }
        for (int i = 0; i < constraints.size(); i++) {
          Spread c = constraints.get(i);
          if (domains.get(i) == null || !c.includes(pod, node)) {
            continue;
          }
          String domain = domains.get(i).get(k);
          counts.get(i).merge(domain == null ? "" : domain, c.count(node, namespace), Integer::sum);
        }
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
      boolean[] ignored = new boolean[feasible];
      int eligible = 0;
      List<Set<String>> domains = new ArrayList<>();
      for (int i = 0; i < constraints.size(); i++) {
        domains.add(new HashSet<>());
      }
      for (int j = 0; j < feasible; j++) {
        NodeInfo node = scored.get(j);
        ignored[j] = requireAll && !hasAllKeys(node, constraints);
        if (ignored[j]) {
          continue;
        }
        eligible++;
        for (int i = 0; i < constraints.size(); i++) {
          domains.get(i).add(node.node().labels().get(constraints.get(i).topologyKey()).orElse(""));
        }
      }
      double[] weight = new double[constraints.size()];
      for (int i = 0; i < weight.length; i++) {
        int size = constraints.get(i).topologyKey().equals(HOSTNAME) ? eligible : domains.get(i).size();
        weight[i] = Math.log(size + 2.0);
      }
      String namespace = pod.pod().meta().namespace();
      long min = Long.MAX_VALUE;
      long max = 0;
      for (int j = 0; j < feasible; j++) {
        if (ignored[j]) {
          continue;
        }
        NodeInfo node = scored.get(j);
        double s = 0;
        for (int i = 0; i < constraints.size(); i++) {
          Spread c = constraints.get(i);
          Optional<String> value = node.node().labels().get(c.topologyKey());
          if (value.isEmpty()) {
            continue;
          }
          long count = c.topologyKey().equals(HOSTNAME) ? c.count(node, namespace)
              : counts.get(i).getOrDefault(value.get(), 0);
          s += count * weight[i] + (c.maxSkew() - 1);
        }
        scores[j] = Math.round(s);
        min = Math.min(min, scores[j]);
        max = Math.max(max, scores[j]);
      }
      for (int j = 0; j < feasible; j++) {
        if (ignored[j]) {
          scores[j] = 0;
        } else {
          scores[j] = max == 0 ? MAX_NODE_SCORE : MAX_NODE_SCORE * (max + min - scores[j]) / max;
        }
      }
    }
  }
}
