package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.model.node.ContainerImage;
import io.gpufleet.model.pod.Container;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Score: nodes that already hold the pod's images, by the images' size scaled by how far each has
 * spread (the share of all nodes that hold it, against the "node heating" of piling pods onto the
 * few nodes with an image), between 23 MB and 1000 MB per container. Source: kubernetes/kubernetes
 * {@code pkg/scheduler/framework/plugins/imagelocality/image_locality.go}. An image's size is the
 * one the scored node reports for it; a cycle reads it from the snapshot's column of that image
 * ({@link ClusterSnapshot#imageSizes}), not from each node's image list: a shortcut of the twin's,
 * not a step of kube-scheduler's.
 */
public enum ImageLocality implements ScorePlugin {
  INSTANCE;

  static final long MB = 1024 * 1024;
  static final long MIN_THRESHOLD = 23 * MB;
  static final long MAX_CONTAINER_THRESHOLD = 1000 * MB;

  @Override
  public String pluginName() {
    return "ImageLocality";
  }

  /**
   * Reads how many of all nodes hold each image the pod names (the image keeps those counts by
   * deltas); a pod none of whose images any node holds scores 0 everywhere, so the plugin is skipped.
   */
  @Override
  public Optional<ScorePlugin> preScore(PodInfo pod, ClusterSnapshot snapshot) {
    if (!snapshot.anyNodeHoldsImages()) {
      return Optional.empty();
    }
    List<String> images = new ArrayList<>();
    for (Container c : pod.pod().spec().initContainers()) {
      images.add(ContainerImage.normalizedName(c.image()));
    }
    for (Container c : pod.pod().spec().containers()) {
      images.add(ContainerImage.normalizedName(c.image()));
    }
    Map<String, Integer> numNodes = new HashMap<>();
    boolean any = false;
    for (String image : images) {
      int holders = snapshot.nodesHoldingImage(image);
      numNodes.put(image, holders);
      any |= holders > 0;
    }
    return any ? Optional.of(new Cycle(images, numNodes, snapshot.size())) : Optional.empty();
  }

  /** Without a cycle's counts no node holds an image this pod names. */
  @Override
  public long score(PodInfo pod, NodeInfo node) {
    return 0;
  }

  /** The scorer of one pod's cycle: its images, in container order, and on how many nodes each is. */
  private record Cycle(List<String> images, Map<String, Integer> numNodes, int totalNodes) implements ScorePlugin {

    @Override
    public String pluginName() {
      return INSTANCE.pluginName();
    }

    @Override
    public long score(PodInfo pod, NodeInfo node) {
      long sum = 0;
      for (String image : images) {
        Optional<ContainerImage> held = node.node().image(image);
        if (held.isPresent()) {
          sum += scaledImageScore(held.get().sizeBytes(), numNodes.get(image), totalNodes);
        }
      }
      return calculatePriority(sum, images.size());
    }

    /**
     * {@link #score} over many nodes, each image's size on a node read from the snapshot's column
     * ({@link ClusterSnapshot#imageSizes}) instead of looked up in the node's images by name.
     */
    @Override
    public void scoreAll(PodInfo pod, ClusterSnapshot snapshot, int[] nodes, int count, long[] out) {
      int k = images.size();
      ClusterSnapshot.ImageSizes[] sizes = new ClusterSnapshot.ImageSizes[k];
      int[] holders = new int[k];
      for (int m = 0; m < k; m++) {
        sizes[m] = snapshot.imageSizes(images.get(m));
        holders[m] = numNodes.get(images.get(m));
      }
      for (int j = 0; j < count; j++) {
        long sum = 0;
        for (int m = 0; m < k; m++) {
          long size = sizes[m].get(nodes[j]);
          if (size >= 0) {
            sum += scaledImageScore(size, holders[m], totalNodes);
          }
        }
        out[j] = calculatePriority(sum, k);
      }
    }
  }

  /** {@code scaledImageScore}: the size times the share of nodes holding the image, truncated as Go's int64(float64). */
  static long scaledImageScore(long size, int numNodes, int totalNodes) {
    double spread = (double) numNodes / (double) totalNodes;
    return (long) ((double) size * spread);
  }

  /** {@code calculatePriority}: the sum clamped to [23 MB, 1000 MB × containers], scaled to 0..100. */
  static long calculatePriority(long sumScores, int numContainers) {
    long maxThreshold = MAX_CONTAINER_THRESHOLD * numContainers;
    long sum = Math.max(MIN_THRESHOLD, Math.min(sumScores, maxThreshold));
    return MAX_NODE_SCORE * (sum - MIN_THRESHOLD) / (maxThreshold - MIN_THRESHOLD);
  }
}
