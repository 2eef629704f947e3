package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.model.taint.Tolerations;
import java.util.List;

/**
 * Filter: the first NoSchedule or NoExecute taint the pod does not tolerate rejects the node.
 * Score: the number of PreferNoSchedule taints not tolerated, normalised so fewest is best.
 */
public enum TaintToleration implements FilterPlugin, ScorePlugin {
  INSTANCE;

  @Override
  public String pluginName() {
    return "TaintToleration";
  }

  @Override
  public Status filter(PodInfo pod, NodeInfo node) {
    Taint untolerated = Tolerations.firstUntoleratedBlockingOrNull(node.node().taints(), pod.pod().spec().tolerations());
    return untolerated == null ? Status.SUCCESS : Status.unresolvable(pluginName(), reason(untolerated));
  }

  /** {@code node(s) had untolerated taint {key: value}}, the wording of Kubernetes 1.26 and later. */
  public static String reason(Taint t) {
    return "node(s) had untolerated taint {" + t.key() + ": " + t.value() + "}";
  }

  @Override
  public long score(PodInfo pod, NodeInfo node) {
    List<Toleration> tolerations = pod.pod().spec().tolerations();
    List<Taint> taints = node.node().taints();
    long count = 0;
    for (int i = 0, n = taints.size(); i < n; i++) {
      Taint taint = taints.get(i);
      if (taint.effect() != TaintEffect.PREFER_NO_SCHEDULE) {
        continue;
      }
      boolean tolerated = false;
      for (Toleration t : tolerations) {
        // Only tolerations with no effect or PreferNoSchedule count for scoring.
        if ((t.effect().isEmpty() || t.effect().get() == TaintEffect.PREFER_NO_SCHEDULE) && t.tolerates(taint)) {
          tolerated = true;
          break;
        }
      }
      if (!tolerated) {
        count++;
      }
    }
    return count;
  }

  @Override
  public void normalize(PodInfo pod, long[] scores) {
    ScorePlugin.defaultNormalize(scores, true);
  }
}
