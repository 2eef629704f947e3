package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.model.pod.PodSpec;

/**
 * Filter: {@code nodeSelector} and the required node affinity must both hold. Score: the summed
 * weights of matching preferred terms, normalised so the best node gets 100.
 */
public enum NodeAffinity implements FilterPlugin, ScorePlugin {
  INSTANCE;

  public static final String REASON = "node(s) didn't match Pod's node affinity/selector";

  @Override
  public String pluginName() {
    return "NodeAffinity";
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
