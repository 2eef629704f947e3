package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.model.affinity.PodAffinityTerm;
import io.gpufleet.model.affinity.WeightedPodAffinityTerm;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.pod.Pod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * InterPodAffinity as kube-scheduler runs it. Filter: the pod's required affinity terms must each
 * find a matching pod in the node's domain (or, if no pod anywhere matches and the pod matches its
 * own terms, it may start the series), its required anti-affinity terms none, and no existing pod's
 * required anti-affinity may reject it. Score: per domain, the weights of the pod's preferred terms
 * that existing pods match (anti-affinity subtracts), plus existing pods' preferred terms the pod
 * matches and their required affinity terms at hardPodAffinityWeight 1, scaled so the range maps to
 * 0..100.
 *
 * <p>Sources: kubernetes/kubernetes {@code pkg/scheduler/framework/plugins/interpodaffinity/}
 * {@code filtering.go} ({@code PreFilter}, {@code Filter}, {@code satisfyPodAffinity}, the
 * reasons), {@code scoring.go} ({@code PreScore}, {@code processExistingPod}, {@code Score}, {@code
 * NormalizeScore}), and {@code framework/types.go} ({@code AffinityTerm.Matches}, {@code
 * GetNamespacesFromPodAffinityTerm}). A pod without terms skips both when no existing pod has them,
 * from counters the snapshot keeps, so unconstrained pods cost nothing here.
 */
public final class InterPodAffinity implements FilterPlugin, ScorePlugin {

  public static final String NAME = "InterPodAffinity";
  /** Upstream's {@code ErrReasonAffinityRulesNotMatch}. */
  public static final String REASON_AFFINITY = "node(s) didn't match pod affinity rules";
  /** Upstream's {@code ErrReasonAntiAffinityRulesNotMatch}. */
  public static final String REASON_ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules";
  /** Upstream's {@code ErrReasonExistingAntiAffinityRulesNotMatch}. */
  public static final String REASON_EXISTING_ANTI_AFFINITY = "node(s) didn't satisfy existing pods anti-affinity rules";
  /** InterPodAffinityArgs' default {@code hardPodAffinityWeight}. */
  public static final int HARD_POD_AFFINITY_WEIGHT = 1;

  private final NamespaceLabels namespaces;

  public InterPodAffinity(NamespaceLabels namespaces) {
    this.namespaces = namespaces;
  }

  @Override
  public String pluginName() {
    return NAME;
  }

  /**
   * A term as the plugin matches it ({@code framework.AffinityTerm}): selector with matchLabelKeys
   * and mismatchLabelKeys merged (absent: selects nothing), the namespaces named or the owner's own,
   * the namespace selector (absent: none), and the weight of a preferred term.
   */
  record Term(Optional<LabelSelector> selector, Set<String> namespaces, Optional<LabelSelector> namespaceSelector,
      String topologyKey, int weight) {

    static Term of(PodAffinityTerm t, Pod owner, int weight) {
      Set<String> names = t.namespaces().isEmpty() && t.namespaceSelector().isEmpty()
          ? Set.of(owner.meta().namespace()) : Set.copyOf(t.namespaces());
      Optional<LabelSelector> selector = t.labelSelector();
      if (selector.isPresent() && (!t.matchLabelKeys().isEmpty() || !t.mismatchLabelKeys().isEmpty())) {
        List<Requirement> merged = new ArrayList<>(selector.get().matchExpressions());
        Labels labels = owner.meta().labels();
        for (String key : t.matchLabelKeys()) {
          labels.get(key).ifPresent(v -> merged.add(Requirement.in(key, v)));
        }
        for (String key : t.mismatchLabelKeys()) {
          labels.get(key).ifPresent(v -> merged.add(Requirement.notIn(key, v)));
        }
        selector = Optional.of(new LabelSelector(selector.get().matchLabels(), merged));
      }
      return new Term(selector, names, t.namespaceSelector(), t.topologyKey(), weight);
    }

    /** {@code AffinityTerm.Matches}. */
    boolean matches(Pod pod, NamespaceLabels labelsOf) {
      String ns = pod.meta().namespace();
      boolean inNamespace = namespaces.contains(ns)
          || namespaceSelector.isPresent() && namespaceSelector.get().matches(labelsOf.of(ns));
      return inNamespace && selector.isPresent() && selector.get().matches(pod.meta().labels());
    }
  }

  static List<Term> required(List<PodAffinityTerm> terms, Pod owner) {
    List<Term> out = new ArrayList<>(terms.size());
    for (PodAffinityTerm t : terms) {
      out.add(Term.of(t, owner, 0));
    }
    return out;
  }

  static List<Term> preferred(List<WeightedPodAffinityTerm> terms, Pod owner) {
    List<Term> out = new ArrayList<>(terms.size());
    for (WeightedPodAffinityTerm t : terms) {
      out.add(Term.of(t.term(), owner, t.weight()));
    }
    return out;
  }

  /** A topology key and one of its values. */
  private record Pair(String key, String value) {}

  // ---- Filter ----

  @Override
  public Optional<FilterPlugin> forCycle(PodInfo pod, ClusterSnapshot snapshot) {
    Pod p = pod.pod();
    if (p.spec().podAffinity().required().isEmpty() && p.spec().podAntiAffinity().required().isEmpty()
        && snapshot.podsWithRequiredAntiAffinity() == 0) {
      return Optional.empty();
    }
    FilterCycle cycle = new FilterCycle(pod, snapshot);
    // Upstream's PreFilter skips when the pod has no required terms and no existing pod's anti-affinity matches it.
    return cycle.affinity.isEmpty() && cycle.antiAffinity.isEmpty() && cycle.counts.existingAnti.isEmpty()
        ? Optional.empty() : Optional.of(cycle);
  }

  @Override
  public Status filter(PodInfo pod, NodeInfo node) {
    throw new IllegalStateException("InterPodAffinity filters through forCycle");
  }

  /** {@code preFilterState}: matching pods per topology pair for the pod's terms and existing pods' anti-affinity. */
  private final class FilterCycle implements FilterPlugin {
    private final Pod pod;
    private final List<Term> affinity;
    private final List<Term> antiAffinity;
    private final ClusterSnapshot snapshot;
    private final Counts counts = new Counts();

    FilterCycle(PodInfo pod, ClusterSnapshot snapshot) {
      this.pod = pod.pod();
      this.affinity = required(this.pod.spec().podAffinity().required(), this.pod);
      this.antiAffinity = required(this.pod.spec().podAntiAffinity().required(), this.pod);
      this.snapshot = snapshot;
      for (NodeInfo node : snapshot.nodes()) {
        counts.add(node, 1);
      }
    }

    /** The matching pods of one node, added (+1) or taken away (-1). */
    private final class Counts {
      final Map<Pair, Integer> existingAnti = new HashMap<>();
      final Map<Pair, Integer> affinityCounts = new HashMap<>();
      final Map<Pair, Integer> antiCounts = new HashMap<>();

      Counts copy() {
        Counts c = new Counts();
        c.existingAnti.putAll(existingAnti);
        c.affinityCounts.putAll(affinityCounts);
        c.antiCounts.putAll(antiCounts);
        return c;
      }

      void add(NodeInfo node, int sign) {
        Labels labels = node.node().labels();
        for (PodInfo existing : node.podsWithRequiredAntiAffinity()) {
          for (PodAffinityTerm t : existing.pod().spec().podAntiAffinity().required()) {
            Term term = Term.of(t, existing.pod(), 0);
            Optional<String> value = labels.get(term.topologyKey());
            if (value.isPresent() && term.matches(pod, namespaces)) {
              existingAnti.merge(new Pair(term.topologyKey(), value.get()), sign, Integer::sum);
            }
          }
        }
        if (affinity.isEmpty() && antiAffinity.isEmpty()) {
          return;
        }
        for (PodInfo existing : node.pods()) {
          // updateWithAffinityTerms: an existing pod counts for affinity only if it matches every term.
          if (!affinity.isEmpty() && matchesAll(affinity, existing.pod())) {
            for (Term t : affinity) {
              labels.get(t.topologyKey()).ifPresent(v -> affinityCounts.merge(new Pair(t.topologyKey(), v), sign,
                  Integer::sum));
            }
          }
          // updateWithAntiAffinityTerms: for anti-affinity each matching term counts.
          for (Term t : antiAffinity) {
            Optional<String> value = labels.get(t.topologyKey());
            if (value.isPresent() && t.matches(existing.pod(), namespaces)) {
              antiCounts.merge(new Pair(t.topologyKey(), value.get()), sign, Integer::sum);
            }
          }
        }
      }
    }

    @Override
    public String pluginName() {
      return NAME;
    }

    @Override
    public Status filter(PodInfo p, NodeInfo node) {
      Counts c = counts;
      NodeInfo original = snapshot.node(node.name()).orElse(node);
      if (original != node) {
        // Preemption filters a node with victims removed: their matches leave the counts (RemovePod).
        c = counts.copy();
        c.add(original, -1);
        c.add(node, 1);
      }
      Labels labels = node.node().labels();
      if (!satisfiesAffinity(c, labels)) {
        return Status.unresolvable(NAME, REASON_AFFINITY);
      }
      for (Term t : antiAffinity) {
        Optional<String> value = labels.get(t.topologyKey());
        if (value.isPresent() && c.antiCounts.getOrDefault(new Pair(t.topologyKey(), value.get()), 0) > 0) {
          return Status.unschedulable(NAME, REASON_ANTI_AFFINITY);
        }
      }
      if (!c.existingAnti.isEmpty()) {
        for (Map.Entry<String, String> e : labels.map().entrySet()) {
          if (c.existingAnti.getOrDefault(new Pair(e.getKey(), e.getValue()), 0) > 0) {
            return Status.unschedulable(NAME, REASON_EXISTING_ANTI_AFFINITY);
          }
        }
      }
      return Status.SUCCESS;
    }

    /** {@code satisfyPodAffinity}, with the first-of-a-series exception. */
    private boolean satisfiesAffinity(Counts c, Labels labels) {
      boolean podsExist = true;
      for (Term t : affinity) {
        Optional<String> value = labels.get(t.topologyKey());
        if (value.isEmpty()) {
          return false;
        }
        if (c.affinityCounts.getOrDefault(new Pair(t.topologyKey(), value.get()), 0) <= 0) {
          podsExist = false;
        }
      }
      if (podsExist) {
        return true;
      }
      boolean anyMatch = c.affinityCounts.values().stream().anyMatch(n -> n > 0);
      return !anyMatch && matchesAll(affinity, pod);
    }

    /** {@code podMatchesAllAffinityTerms}. */
    private boolean matchesAll(List<Term> terms, Pod candidate) {
      for (Term t : terms) {
        if (!t.matches(candidate, namespaces)) {
          return false;
        }
      }
      return true;
    }
  }

  // ---- Score ----

  @Override
  public Optional<ScorePlugin> preScore(PodInfo pod, ClusterSnapshot snapshot) {
    Pod p = pod.pod();
    boolean hasConstraints = !p.spec().podAffinity().preferred().isEmpty()
        || !p.spec().podAntiAffinity().preferred().isEmpty();
    if (!hasConstraints && snapshot.podsWithAffinity() == 0) {
      return Optional.empty();
    }
    List<Term> preferredAffinity = preferred(p.spec().podAffinity().preferred(), p);
    List<Term> preferredAnti = preferred(p.spec().podAntiAffinity().preferred(), p);
    Map<String, Map<String, Long>> topologyScore = new HashMap<>();
    for (NodeInfo node : snapshot.nodes()) {
      List<PodInfo> pods = hasConstraints ? node.pods() : node.podsWithAffinity();
      Labels labels = node.node().labels();
      if (pods.isEmpty() || labels.isEmpty()) {
        continue;
      }
      for (PodInfo existing : pods) {
        Pod e = existing.pod();
        process(preferredAffinity, e, labels, topologyScore, 1);
        process(preferredAnti, e, labels, topologyScore, -1);
        if (!existing.hasPodAffinity()) {
          continue;
        }
        for (Term t : required(e.spec().podAffinity().required(), e)) {
          processTerm(t, HARD_POD_AFFINITY_WEIGHT, p, labels, topologyScore, 1);
        }
        process(preferred(e.spec().podAffinity().preferred(), e), p, labels, topologyScore, 1);
        process(preferred(e.spec().podAntiAffinity().preferred(), e), p, labels, topologyScore, -1);
      }
    }
    if (topologyScore.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new ScoreCycle(topologyScore));
  }

  private void process(List<Term> terms, Pod pod, Labels nodeLabels, Map<String, Map<String, Long>> into,
      int multiplier) {
    for (Term t : terms) {
      processTerm(t, t.weight(), pod, nodeLabels, into, multiplier);
    }
  }

  /** {@code scoreMap.processTerm}: the term's weight to the domain of the existing pod's node, when the pod matches. */
  private void processTerm(Term t, int weight, Pod pod, Labels nodeLabels, Map<String, Map<String, Long>> into,
      int multiplier) {
    if (t.matches(pod, namespaces)) {
      Optional<String> value = nodeLabels.get(t.topologyKey());
      value.ifPresent(v -> into.computeIfAbsent(t.topologyKey(), k -> new HashMap<>())
          .merge(v, (long) weight * multiplier, Long::sum));
    }
  }

  @Override
  public long score(PodInfo pod, NodeInfo node) {
    throw new IllegalStateException("InterPodAffinity scores through preScore");
  }

  private record ScoreCycle(Map<String, Map<String, Long>> topologyScore) implements ScorePlugin {
    @Override
    public String pluginName() {
      return NAME;
    }

    @Override
    public long score(PodInfo pod, NodeInfo node) {
      long s = 0;
      Labels labels = node.node().labels();
      for (Map.Entry<String, Map<String, Long>> e : topologyScore.entrySet()) {
        Optional<String> value = labels.get(e.getKey());
        if (value.isPresent()) {
          s += e.getValue().getOrDefault(value.get(), 0L);
        }
      }
      return s;
    }

    /** {@code NormalizeScore}: (score - min) / (max - min) of 100, truncated; all 0 when every score is equal. */
    @Override
    public void normalize(PodInfo pod, long[] scores) {
      long min = Long.MAX_VALUE;
      long max = Long.MIN_VALUE;
      for (long s : scores) {
        min = Math.min(min, s);
        max = Math.max(max, s);
      }
      long diff = max - min;
      for (int i = 0; i < scores.length; i++) {
        scores[i] = diff > 0 ? (long) (MAX_NODE_SCORE * ((double) (scores[i] - min) / diff)) : 0;
      }
    }
  }
}
