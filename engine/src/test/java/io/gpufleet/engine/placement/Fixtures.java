package io.gpufleet.engine.placement;

import io.gpufleet.model.gpu.share.CardModelAllowList;
import io.gpufleet.model.gpu.share.GpuDemand;
import io.gpufleet.model.gpu.share.ShareNode;
import io.gpufleet.model.gpu.share.ShareRequest;
import java.util.List;

/** Small clusters and pods for placement tests. */
final class Fixtures {

  static final List<ShareNode> NODES = List.of(
      new ShareNode("g2-a", 96_000, 393_216, 8, "G2"),
      new ShareNode("t4-a", 104_000, 524_288, 2, "T4"),
      new ShareNode("p100-a", 16_000, 122_880, 2, "P100"),
      new ShareNode("v100-a", 8_000, 32_768, 1, "V100M16"));

  static final CardModels MODELS = CardModels.of(NODES);

  private Fixtures() {}

  static PodShape pod(int milliCpu, int cards, int milli) {
    return PodShape.of(ShareRequest.of(milliCpu, 1024, GpuDemand.of(cards, milli)), MODELS);
  }

  static PodShape pod(int milliCpu, int cards, int milli, String... models) {
    return PodShape.of(new ShareRequest(milliCpu, 1024, GpuDemand.of(cards, milli),
        CardModelAllowList.of(List.of(models))), MODELS);
  }

  static NodeImage node(String model, int milliCpu, int... cards) {
    return NodeImage.of(MODELS.id(model), milliCpu, 1 << 20, cards, 0L);
  }

  static NodeImage empty(int index) {
    return NodeImage.empty(NODES.get(index), MODELS);
  }
}
