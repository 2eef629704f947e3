package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.model.affinity.NodeSelectorTerm;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.label.SelectorOperator;
import io.gpufleet.model.pod.PodSpec;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * PreFilter: required terms that name nodes ({@code metadata.name In [...]} in matchFields, as every
 * DaemonSet pod has) narrow the candidates to those nodes; terms whose names contradict reject the
 * pod. Filter: {@code nodeSelector} and the required node affinity must both hold. Score: the summed
 * weights of matching preferred terms, normalised so the best node gets 100.
 * Follows {@code pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go}.
 */
public enum NodeAffinity implements PreFilterPlugin, NodeLocalPlugin {
  INSTANCE;

  /** Upstream's {@code ErrReasonPod}. */
  public static final String REASON = "node(s) didn't match Pod's node affinity/selector";
  /** Upstream's {@code errReasonConflict}: the pod's own terms name no node in common. */
  public static final String CONFLICT = "pod affinity terms conflict";

  @Override
  public String pluginName() {
    return "NodeAffinity";
  }

  /**
   * The union over required terms of the names each term pins (the intersection of its
   * {@code metadata.name In} field requirements); all nodes as soon as one term pins none.
   */
  @Override
  public Result preFilter(PodInfo pod) {
    var required = pod.pod().spec().nodeAffinity().required();
    if (required.isEmpty() || required.get().terms().isEmpty()) {
      return Result.ALL;
    }
    Set<String> union = new HashSet<>();
    for (NodeSelectorTerm t : required.get().terms()) {
      Set<String> term = null;
      for (Requirement r : t.matchFields()) {
        if (r.key().equals("metadata.name") && r.operator() == SelectorOperator.IN) {
          if (term == null) {
            term = new HashSet<>(r.values());
          } else {
            term.retainAll(r.values());
          }
        }
      }
      if (term == null) {
        return Result.ALL;
      }
      union.addAll(term);
    }
    return union.isEmpty() ? new Result.Rejected(Status.unresolvable(pluginName(), CONFLICT))
        : new Result.NodeNames(union);
  }

  /** A pod without a node selector or required affinity passes every node: the filter is skipped. */
  @Override
  public Optional<FilterPlugin> forCycle(PodInfo pod, ClusterSnapshot snapshot) {
    return pod.nodeConstrained() ? Optional.of(this) : Optional.empty();
  }

  @Override
  public Status filter(PodInfo pod, NodeInfo node) {
    return !pod.nodeConstrained() || matches(pod.pod().spec(), node) ? Status.SUCCESS : Status.unresolvable(pluginName(), REASON);
  }

  /** Whether a pod spec's selector and required affinity admit the node (also the kubelet's check). */
  public static boolean matches(PodSpec spec, NodeInfo node) {
    var labels = node.node().labels();
    return labels.containsAll(spec.nodeSelector()) && spec.nodeAffinity().requiredMatches(node.name(), labels);
  }

  @Override
  public boolean appliesTo(PodInfo pod) {
    return !pod.pod().spec().nodeAffinity().preferred().isEmpty();
  }

  @Override
  public long score(PodInfo pod, NodeInfo node) {
    return pod.pod().spec().nodeAffinity().preferenceScore(node.name(), node.node().labels());
  }

  @Override
  public void normalize(PodInfo pod, long[] scores) {
    ScorePlugin.defaultNormalize(scores, false);
  }
}
