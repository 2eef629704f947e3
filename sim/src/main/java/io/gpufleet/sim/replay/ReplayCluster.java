package io.gpufleet.sim.replay;

import io.gpufleet.engine.placement.CardModels;
import io.gpufleet.engine.placement.NodeImage;
import io.gpufleet.model.gpu.share.ShareNode;
import java.util.List;

/** The cluster a replay starts from, every node empty, and its GPU capacity. */
public record ReplayCluster(List<ShareNode> nodes, CardModels models, long capacityMilli, int cards) {

  public ReplayCluster {
    nodes = List.copyOf(nodes);
  }

  public static ReplayCluster of(List<ShareNode> nodes) {
    if (nodes.isEmpty()) {
      throw new IllegalArgumentException("a replay needs at least one node");
    }
    long milli = 0;
    int cards = 0;
    for (ShareNode n : nodes) {
      milli += n.milliGpu();
      cards += n.cards();
    }
    if (milli == 0) {
      throw new IllegalArgumentException("a replay needs GPUs; the node list has none");
    }
    return new ReplayCluster(nodes, CardModels.of(nodes), milli, cards);
  }

  NodeImage[] emptyImages() {
    NodeImage[] images = new NodeImage[nodes.size()];
    for (int i = 0; i < images.length; i++) {
      images[i] = NodeImage.empty(nodes.get(i), models);
    }
    return images;
  }
}
