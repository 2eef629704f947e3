package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.model.taint.Tolerations;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Filter: the first NoSchedule or NoExecute taint the pod does not tolerate rejects the node.
 * Score: the number of PreferNoSchedule taints not tolerated, normalised so fewest is best.
 */
public enum TaintToleration implements NodeLocalPlugin {
  INSTANCE;

  @Override
  public String pluginName() {
    return "TaintToleration";
  }

  @Override
  public Status filter(PodInfo pod, NodeInfo node) {
    return filter(node.node().taints(), pod.pod().spec().tolerations());
  }

  private Status filter(List<Taint> taints, List<Toleration> tolerations) {
    Taint untolerated = Tolerations.firstUntoleratedBlockingOrNull(taints, tolerations);
    return untolerated == null ? Status.SUCCESS : Status.unresolvable(pluginName(), REASON);
  }

  /** The filter of one cycle: see {@link Cycle}. */
  @Override
  public Optional<FilterPlugin> forCycle(PodInfo pod, ClusterSnapshot snapshot) {
    return Optional.of(new Cycle(pod.pod().spec().tolerations()));
  }

  /** The scorer of one cycle: see {@link Cycle}. */
  @Override
  public Optional<ScorePlugin> preScore(PodInfo pod, ClusterSnapshot snapshot) {
    return Optional.of(new Cycle(pod.pod().spec().tolerations()));
  }

  /**
   * One pod's cycle. The nodes of a pool carry equal taint lists, so the verdict for the list the
   * previous node had is reused when the next node's list is equal (often the very same object):
   * comparing the lists is cheaper than matching every taint against every toleration, and the
   * verdict depends on nothing else. Holds the last list, so one cycle's filter or scorer is used
   * by one thread.
   */
  private static final class Cycle implements FilterPlugin, ScorePlugin {
    private final List<Toleration> tolerations;
    private List<Taint> filtered;
    private Status status;
    private List<Taint> scored;
    private long count;

    Cycle(List<Toleration> tolerations) {
      this.tolerations = tolerations;
    }

    @Override
    public String pluginName() {
      return INSTANCE.pluginName();
    }

    @Override
    public Status filter(PodInfo pod, NodeInfo node) {
      List<Taint> taints = node.node().taints();
      if (taints != filtered && !taints.equals(filtered)) {
        status = INSTANCE.filter(taints, tolerations);
        filtered = taints;
      }
      return status;
    }

    /** Over a batch: each class of equal taint lists is decided once, on first sight, and read by number after. */
    @Override
    public int filterAll(PodInfo pod, ClusterSnapshot snapshot, int[] nodes, int count) {
      ClusterSnapshot.TaintClasses classes = snapshot.taintClasses();
      Status[] verdicts = new Status[classes.count()];
      if (verdicts.length <= count) {
        // Fewer classes than nodes: decide them all first; when every class passes (the pod
        // tolerates every pool's taints), so does every node, and no node needs reading.
        boolean all = true;
        for (int c = 0; c < verdicts.length; c++) {
          verdicts[c] = INSTANCE.filter(classes.taints(c), tolerations);
          all &= verdicts[c].isSuccess();
        }
        if (all) {
          return count;
        }
      }
      int kept = 0;
      for (int j = 0; j < count; j++) {
        int i = nodes[j];
        int c = classes.of(i);
        Status v = verdicts[c];
        if (v == null) {
          v = INSTANCE.filter(classes.taints(c), tolerations);
          verdicts[c] = v;
        }
        if (v.isSuccess()) {
          nodes[kept++] = i;
        }
      }
      return kept;
    }

    @Override
    public void scoreAll(PodInfo pod, ClusterSnapshot snapshot, int[] nodes, int count, long[] out) {
      ClusterSnapshot.TaintClasses classes = snapshot.taintClasses();
      long[] counts = new long[classes.count()];
      Arrays.fill(counts, -1);
      if (counts.length > 0 && counts.length <= count) {
        // As in filterAll: when every class scores the same, so does every node.
        boolean same = true;
        for (int c = 0; c < counts.length; c++) {
          counts[c] = untoleratedPreferNoSchedule(classes.taints(c), tolerations);
          same &= counts[c] == counts[0];
        }
        if (same) {
          Arrays.fill(out, 0, count, counts[0]);
          return;
        }
      }
      for (int j = 0; j < count; j++) {
        int c = classes.of(nodes[j]);
        long v = counts[c];
        if (v < 0) {
          v = untoleratedPreferNoSchedule(classes.taints(c), tolerations);
          counts[c] = v;
        }
        out[j] = v;
      }
    }

    @Override
    public long score(PodInfo pod, NodeInfo node) {
      List<Taint> taints = node.node().taints();
      if (taints != scored && !taints.equals(scored)) {
        count = untoleratedPreferNoSchedule(taints, tolerations);
        scored = taints;
      }
      return count;
    }

    @Override
    public void normalize(PodInfo pod, long[] scores) {
      INSTANCE.normalize(pod, scores);
    }
  }

  /**
   * The Filter's reason. Current upstream names no taint (pkg/scheduler/framework/plugins/tainttoleration/
   * taint_toleration.go Filter: {@code "node(s) had untolerated taint(s)"}, the taint only in a V(4) log);
   * earlier releases wrote {@code node(s) had untolerated taint {key: value}}.
   */
  public static final String REASON = "node(s) had untolerated taint(s)";

  @Override
  public long score(PodInfo pod, NodeInfo node) {
    return untoleratedPreferNoSchedule(node.node().taints(), pod.pod().spec().tolerations());
  }

  private static long untoleratedPreferNoSchedule(List<Taint> taints, List<Toleration> tolerations) {
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
