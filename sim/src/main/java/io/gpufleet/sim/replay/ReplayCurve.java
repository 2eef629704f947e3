package io.gpufleet.sim.replay;

import io.gpufleet.engine.placement.NodeImage;
import io.gpufleet.model.gpu.share.SharePod;
import java.util.List;

/**
 * What a replay recorded after every arrival: the pod, the node it went to (-1 if it failed), the GPU
 * demand arrived so far (failed pods included), the GPU allocated, and the cluster's fragmentation
 * amount, all in milli-GPU. Held as primitive columns; {@link #point} gives one row as a value.
 */
public final class ReplayCurve {

  /** One arrival. */
  public record Point(int index, String pod, int node, long arrivedMilli, long usedMilli, double fragMilli) {
    public boolean placed() {
      return node >= 0;
    }
  }

  private final ReplayCluster cluster;
  private final List<SharePod> arrivals;
  private final int[] node;
  private final long[] arrivedMilli;
  private final long[] usedMilli;
  private final double[] fragMilli;
  private final List<NodeImage> finalNodes;

  ReplayCurve(ReplayCluster cluster, List<SharePod> arrivals, int[] node, long[] arrivedMilli, long[] usedMilli,
      double[] fragMilli, List<NodeImage> finalNodes) {
    this.cluster = cluster;
    this.arrivals = List.copyOf(arrivals);
    this.node = node;
    this.arrivedMilli = arrivedMilli;
    this.usedMilli = usedMilli;
    this.fragMilli = fragMilli;
    this.finalNodes = List.copyOf(finalNodes);
  }

  public ReplayCluster cluster() {
    return cluster;
  }

  public int size() {
    return node.length;
  }

  public Point point(int i) {
    return new Point(i, arrivals.get(i).name(), node[i], arrivedMilli[i], usedMilli[i], fragMilli[i]);
  }

  /** The name of the node pod {@code i} went to, or "" if it failed. */
  public String nodeName(int i) {
    return node[i] < 0 ? "" : cluster.nodes().get(node[i]).name();
  }

  public long arrivedMilli(int i) {
    return arrivedMilli[i];
  }

  public long usedMilli(int i) {
    return usedMilli[i];
  }

  public double fragMilli(int i) {
    return fragMilli[i];
  }

  public boolean placed(int i) {
    return node[i] >= 0;
  }

  public int placedCount() {
    int n = 0;
    for (int v : node) {
      if (v >= 0) {
        n++;
      }
    }
    return n;
  }

  /** Cards with anything on them at the end. */
  public int cardsInUse() {
    int used = 0;
    for (NodeImage n : finalNodes) {
      used += n.usedCards();
    }
    return used;
  }

  /** The node images after the last arrival, in node-list order. */
  public List<NodeImage> finalNodes() {
    return finalNodes;
  }

  /** The arrivals in order. */
  public List<SharePod> arrivals() {
    return arrivals;
  }
}
