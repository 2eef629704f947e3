package io.gpufleet.autoscaler.disruption;

import static io.gpufleet.autoscaler.disruption.DisruptionViews.CATALOG;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.T0;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.node;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.pool;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.provisioning.Launcher;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.autoscaler.testing.Fixtures;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.resource.ResourceList;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A simulation whose round stops once its refusal for a candidate's pod on an uninitialised node is
 * settled ({@code ProvisioningRound.Settled}) answers as the same simulation running every round to
 * its end: seeded fleets of initialised and in-flight nodes, many pending pods (which fill in-flight
 * nodes first or open new claims), nodes being deleted, single candidates and prefixes of several;
 * the answer, the reason and the use of the random stream must be the full round's, and many rounds
 * must have stopped early. Likewise a simulation whose reason is not read (the multi-node search,
 * validation, drift), whose round stops as soon as a refusal is certain.
 */
class SettledRoundTest {

  private static final String[] TYPES = {"m5.large", "m5.xlarge", "m5.2xlarge"};

  @Test
  void aRoundStoppedWhenSettledAnswersAsAFullOne() {
    int[] c = replay(true, false);
    assertThat(c[0]).isGreaterThan(2000);
    assertThat(c[1]).as("refusals for an uninitialised node").isGreaterThan(300);
    assertThat(c[2]).as("rounds stopped early").isGreaterThan(200);
  }

  /**
   * Without the reason, a round stops at its second new claim, which consolidation refuses, or once a
   * candidate's pod is on an uninitialised node, whatever is left to place: the answer and the use of the
   * stream must be the full round's, and markedly more rounds stop early than when the reason is read.
   * Some pending pods ask for half of the largest m5, so that two of them need two new claims.
   */
  @Test
  void aRoundStoppedOnceARefusalIsCertainAnswersAsAFullOne() {
    int[] c = replay(false, true);
    assertThat(c[0]).isGreaterThan(2000);
    assertThat(c[1]).as("refusals for an uninitialised node").isGreaterThan(300);
    assertThat(c[3]).as("refusals for more than one new claim").isGreaterThan(300);
    assertThat(c[2]).as("rounds stopped early").isGreaterThan(replay(true, true)[2] * 3 / 2);
  }

  /**
   * Asks both simulations the same over seeded views, the reason read or not, some pending pods
   * {@code big} or none; returns how many were asked, how many the full round refused for an
   * uninitialised node, how many rounds stopped early, and how many the full round refused for more
   * than one new claim.
   */
  private static int[] replay(boolean reasonRead, boolean big) {
    NodePool pool = pool();
    int asked = 0;
    int uninitialised = 0;
    int claims = 0;
    int settled = 0;
    for (long seed = 1; seed <= 60; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      DisruptionSimulation early = DisruptionViews.simulation(pool);
      DisruptionSimulation full = DisruptionViews.simulation(pool);
      full.settleEarly = false;
      int[] made = {0};
      List<StateNode> nodes = new ArrayList<>();
      for (int i = 4 + r.nextInt(10); i > 0; i--) {
        nodes.add(draw(r, pool, made));
      }
      Instant now = T0.plus(Duration.ofHours(1));
      for (int step = 0; step < 8; step++) {
        now = now.plus(Duration.ofMinutes(r.nextInt(3)));
        if (r.nextInt(3) == 0) {
          nodes.set(r.nextInt(nodes.size()), draw(r, pool, made));
        }
        if (r.nextInt(6) == 0) { // marked for deletion: its pods move in every round
          int i = r.nextInt(nodes.size());
          StateNode n = nodes.get(i);
          nodes.set(i, new StateNode(n.name(), n.claim(), n.node(), n.pods(), n.terminating(), n.lastPodEvent(),
              true, n.podStarts()));
        }
        List<Pod> pending = new ArrayList<>();
        for (int j = r.nextInt(12); j > 0; j--) {
          pending.add(Fixtures.cpuPod("pending-" + made[0]++, big && r.nextInt(3) == 0 ? "9" : cpu(r), "1Gi"));
        }
        ClusterView v = new ClusterView(now, List.of(pool), CATALOG, OfferingAvailability.ALL, List.copyOf(nodes),
            List.copyOf(pending), List.of(), PdbIndex.NONE);
        List<Candidate> candidates = Consolidation.sorted(Candidates.of(v, false, Consolidation.FILTER));
        List<List<Candidate>> asks = new ArrayList<>();
        candidates.forEach(c -> asks.add(List.of(c)));
        for (int n = 2; n <= Math.min(4, candidates.size()); n++) {
          asks.add(candidates.subList(0, n));
        }
        for (List<Candidate> ask : asks) {
          long stream = seed * 1000 + step;
          SplittableRandom a = new SplittableRandom(stream);
          SplittableRandom b = new SplittableRandom(stream);
          StringBuilder whyEarly = new StringBuilder();
          StringBuilder whyFull = new StringBuilder();
          boolean consolidation = r.nextInt(5) != 0; // drift's simulation too
          Optional<List<NodeClaim>> got = reasonRead ? early.simulate(ask, v, consolidation, a, whyEarly::append)
              : early.simulate(ask, v, consolidation, a);
          Optional<List<NodeClaim>> want = full.simulate(ask, v, consolidation, b, whyFull::append);
          String at = "seed " + seed + " step " + step + " " + ask.stream().map(Candidate::name).toList();
          assertThat(got).as(at).isEqualTo(want);
          if (reasonRead) {
            assertThat(whyEarly.toString()).as(at).isEqualTo(whyFull.toString());
          }
          assertThat(a.nextLong()).as(at + ": the stream after").isEqualTo(b.nextLong());
          asked++;
          uninitialised += whyFull.toString().contains("uninitialized") ? 1 : 0;
          claims += whyFull.toString().startsWith("Can't remove without creating") ? 1 : 0;
        }
      }
      settled += early.settled;
      assertThat(full.settled).isZero();
    }
    return new int[] {asked, uninitialised, settled, claims};
  }

  /**
   * An initialised m5 node with pods of half a CPU to three, or (one in three) one still in flight,
   * whose room the pending pods and the candidates' pods may take.
   */
  private static StateNode draw(SplittableRandom r, NodePool pool, int[] made) {
    int size = r.nextInt(TYPES.length);
    int index = made[0]++;
    List<Pod> pods = new ArrayList<>();
    double used = 0;
    for (int j = r.nextInt(5); j > 0; j--) {
      String c = cpu(r);
      if (used + Double.parseDouble(c) <= (2 << size) - 0.5) {
        pods.add(Fixtures.cpuPod("p" + index + "-" + j, c, "1Gi"));
        used += Double.parseDouble(c);
      }
    }
    if (r.nextInt(3) > 0) {
      return node(pool, TYPES[size], 5000 + index, T0, pods.toArray(Pod[]::new));
    }
    InstanceType t = CATALOG.require(TYPES[size]);
    var onDemand = t.offerings().stream().filter(o -> o.capacityType() == CapacityType.ON_DEMAND).findFirst()
        .orElseThrow();
    NodeClaim c = Launcher.nodeClaim(pool, t, onDemand, ResourceList.EMPTY, T0, new SplittableRandom(5000 + index))
        .withLaunched(T0);
    return new StateNode(c.name(), Optional.of(c), Optional.empty(), List.of(), Set.of(), T0, false, Map.of());
  }

  private static String cpu(SplittableRandom r) {
    return List.of("0.5", "1", "1.5", "3").get(r.nextInt(4));
  }
}
