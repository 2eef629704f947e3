package io.gpufleet.sim.replay;

import io.gpufleet.engine.placement.TypicalPods;

/**
 * The end of one replay in numbers: arrivals and failures, arrived and allocated GPU, fragmentation,
 * cards touched, where the idle GPU sits, the paper's headline figure (the allocation at the tuning
 * target, 130% arrived, on the x grid) and the typical pods the fragmentation was measured against.
 */
public record ReplaySummary(String variant, String policy, long seed, int arrivals, int placed,
    long arrivedMilli, long usedMilli, double fragMilli, long capacityMilli, int cardsInUse, int cards,
    IdleGpu idle, double allocAtTarget, TypicalPods typical) {

  public static ReplaySummary of(String variant, String policy, long seed, ReplayCurve curve, ArrivalGrid grid,
      TypicalPods typical) {
    int last = curve.size() - 1;
    ReplayCluster cluster = curve.cluster();
    return new ReplaySummary(variant, policy, seed, curve.size(), curve.placedCount(),
        last < 0 ? 0 : curve.arrivedMilli(last), last < 0 ? 0 : curve.usedMilli(last),
        last < 0 ? 0 : curve.fragMilli(last), cluster.capacityMilli(), curve.cardsInUse(), cluster.cards(),
        IdleGpu.of(curve.finalNodes(), typical, cluster.models()), grid.alloc(ArrivalGrid.X_MAX), typical);
  }

  public int failed() {
    return arrivals - placed;
  }

  public double arrivedPercent() {
    return 100.0 * arrivedMilli / capacityMilli;
  }

  public double allocPercent() {
    return 100.0 * usedMilli / capacityMilli;
  }

  public double fragPercent() {
    return 100.0 * fragMilli / capacityMilli;
  }
}
