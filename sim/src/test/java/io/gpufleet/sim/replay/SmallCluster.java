package io.gpufleet.sim.replay;

import io.gpufleet.model.gpu.share.CardModelAllowList;
import io.gpufleet.model.gpu.share.GpuDemand;
import io.gpufleet.model.gpu.share.ShareNode;
import io.gpufleet.model.gpu.share.ShareRequest;
import io.gpufleet.model.gpu.share.SharePod;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** A few dozen nodes and a synthetic trace shaped like openb, for replays that run in milliseconds. */
final class SmallCluster {

  private SmallCluster() {}

  static ReplayCluster cluster() {
    List<ShareNode> nodes = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      nodes.add(new ShareNode(String.format("g2-%02d", i), 96_000, 393_216, 8, "G2"));
    }
    for (int i = 0; i < 10; i++) {
      nodes.add(new ShareNode(String.format("t4-%02d", i), 104_000, 524_288, 2, "T4"));
    }
    for (int i = 0; i < 8; i++) {
      nodes.add(new ShareNode(String.format("p100-%02d", i), 16_000, 122_880, 2, "P100"));
    }
    return ReplayCluster.of(nodes);
  }

  static List<SharePod> trace(long seed, int pods) {
    SplittableRandom rng = new SplittableRandom(seed);
    int[] fractions = {810, 470, 320, 650, 230, 160};
    List<SharePod> out = new ArrayList<>();
    for (int i = 0; i < pods; i++) {
      int kind = rng.nextInt(20);
      GpuDemand gpu = kind < 3 ? GpuDemand.NONE
          : kind < 11 ? GpuDemand.of(1, fractions[rng.nextInt(fractions.length)])
          : kind < 19 ? GpuDemand.of(1, 1000)
          : GpuDemand.of(rng.nextBoolean() ? 2 : 8, 1000);
      CardModelAllowList models = gpu.cards() > 0 && rng.nextInt(5) == 0
          ? CardModelAllowList.of(List.of(rng.nextBoolean() ? "T4" : "P100")) : CardModelAllowList.ANY;
      int cpu = 1000 * (1 + rng.nextInt(gpu.cards() == 0 ? 24 : 12 * Math.max(1, gpu.cards())));
      out.add(new SharePod(String.format("pod-%04d", i), new ShareRequest(cpu, 1024L * (1 + rng.nextInt(32)), gpu, models)));
    }
    return out;
  }

  static ReplayWorkload workload(long seed, int pods) {
    return ReplayWorkload.of("small", trace(seed, pods), ReplayProtocol.PAPER);
  }
}
