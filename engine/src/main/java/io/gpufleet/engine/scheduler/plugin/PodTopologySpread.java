package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.SpreadCounts;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.pod.TopologySpreadConstraint.NodeInclusionPolicy;
import io.gpufleet.model.pod.TopologySpreadConstraint.WhenUnsatisfiable;
import io.gpufleet.model.pod.TopologySpreadConstraint;
import io.gpufleet.model.taint.Tolerations;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.ToIntFunction;

/**
 * PodTopologySpread as kube-scheduler runs it. Filter: a pod's hard ({@code DoNotSchedule})
 * constraints, each node's skew (matching pods in its domain, plus one if the pod matches itself,
 * minus the global minimum, which is 0 while fewer than {@code minDomains} domains exist) at most
 * {@code maxSkew}. Score: its soft ({@code ScheduleAnyway}) constraints; a pod with none written
 * that a ReplicaSet or StatefulSet controls gets the default system constraints ({@code
 * defaultingType: System}: hostname maxSkew 3, zone maxSkew 5, over its controller's selector).
 *
 * <p>Sources: kubernetes/kubernetes {@code pkg/scheduler/framework/plugins/podtopologyspread/}
 * {@code plugin.go} ({@code systemDefaultConstraints}, the reasons), {@code common.go} ({@code
 * filterTopologySpreadConstraints} with {@code matchLabelKeys}, {@code matchNodeInclusionPolicies},
 * {@code countPodsMatchSelector}), {@code filtering.go} ({@code calPreFilterState}, {@code
 * Filter}, {@code minMatchNum}) and {@code scoring.go} ({@code initPreScoreState}, {@code PreScore},
 * {@code Score}, {@code NormalizeScore}, {@code topologyNormalizingWeight}, {@code scoreForCount}).
 * A pod without hard constraints skips the Filter, and one without soft or default constraints the
 * Score, so unconstrained pods cost nothing here.
 *
 * <p>Upstream counts matching pods over every node's pods in each cycle; here the cluster image
 * keeps those counts by node and by domain ({@link SpreadCounts}, followed by deltas), so a cycle
 * reads them, and visits only the nodes holding matching pods when the inclusion policies or a
 * missing topology key leave some nodes out. The numbers are upstream's either way.
 */
public final class PodTopologySpread implements FilterPlugin, ScorePlugin {

  public static final String NAME = "PodTopologySpread";
  public static final String HOSTNAME = "kubernetes.io/hostname";
  public static final String ZONE = "topology.kubernetes.io/zone";
  /** Upstream's {@code ErrReasonConstraintsNotMatch}. */
  public static final String REASON_SKEW = "node(s) didn't match pod topology spread constraints";
  /** Upstream's {@code ErrReasonNodeLabelNotMatch}. */
  public static final String REASON_MISSING_LABEL = REASON_SKEW + " (missing required label)";

  /** {@code systemDefaultConstraints}, in upstream's order; the selector is the controller's. */
  public static final List<TopologySpreadConstraint> SYSTEM_DEFAULT_CONSTRAINTS = List.of(
      TopologySpreadConstraint.of(3, HOSTNAME, WhenUnsatisfiable.SCHEDULE_ANYWAY, null),
      TopologySpreadConstraint.of(5, ZONE, WhenUnsatisfiable.SCHEDULE_ANYWAY, null));

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

  /**
   * A constraint as the plugin applies it: the selector with {@code matchLabelKeys} merged in (absent:
   * selects nothing), and the node inclusion policies resolved.
   */
  record Spread(int maxSkew, String topologyKey, Optional<LabelSelector> selector, int minDomains,
      boolean honorAffinity, boolean honorTaints) {

    boolean selects(Labels labels) {
      return selector.isPresent() && selector.get().matches(labels);
    }

    /** Which pods this constraint counts, in the pod's namespace; none when the selector is empty or absent. */
    Optional<SpreadCounts.Key> key(String namespace) {
      return selector.filter(s -> !s.isEmpty()).map(s -> new SpreadCounts.Key(namespace, s, topologyKey));
    }

    /** {@code countPodsMatchSelector} on one node: an empty or absent selector counts nothing. */
    int count(NodeInfo node, String namespace) {
      return key(namespace).map(k -> k.count(node)).orElse(0);
    }

    /**
     * Whether {@link #includes} holds for every node of the image: no affinity to honour, or a pod
     * its nodes do not constrain; no taints to honour, or every taint list of the image tolerated.
     */
    boolean includesEvery(PodInfo pod, ClusterSnapshot snapshot) {
      if (honorAffinity && pod.nodeConstrained()) {
        return false;
      }
      if (honorTaints) {
        ClusterSnapshot.TaintClasses classes = snapshot.taintClasses();
        for (int t = 0; t < classes.count(); t++) {
          if (Tolerations.firstUntoleratedBlockingOrNull(classes.taints(t), pod.pod().spec().tolerations()) != null) {
            return false;
          }
        }
      }
      return true;
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
      // Every domain of an eligible node is present, with 0 until its matching pods are added.
      for (NodeInfo node : snapshot.nodes()) {
        if (!hasAllKeys(node, constraints)) {
          continue;
        }
        for (int i = 0; i < constraints.size(); i++) {
          Spread c = constraints.get(i);
          if (c.includes(pod, node)) {
            counts.get(i).putIfAbsent(node.node().labels().get(c.topologyKey()).orElseThrow(), 0);
          }
        }
      }
      // The matching pods come from the image's counts: only the nodes holding some are visited.
      for (int i = 0; i < constraints.size(); i++) {
        Spread c = constraints.get(i);
        Optional<SpreadCounts.Key> key = c.key(namespace);
        if (key.isEmpty()) {
          continue;
        }
        Map<String, Integer> byDomain = counts.get(i);
        snapshot.spreadCounts(key.get()).forEachNode((name, n) -> {
          NodeInfo node = snapshot.node(name).orElseThrow();
          if (hasAllKeys(node, constraints) && c.includes(pod, node)) {
            byDomain.merge(node.node().labels().get(c.topologyKey()).orElseThrow(), n, Integer::sum);
          }
        });
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
    private final ClusterSnapshot snapshot;
    /** Which pods each constraint counts (empty: none). */
    private final List<Optional<SpreadCounts.Key>> keys = new ArrayList<>();
    /**
     * Matching pods in a domain of each constraint, over every eligible node (a node without the key
     * counts in the domain ""); for hostname, by node name.
     */
    private final List<ToIntFunction<String>> counts = new ArrayList<>();
    private final List<NodeInfo> scored = new ArrayList<>();
    /** Each scored node's index in {@link #snapshot}, or -1 for a node scored on its own. */
    private int[] positions = new int[16];

    ScoreCycle(PodInfo pod, List<Spread> constraints, boolean requireAll, ClusterSnapshot snapshot) {
      this.pod = pod;
      this.constraints = constraints;
      this.requireAll = requireAll;
      this.snapshot = snapshot;
      String namespace = pod.pod().meta().namespace();
      // When every node is eligible, the image's counts by domain are the answer as they stand.
      Boolean everyNode = null;
      for (Spread c : constraints) {
        Optional<SpreadCounts.Key> key = c.key(namespace);
        keys.add(key);
        if (key.isEmpty()) {
          counts.add(domain -> 0);
          continue;
        }
        if (c.topologyKey().equals(HOSTNAME)) {
          // Upstream counts a scored node's own pods, whatever the inclusion policies.
          SpreadCounts all = snapshot.spreadCounts(key.get());
          counts.add(all::onNode);
          continue;
        }
        if (everyNode == null) {
          everyNode = !requireAll || everyNodeHasAllKeys(snapshot);
        }
        if (everyNode && c.includesEvery(pod, snapshot)) {
          SpreadCounts all = snapshot.spreadCounts(key.get());
          counts.add(domain -> all.inDomain(domain) + (domain.isEmpty() ? all.unlabelled() : 0));
        } else {
          // Some nodes are left out: add up the eligible ones among those holding matching pods.
          Map<String, Integer> byDomain = new HashMap<>();
          snapshot.spreadCounts(key.get()).forEachNode((name, n) -> {
            NodeInfo node = snapshot.node(name).orElseThrow();
            if ((!requireAll || hasAllKeys(node, constraints)) && c.includes(pod, node)) {
              byDomain.merge(node.node().labels().get(c.topologyKey()).orElse(""), n, Integer::sum);
            }
          });
          counts.add(domain -> byDomain.getOrDefault(domain, 0));
        }
      }
    }

    /** Whether every node of the image carries every constraint's topology key. */
    private boolean everyNodeHasAllKeys(ClusterSnapshot snapshot) {
      for (Spread c : constraints) {
        if (snapshot.labelColumn(c.topologyKey()).missing() > 0) {
          return false;
        }
      }
      return true;
    }

    @Override
    public String pluginName() {
      return NAME;
    }

    @Override
    public long score(PodInfo p, NodeInfo node) {
      record(node, -1);
      return 0;
    }

    /** Records the image's own nodes by index, so that normalize reads their labels from the image's columns. */
    @Override
    public void scoreAll(PodInfo p, ClusterSnapshot image, int[] nodes, int count, long[] out) {
      for (int j = 0; j < count; j++) {
        record(image.get(nodes[j]), image == snapshot ? nodes[j] : -1);
        out[j] = 0;
      }
    }

    private void record(NodeInfo node, int position) {
      if (scored.size() == positions.length) {
        positions = Arrays.copyOf(positions, positions.length * 2);
      }
      positions[scored.size()] = position;
      scored.add(node);
    }

    @Override
    public void normalize(PodInfo p, long[] scores) {
      int feasible = scores.length;
      // Each scored node's value of each topology key (null without it).
      String[][] values = new String[constraints.size()][feasible];
      for (int i = 0; i < constraints.size(); i++) {
        String key = constraints.get(i).topologyKey();
        ClusterSnapshot.LabelColumn column = null;
        for (int j = 0; j < feasible; j++) {
          int at = positions[j];
          if (at >= 0) {
            column = column == null ? snapshot.labelColumn(key) : column;
            values[i][j] = column.get(at);
          } else {
            values[i][j] = scored.get(j).node().labels().get(key).orElse(null);
          }
        }
      }
      boolean[] ignored = new boolean[feasible];
      int eligible = 0;
      List<Set<String>> domains = new ArrayList<>();
      for (int i = 0; i < constraints.size(); i++) {
        domains.add(new HashSet<>());
      }
      for (int j = 0; j < feasible; j++) {
        boolean all = true;
        for (int i = 0; i < constraints.size(); i++) {
          all &= values[i][j] != null;
        }
        ignored[j] = requireAll && !all;
        if (ignored[j]) {
          continue;
        }
        eligible++;
        for (int i = 0; i < constraints.size(); i++) {
          if (!constraints.get(i).topologyKey().equals(HOSTNAME)) {
            domains.get(i).add(values[i][j] == null ? "" : values[i][j]);
          }
        }
      }
      double[] weight = new double[constraints.size()];
      for (int i = 0; i < weight.length; i++) {
        int size = constraints.get(i).topologyKey().equals(HOSTNAME) ? eligible : domains.get(i).size();
        weight[i] = Math.log(size + 2.0);
      }
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
          String value = values[i][j];
          if (value == null) {
            continue;
          }
          long count;
          if (!c.topologyKey().equals(HOSTNAME)) {
            count = counts.get(i).applyAsInt(value);
          } else if (positions[j] >= 0) {
            count = counts.get(i).applyAsInt(node.name());
          } else {
            count = keys.get(i).map(k -> k.count(node)).orElse(0);
          }
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
