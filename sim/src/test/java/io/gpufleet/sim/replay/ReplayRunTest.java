package io.gpufleet.sim.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.placement.Fragmentation;
import io.gpufleet.engine.placement.NodeImage;
import io.gpufleet.engine.placement.PlacementPolicy;
import io.gpufleet.engine.placement.PodShape;
import io.gpufleet.engine.placement.PolicyKind;
import io.gpufleet.model.gpu.share.SharePod;
import io.gpufleet.testing.property.Gen;
import io.gpufleet.testing.property.Property;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ReplayRunTest {

  private static final ReplayCluster CLUSTER = SmallCluster.cluster();

  private static ReplayCurve run(ReplayWorkload w, PolicyKind kind, long seed) {
    return ReplayRun.run(CLUSTER, w, kind, new SplittableRandom(seed), ReplayProtocol.PAPER);
  }

  @Test
  void theSameSeedGivesTheSameCurve() {
    ReplayWorkload w = SmallCluster.workload(7, 400);
    for (PolicyKind kind : PolicyKind.values()) {
      ReplayCurve a = run(w, kind, 42);
      ReplayCurve b = run(w, kind, 42);
      assertThat(a.size()).isEqualTo(b.size());
      for (int i = 0; i < a.size(); i++) {
        assertThat(a.point(i)).as(kind + " at " + i).isEqualTo(b.point(i));
      }
      assertThat(a.finalNodes()).isEqualTo(b.finalNodes());
    }
  }

  @Test
  void everyPolicySeesTheSameArrivalsForASeed() {
    ReplayWorkload w = SmallCluster.workload(8, 300);
    List<String> reference = run(w, PolicyKind.BEST_FIT, 5).arrivals().stream().map(SharePod::name).toList();
    for (PolicyKind kind : PolicyKind.values()) {
      assertThat(run(w, kind, 5).arrivals()).extracting(SharePod::name).isEqualTo(reference);
    }
  }

  @Test
  void theCurveCountsArrivalsAndAllocationsAsItGoes() {
    ReplayWorkload w = SmallCluster.workload(9, 300);
    ReplayCurve c = run(w, PolicyKind.FGD, 1);
    long arrived = 0;
    long used = 0;
    for (int i = 0; i < c.size(); i++) {
      long milli = c.arrivals().get(i).request().gpu().totalMilli();
      arrived += milli;
      used += c.placed(i) ? milli : 0;
      assertThat(c.arrivedMilli(i)).isEqualTo(arrived);
      assertThat(c.usedMilli(i)).isEqualTo(used);
    }
    long free = c.finalNodes().stream().mapToLong(NodeImage::milliGpuLeft).sum();
    assertThat(used + free).isEqualTo(CLUSTER.capacityMilli());
    assertThat(arrived).isGreaterThanOrEqualTo(CLUSTER.capacityMilli() * 129 / 100);
  }

  @Test
  void podsOnlyLandOnModelsTheyAccept() {
    ReplayWorkload w = SmallCluster.workload(10, 400);
    for (PolicyKind kind : PolicyKind.values()) {
      ReplayCurve c = run(w, kind, 3);
      for (int i = 0; i < c.size(); i++) {
        if (c.placed(i)) {
          var request = c.arrivals().get(i).request();
          String model = CLUSTER.nodes().get(c.point(i).node()).cardModel();
          assertThat(request.gpu().cards() == 0 || request.models().permits(model)).as(kind + " pod " + i).isTrue();
        }
      }
    }
  }

  /**
   * The score cache must not change a single decision: replaying with it must equal scoring every
   * node for every pod and taking the best score, ties to the lowest rank.
   */
  @Test
  void cachedScoresDecideExactlyAsScoringEveryNodeDoes() {
    Property.check(20261206L, 40, Gen.ints(0, 6), Gen.ints(0, 10_000), Gen.anyLong(),
        this::cachedScoresDecideExactlyAsScoringEveryNodeDoes);
  }

  private void cachedScoresDecideExactlyAsScoringEveryNodeDoes(int policy, int traceSeed, long seed) {
    ReplayWorkload w = SmallCluster.workload(traceSeed, 150);
    PolicyKind kind = PolicyKind.values()[policy];
    List<SharePod> arrivals = WorkloadTuning.arrivals(w.trace(), ReplayProtocol.PAPER.targetMilli(CLUSTER.capacityMilli()),
        new SplittableRandom(seed));
    int[] rank = ReplayRun.nodeOrder(CLUSTER.nodes().size(), new SplittableRandom(seed + 1));

    ReplayCurve cached = ReplayRun.schedule(CLUSTER, arrivals, rank, kind.create(fragmentation(w)), fragmentation(w),
        new SplittableRandom(seed + 2));

    PlacementPolicy naive = kind.create(fragmentation(w));
    SplittableRandom rng = new SplittableRandom(seed + 2);
    NodeImage[] nodes = CLUSTER.nodes().stream().map(n -> NodeImage.empty(n, CLUSTER.models())).toArray(NodeImage[]::new);
    for (int k = 0; k < arrivals.size(); k++) {
      PodShape pod = PodShape.of(arrivals.get(k).request(), CLUSTER.models());
      int chosen = -1;
      if (naive.drawsNode()) {
        int fit = 0;
        for (NodeImage n : nodes) {
          fit += n.fits(pod) ? 1 : 0;
        }
        if (fit > 0) {
          int pick = rng.nextInt(fit);
          for (int i = 0; i < nodes.length && chosen < 0; i++) {
            if (nodes[i].fits(pod) && pick-- == 0) {
              chosen = i;
            }
          }
        }
      } else {
        double top = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < nodes.length; i++) {
          if (nodes[i].fits(pod)) {
            double s = naive.score(nodes[i], pod);
            if (chosen < 0 || s > top || (s == top && rank[i] < rank[chosen])) {
              chosen = i;
              top = s;
            }
          }
        }
      }
      assertThat(cached.point(k).node()).as("pod " + k).isEqualTo(chosen);
      if (chosen >= 0) {
        nodes[chosen] = nodes[chosen].apply(pod, naive.cards(nodes[chosen], pod, rng));
      }
    }
    assertThat(cached.finalNodes()).containsExactly(nodes);
  }

  private static Fragmentation fragmentation(ReplayWorkload w) {
    return new Fragmentation(w.typical(), CLUSTER.models());
  }
}
