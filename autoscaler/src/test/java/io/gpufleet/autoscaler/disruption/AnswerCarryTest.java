package io.gpufleet.autoscaler.disruption;

import static io.gpufleet.autoscaler.disruption.DisruptionViews.CATALOG;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.T0;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.node;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.pool;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.autoscaler.testing.Fixtures;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.resource.ResourceName;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link DisruptionSimulation#consolidate} kept across views ({@code carry}: answers kept while the
 * nodes that changed could take none of a round's pods) against a simulation that sees each view
 * first. Over seeded sequences of views in which nodes of several sizes and fill levels are replaced
 * (pods come and go), added, removed and marked for deletion, pending pods sometimes change and time
 * passes, every candidate's answer, reason and use of the random stream must be the fresh one's, and
 * the kept simulation must have simulated markedly less.
 */
class AnswerCarryTest {

  private static final String[] TYPES = {"m5.large", "m5.xlarge", "m5.2xlarge"};

  @Test
  void aKeptSimulationAnswersAsAFreshOne() {
    int[] c = replay(false);
    int asked = c[0];
    int keptSimulated = c[1];
    assertThat(asked).isGreaterThan(3000);
    assertThat(c[2]).isGreaterThan(500);
    assertThat(c[3]).isGreaterThan(500);
    // The carry is what spares the simulations: a view changes nodes at almost every step, and a memo
    // kept only over identical inputs simulates about four answers in five here (about half with the carry).
    assertThat(keptSimulated).isLessThan(asked * 3 / 5);
  }

  /**
   * As above, nodes changing as they do when pods come and go: the same node with a pod more or less,
   * often with room for a candidate's pod. A kept answer whose pod the round placed on a node before
   * the changed one (in the round's order) still holds; one placed after it, or on a claim, does not.
   */
  @Test
  void keptWhileTheCandidatesPodsWentToANodeBeforeTheChangedOne() {
    int[] c = replay(true);
    assertThat(c[0]).isGreaterThan(3000);
    assertThat(c[2]).isGreaterThan(300);
    assertThat(c[3]).isGreaterThan(300);
    assertThat(c[1]).isLessThan(c[0] * 17 / 20);
  }

  /**
   * A candidate's first pod went to node Y, its second to a new claim (refused: no cheaper m5). Node A,
   * before Y in the round's order, comes to have room for the first pod but not the second: the first
   * now goes to A and the second to Y, so the candidate may go. The kept refusal must not serve.
   */
  @Test
  void aPodThatWouldNowGoToAnEarlierNodeIsSimulatedAgain() {
    NodePool pool = pool();
    int[] seeds = {101, 202};
    String n0 = node(pool, "m5.large", seeds[0]).name();
    String n1 = node(pool, "m5.large", seeds[1]).name();
    int a = n0.compareTo(n1) < 0 ? seeds[0] : seeds[1];
    int y = a == seeds[0] ? seeds[1] : seeds[0];
    StateNode k = node(pool, "m5.large", 303, T0, Fixtures.cpuPod("big", "1", "1Gi"),
        Fixtures.cpuPod("small", "0.1", "4Gi"));
    StateNode yNode = node(pool, "m5.large", y, T0, Fixtures.cpuPod("y", "0.5", "2500Mi"));
    StateNode full = node(pool, "m5.large", a, T0, Fixtures.cpuPod("a", "1.8", "6500Mi"));
    StateNode roomy = node(pool, "m5.large", a, T0, Fixtures.cpuPod("a", "0.5", "5Gi"));
    Instant now = T0.plus(Duration.ofHours(1));
    DisruptionSimulation kept = DisruptionViews.simulation(pool);
    List<String> answers = new ArrayList<>();
    for (StateNode aNode : List.of(full, roomy)) {
      ClusterView v = new ClusterView(now, List.of(pool), CATALOG, OfferingAvailability.ALL,
          List.of(k, aNode, yNode), List.of(), List.of(), PdbIndex.NONE);
      Candidate c = Candidates.of(v, false, Consolidation.FILTER).stream()
          .filter(x -> x.name().equals(k.name())).findFirst().orElseThrow();
      StringBuilder whyKept = new StringBuilder();
      StringBuilder whyFresh = new StringBuilder();
      Optional<List<NodeClaim>> got = kept.consolidate(c, v, new SplittableRandom(1), whyKept::append);
      Optional<List<NodeClaim>> want = DisruptionViews.simulation(pool).consolidate(c, v, new SplittableRandom(1),
          whyFresh::append);
      assertThat(got).isEqualTo(want);
      assertThat(whyKept.toString()).isEqualTo(whyFresh.toString());
      answers.add(want.map(r -> r.isEmpty() ? "delete" : "replace").orElse(whyFresh.toString()));
    }
    assertThat(answers).containsExactly("Can't replace with a cheaper node", "delete");
  }

  /** Asked, simulated by the kept simulation, refused, deleted. */
  private static int[] replay(boolean podsComeAndGo) {
    NodePool pool = pool();
    int asked = 0;
    int keptSimulated = 0;
    int refusals = 0;
    int deletions = 0;
    for (long seed = 1; seed <= 30; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      DisruptionSimulation kept = DisruptionViews.simulation(pool);
      List<StateNode> nodes = new ArrayList<>();
      List<Pod> pending = List.of();
      int[] made = {0};
      Instant now = T0.plus(Duration.ofHours(1));
      for (int i = 0; i < 10; i++) {
        nodes.add(draw(r, pool, made));
      }
      for (int step = 0; step < 40; step++) {
        now = now.plus(Duration.ofMinutes(r.nextInt(3)));
        for (int i = 0; i < nodes.size(); i++) {
          if (podsComeAndGo && r.nextInt(5) == 0) {
            nodes.set(i, repod(r, nodes.get(i), made));
          } else if (r.nextInt(12) == 0) {
            nodes.set(i, draw(r, pool, made));
          }
        }
        if (r.nextInt(4) == 0) {
          nodes.add(r.nextInt(nodes.size() + 1), draw(r, pool, made));
        }
        if (nodes.size() > 3 && r.nextInt(4) == 0) {
          nodes.remove(r.nextInt(nodes.size()));
        }
        if (r.nextInt(10) == 0) { // marked for deletion: its pods move in every round
          int i = r.nextInt(nodes.size());
          StateNode n = nodes.get(i);
          nodes.set(i, new StateNode(n.name(), n.claim(), n.node(), n.pods(), n.terminating(), n.lastPodEvent(),
              true, n.podStarts()));
        }
        if (r.nextInt(8) == 0) {
          List<Pod> next = new ArrayList<>();
          for (int j = r.nextInt(3); j > 0; j--) {
            next.add(Fixtures.cpuPod("pending-" + made[0]++, cpu(r), "1Gi"));
          }
          pending = List.copyOf(next);
        }
        ClusterView v = new ClusterView(now, List.of(pool), CATALOG, OfferingAvailability.ALL, List.copyOf(nodes),
            pending, List.of(), PdbIndex.NONE);
        DisruptionSimulation fresh = DisruptionViews.simulation(pool);
        long stream = seed * 1000 + step;
        SplittableRandom a = new SplittableRandom(stream);
        SplittableRandom b = new SplittableRandom(stream);
        for (Candidate c : Candidates.of(v, false, Consolidation.FILTER)) {
          StringBuilder whyKept = new StringBuilder();
          StringBuilder whyFresh = new StringBuilder();
          Optional<List<NodeClaim>> got = kept.consolidate(c, v, a, whyKept::append);
          Optional<List<NodeClaim>> want = fresh.consolidate(c, v, b, whyFresh::append);
          String at = "seed " + seed + " step " + step + " " + c.name();
          assertThat(got).as(at).isEqualTo(want);
          assertThat(whyKept.toString()).as(at).isEqualTo(whyFresh.toString());
          asked++;
          refusals += want.isEmpty() ? 1 : 0;
          deletions += want.isPresent() && want.get().isEmpty() ? 1 : 0;
        }
        assertThat(a.nextLong()).as("the stream after seed " + seed + " step " + step).isEqualTo(b.nextLong());
      }
      keptSimulated += kept.simulated();
    }
    return new int[] {asked, keptSimulated, refusals, deletions};
  }

  /** The same node with one pod fewer, or one more of half a CPU to three where it fits. */
  private static StateNode repod(SplittableRandom r, StateNode n, int[] made) {
    if (n.markedForDeletion()) {
      return n;
    }
    List<Pod> pods = new ArrayList<>(n.pods());
    if (!pods.isEmpty() && r.nextBoolean()) {
      pods.remove(r.nextInt(pods.size()));
    } else {
      double used = 0;
      for (Pod p : pods) {
        used += p.spec().containers().getFirst().requests().getOrZero(ResourceName.CPU).milliValue() / 1000.0;
      }
      String c = cpu(r);
      double cpus = n.node().orElseThrow().allocatable().getOrZero(ResourceName.CPU).milliValue() / 1000.0;
      if (used + Double.parseDouble(c) > cpus - 0.5) {
        return n;
      }
      pods.add(Fixtures.cpuPod("p" + made[0]++, c, "1Gi"));
    }
    return new StateNode(n.name(), n.claim(), n.node(), List.copyOf(pods), n.terminating(), n.lastPodEvent(), false,
        n.podStarts());
  }

  /**
   * An m5 node of a random size: mostly full (half a CPU short of its size, less than the smallest pod
   * once the kubelet's reserve is taken), else filled with pods of half a CPU to three to a random level.
   */
  private static StateNode draw(SplittableRandom r, NodePool pool, int[] made) {
    int size = r.nextInt(TYPES.length);
    String type = TYPES[size];
    int cpus = 2 << size;
    int index = made[0]++;
    List<String> cpu = new ArrayList<>();
    if (r.nextInt(6) > 0) {
      cpu.addAll(List.of(List.of("1", "0.5"), List.of("3", "0.5"), List.of("3", "3", "1", "0.5")).get(size));
    } else {
      double used = 0;
      for (int j = r.nextInt(4); j > 0; j--) {
        String c = cpu(r);
        if (used + Double.parseDouble(c) <= cpus - 0.5) {
          cpu.add(c);
          used += Double.parseDouble(c);
        }
      }
    }
    List<Pod> pods = new ArrayList<>();
    for (int j = 0; j < cpu.size(); j++) {
      pods.add(Fixtures.cpuPod("p" + index + "-" + j, cpu.get(j), "1Gi"));
    }
    return node(pool, type, 5000 + index, T0, pods.toArray(Pod[]::new));
  }

  private static String cpu(SplittableRandom r) {
    return List.of("0.5", "1", "1.5", "3").get(r.nextInt(4));
  }
}
