package io.gpufleet.sim.replay;

import io.gpufleet.engine.placement.Fragmentation;
import io.gpufleet.engine.placement.NodeImage;
import io.gpufleet.engine.placement.PlacementPolicy;
import io.gpufleet.engine.placement.PodShape;
import io.gpufleet.engine.placement.PolicyKind;
import io.gpufleet.model.gpu.share.ShareRequest;
import io.gpufleet.model.gpu.share.SharePod;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * One replay of the FGD paper's protocol: every node starts empty, the tuned arrivals are scheduled
 * one at a time, a pod that fits nowhere fails for good, nothing departs. After every arrival the
 * run records arrived demand, allocated GPU and the cluster's fragmentation (the sum of
 * {@link Fragmentation} over the nodes, measured against the workload's typical pods).
 *
 * <p>All randomness (shuffle, tune-up draws, the node order that breaks score ties, random node and
 * card draws) comes from the one generator passed in, in that order, so the same seed gives the same
 * curve, and the same arrivals under every policy.
 */
public final class ReplayRun {

  private ReplayRun() {}

  public static ReplayCurve run(ReplayCluster cluster, ReplayWorkload workload, PolicyKind kind,
      RandomGenerator rng, ReplayProtocol protocol) {
    List<SharePod> arrivals = WorkloadTuning.arrivals(workload.trace(), protocol.targetMilli(cluster.capacityMilli()), rng);
    int[] nodeOrder = nodeOrder(cluster.nodes().size(), rng);
    Fragmentation measure = new Fragmentation(workload.typical(), cluster.models());
    return schedule(cluster, arrivals, nodeOrder, kind.create(measure), measure, rng);
  }

  /**
   * A random rank per node, the order in which score ties are broken: the paper's simulator renames
   * node i (in name order) to {@code <perm[i]>-<name>} and its scheduler takes the smallest name.
   */
  static int[] nodeOrder(int nodes, RandomGenerator rng) {
    int[] rank = new int[nodes];
    for (int i = 0; i < nodes; i++) {
      rank[i] = i;
    }
    for (int i = nodes - 1; i > 0; i--) {
      int j = rng.nextInt(i + 1);
      int t = rank[i];
      rank[i] = rank[j];
      rank[j] = t;
    }
    return rank;
  }

  /**
   * Schedules {@code arrivals} in order on the empty cluster; ties on the best score go to the node
   * of lowest {@code nodeOrder} rank.
   */
  public static ReplayCurve schedule(ReplayCluster cluster, List<SharePod> arrivals, int[] nodeOrder,
      PlacementPolicy policy, Fragmentation measure, RandomGenerator rng) {
    NodeImage[] nodes = cluster.emptyImages();
    double[] nodeFrag = new double[nodes.length];
    for (int i = 0; i < nodes.length; i++) {
      nodeFrag[i] = measure.of(nodes[i]);
    }
    ScoreBoard board = new ScoreBoard(nodes, nodeOrder, policy);
    Map<ShareRequest, PodShape> shapes = new HashMap<>();

    int n = arrivals.size();
    int[] placedOn = new int[n];
    long[] arrived = new long[n];
    long[] used = new long[n];
    double[] frag = new double[n];
    long arrivedMilli = 0;
    long usedMilli = 0;
    for (int k = 0; k < n; k++) {
      ShareRequest request = arrivals.get(k).request();
      PodShape pod = shapes.computeIfAbsent(request, r -> PodShape.of(r, cluster.models()));
      arrivedMilli += pod.totalMilli();
      int target = board.select(pod, rng);
      if (target >= 0) {
        NodeImage before = nodes[target];
        nodes[target] = before.apply(pod, policy.cards(before, pod, rng));
        nodeFrag[target] = measure.of(nodes[target]);
        board.changed(target);
        usedMilli += pod.totalMilli();
      }
      placedOn[k] = target;
      arrived[k] = arrivedMilli;
      used[k] = usedMilli;
      // Summed afresh each time rather than updated by differences, so no rounding drift builds up.
      double sum = 0;
      for (double f : nodeFrag) {
        sum += f;
      }
      frag[k] = sum;
    }
    return new ReplayCurve(cluster, arrivals, placedOn, arrived, used, frag, List.of(nodes));
  }
}
