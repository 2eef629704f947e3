package io.gpufleet.autoscaler.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings.GpuSizing;
import io.gpufleet.autoscaler.gpu.NvidiaDevicePlugin;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.autoscaler.testing.Fixtures;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Rounds that start from the shared pods' placement ({@link SharedPrefix}) plan what rounds placing
 * every pod themselves plan: seeded fleets of initialised, in-flight and deleting nodes, many shared
 * (pending) pods asked about with many candidates' pods and leave-out sets, where the shared pods often
 * go to a node a later round leaves out; the rounds stopped once settled ({@link ProvisioningRound.Settled})
 * too, with pods that must be placed among the shared ones; the time moving on between steps. Each answer
 * is compared, placement by placement, with the same provisioner's rounds without the shared start, and
 * many rounds must have started from it. Such rounds read the kept start they go on from (its nodes, claims,
 * placements, failures and scans) under their own changes ({@link ProvisioningRound#layerOn}): every round
 * of a step is read again after the step's later rounds ran from the same start, half of them read only then.
 */
class SharedPrefixTest {

  private final ProvisioningModel model = ProvisioningModel.of(List.of(RoundNodesTest.POOL),
      InstanceCatalog.builtIn(), List.of(), NvidiaDevicePlugin.DEFAULTS, GpuSizing.PHYSICAL);

  @Test
  void roundsStartedFromTheSharedPlacementPlanWhatRoundsFromNothingPlan() {
    int compared = 0;
    int settledRounds = 0;
    Provisioner anyShared = null;
    int resumed = 0;
    int skipped = 0;
    for (long seed = 1; seed <= 60; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      Provisioner shared = new Provisioner(model);
      Provisioner plain = plain();
      List<StateNode> nodes = RoundNodesTest.nodes(3 + r.nextInt(12), r);
      Instant now = RoundNodesTest.T0;
      int podNo = 0;
      List<PodSpec> specs = new ArrayList<>();
      for (int i = 2 + r.nextInt(6); i > 0; i--) {
        specs.add(RoundNodesTest.pod("s", RoundNodesTest.TYPES, r).spec());
      }
      for (int step = 0; step < 10; step++) {
        List<Pod> pending = new ArrayList<>();
        for (int i = r.nextInt(16); i > 0; i--) {
          Pod p = RoundNodesTest.pod("p" + podNo++, RoundNodesTest.TYPES, r);
          pending.add(r.nextBoolean() ? p : p.withSpec(specs.get(r.nextInt(specs.size()))));
        }
        List<Pod> sharedList = List.copyOf(pending);
        List<SimulatedRound[]> asked = new ArrayList<>();
        for (int ask = 0; ask < 8; ask++) {
          List<Pod> own = new ArrayList<>();
          for (int i = r.nextInt(4); i > 0; i--) {
            Pod p = RoundNodesTest.pod("c" + podNo++, RoundNodesTest.TYPES, r);
            own.add(r.nextBoolean() ? p : p.withSpec(specs.get(r.nextInt(specs.size()))));
          }
          if (!sharedList.isEmpty() && r.nextInt(10) == 0) {
            own.add(sharedList.get(r.nextInt(sharedList.size()))); // a pod both shared and the round's own
          }
          Set<String> leaving = new HashSet<>();
          for (int i = r.nextInt(3); i > 0 && !nodes.isEmpty(); i--) {
            leaving.add(nodes.get(r.nextInt(nodes.size())).name());
          }
          List<Pod> mustPlace = new ArrayList<>();
          for (Pod p : sharedList) {
            if (r.nextInt(4) == 0) {
              mustPlace.add(p);
            }
          }
          Set<String> unreliableNames = new HashSet<>();
          for (StateNode n : nodes) {
            if (!n.isInitialized() || r.nextInt(5) == 0) {
              unreliableNames.add(n.name());
            }
          }
          Predicate<String> unreliable = r.nextBoolean() ? null : unreliableNames::contains;
          SimulatedRound a = shared.simulateWithout(sharedList, own, nodes, leaving, List.of(),
              OfferingAvailability.ALL, now, mustPlace, unreliable, true, Integer.MAX_VALUE);
          SimulatedRound b = plain.simulateWithout(sharedList, own, nodes, leaving, List.of(),
              OfferingAvailability.ALL, now, mustPlace, unreliable, true, Integer.MAX_VALUE);
          asked.add(new SimulatedRound[] {a, b});
          if ((seed + ask) % 2 == 0) { // the others read after the step's later rounds ran, from the same start
            same(a, b, String.format("seed %d step %d ask %d", seed, step, ask));
          }
          settledRounds += a.settled() ? 1 : 0;
          compared++;
        }
        for (int ask = 0; ask < asked.size(); ask++) { // every round again: none changed what another reads
          String as = String.format("seed %d step %d ask %d, read last", seed, step, ask);
          same(asked.get(ask)[0], asked.get(ask)[1], as);
        }
        now = now.plus(Duration.ofMinutes(r.nextInt(3))); // the same time, or another: a new start
        if (!nodes.isEmpty() && r.nextInt(3) == 0) {
          nodes.remove(r.nextInt(nodes.size()));
        }
        if (r.nextInt(3) == 0) {
          nodes.addAll(RoundNodesTest.nodes(1, r));
        }
      }
      assertThat(plain.resumed).isZero();
      resumed += shared.resumed;
      skipped += shared.resumedPods;
    }
    assertThat(compared).isEqualTo(60 * 10 * 8);
    assertThat(resumed).as("rounds started from the shared placement").isGreaterThan(1500);
    assertThat(skipped).as("shared pods those rounds did not place again").isGreaterThan(5000);
    assertThat(settledRounds).as("rounds stopped once settled").isGreaterThan(100);
  }

  /** A provisioner whose rounds place every pod themselves, never starting from the shared placement. */
  private Provisioner plain() {
    Provisioner p = new Provisioner(model);
    p.sharePrefix = false;
    return p;
  }

  /** One round at T0 with no DaemonSets, asked of {@code shared} and of {@code plain}: their answers in that order. */
  private static SimulatedRound[] both(Provisioner shared, Provisioner plain, List<Pod> pending, List<Pod> own,
      List<StateNode> nodes, Set<String> leaving) {
    return new SimulatedRound[] {
        shared.simulateWithout(pending, own, nodes, leaving, List.of(), OfferingAvailability.ALL, RoundNodesTest.T0),
        plain.simulateWithout(pending, own, nodes, leaving, List.of(), OfferingAvailability.ALL, RoundNodesTest.T0)};
  }

  /** The two rounds' answers, placement by placement, in the same order. */
  private static void same(SimulatedRound a, SimulatedRound b, String as) {
    assertThat(a.settled()).as(as).isEqualTo(b.settled());
    assertThat(List.copyOf(a.onExisting().entrySet())).as(as).isEqualTo(List.copyOf(b.onExisting().entrySet()));
    assertThat(List.copyOf(a.errors().entrySet())).as(as).isEqualTo(List.copyOf(b.errors().entrySet()));
    for (String key : b.onExisting().keySet()) {
      assertThat(a.onExisting().get(key)).as(as).isEqualTo(b.onExisting().get(key));
    }
    for (String key : b.errors().keySet()) {
      assertThat(a.errors().containsKey(key)).as(as).isTrue();
    }
    if (!a.settled()) {
      assertThat(a.claimCount()).as(as).isEqualTo(b.claimCount());
      assertThat(a.newClaims()).as(as).isEqualTo(b.newClaims());
    }
  }

  @Test
  void aRoundLeavingOutANodeTheSharedPodsWentToPlacesThemAgain() {
    // Two nodes with room for one GPU pod each; the shared pod goes to the first, which the round leaves out.
    SplittableRandom r = new SplittableRandom(3);
    List<StateNode> nodes = RoundNodesTest.nodes(12, r);
    Provisioner shared = new Provisioner(model);
    Provisioner plain = plain();
    List<Pod> pending = List.of(Fixtures.gpuPod("p1", 1), Fixtures.gpuPod("p2", 1), Fixtures.gpuPod("p3", 1));
    SimulatedRound first = shared.simulateWithout(pending, List.of(), nodes, Set.of(), List.of(),
        OfferingAvailability.ALL, RoundNodesTest.T0);
    assertThat(first.onExisting()).isNotEmpty();
    for (String host : Set.copyOf(first.onExisting().values())) {
      SimulatedRound[] ab = both(shared, plain, pending, List.of(), nodes, Set.of(host));
      assertThat(ab[0].onExisting()).doesNotContainValue(host).isEqualTo(ab[1].onExisting());
      assertThat(ab[0].newClaims()).isEqualTo(ab[1].newClaims());
    }
  }

  @Test
  void anOwnPodSharingAFailedSharedPodsKeyClearsItsErrorAsARoundFromNothingDoes() {
    // p2 and p3 fit no instance type and fail; the round's own pod under p2's key fits: a round from nothing
    // clears p2's error when it places it, and puts it back, last, when p2 fails again in the retry.
    SplittableRandom r = new SplittableRandom(5);
    List<StateNode> nodes = RoundNodesTest.nodes(6, r);
    Provisioner shared = new Provisioner(model);
    Provisioner plain = plain();
    List<Pod> pending = List.of(Fixtures.gpuPod("p1", 1), Fixtures.gpuPod("p2", 100), Fixtures.gpuPod("p3", 100));
    List<Pod> own = List.of(Fixtures.gpuPod("p2", 1));
    SimulatedRound[] ab = both(shared, plain, pending, own, nodes, Set.of());
    SimulatedRound a = ab[0];
    SimulatedRound b = ab[1];
    assertThat(shared.resumed).as("the round went on from the shared start").isEqualTo(1);
    assertThat(List.copyOf(b.errors().keySet())).containsExactly("default/p3", "default/p2");
    same(a, b, "an own pod under a failed shared pod's key");
  }
}
