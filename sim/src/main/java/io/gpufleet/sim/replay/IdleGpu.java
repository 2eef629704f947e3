package io.gpufleet.sim.replay;

import io.gpufleet.engine.placement.CardModels;
import io.gpufleet.engine.placement.NodeImage;
import io.gpufleet.engine.placement.PodShape;
import io.gpufleet.engine.placement.TypicalPod;
import io.gpufleet.engine.placement.TypicalPods;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the free GPU of a cluster sits, by what keeps it free, judged against the typical GPU pods:
 * on nodes where one of them still fits ({@code usable}); on nodes whose cards could hold one but
 * whose CPU or memory cannot ({@code starved}); on nodes whose cards hold none of them
 * ({@code slivers}). In milli-GPU.
 */
public record IdleGpu(long usable, long starved, long slivers) {

  public long total() {
    return usable + starved + slivers;
  }

  public static IdleGpu of(List<NodeImage> nodes, TypicalPods typical, CardModels models) {
    List<PodShape> gpuPods = new ArrayList<>();
    for (TypicalPod p : typical.pods()) {
      if (!p.isCpuOnly()) {
        gpuPods.add(new PodShape(p.milliCpu(), 0, p.cards(), p.milliPerCard(), models.mask(p.models()), 0));
      }
    }
    long usable = 0;
    long starved = 0;
    long slivers = 0;
    for (NodeImage n : nodes) {
      long free = n.milliGpuLeft();
      if (free == 0) {
        continue;
      }
      boolean fits = false;
      boolean cardsFit = false;
      NodeImage unlimited = NodeImage.of(n.model(), Integer.MAX_VALUE, Long.MAX_VALUE, n.cardsLeft(), 0L);
      for (PodShape p : gpuPods) {
        if (n.fits(p)) {
          fits = true;
          break;
        }
        cardsFit |= unlimited.fits(p);
      }
      if (fits) {
        usable += free;
      } else if (cardsFit) {
        starved += free;
      } else {
        slivers += free;
      }
    }
    return new IdleGpu(usable, starved, slivers);
  }
}
