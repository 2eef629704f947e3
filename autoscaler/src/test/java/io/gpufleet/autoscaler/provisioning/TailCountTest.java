package io.gpufleet.autoscaler.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings.GpuSizing;
import io.gpufleet.autoscaler.gpu.NvidiaDevicePlugin;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.autoscaler.testing.Fixtures;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.cloud.Offering;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Consolidation rounds that count the claims of the shared pods after their own last one rather than place
 * them ({@link SharedPrefix}, the tail) answer as rounds placing every pod: seeded small fleets with many
 * pending pods, most of which need new claims (GPU pods pinned to an instance type often open a claim each),
 * candidates' pods that join those claims, open their own or land on nodes, nodes left out, pods that must
 * be placed and nodes a candidate's pod may not rely on, the reason read or not; the caller reads only the
 * number of claims from two on, as consolidation does. Settled or not, the placements, failures and claim
 * count must be the plain rounds', the claims too where fewer than two, and many rounds must have counted
 * their tail.
 */
class TailCountTest {

  private final ProvisioningModel model = ProvisioningModel.of(List.of(RoundNodesTest.POOL),
      InstanceCatalog.builtIn(), List.of(), NvidiaDevicePlugin.DEFAULTS, GpuSizing.PHYSICAL);

  @Test
  void roundsCountingTheirTailAnswerAsRoundsPlacingIt() {
    int compared = 0;
    int counted = 0;
    int refusedForClaims = 0;
    for (long seed = 1; seed <= 120; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      Provisioner tails = new Provisioner(model);
      Provisioner plain = new Provisioner(model);
      plain.sharePrefix = false;
      List<StateNode> nodes = RoundNodesTest.nodes(seed % 2 == 0 ? r.nextInt(2) : 1 + r.nextInt(4), r);
      Instant now = RoundNodesTest.T0;
      int podNo = 0;
      List<PodSpec> specs = new ArrayList<>();
      for (int i = 2 + r.nextInt(5); i > 0; i--) {
        specs.add(pod("s", r).spec());
      }
      for (int step = 0; step < 6; step++) {
        List<Pod> pending = new ArrayList<>();
        for (int i = 16 + r.nextInt(32); i > 0; i--) {
          Pod p = pod("p" + podNo++, r);
          pending.add(r.nextInt(3) > 0 ? p.withSpec(specs.get(r.nextInt(specs.size()))) : p);
        }
        List<Pod> shared = List.copyOf(pending);
        for (int ask = 0; ask < 8; ask++) {
          List<Pod> own = new ArrayList<>();
          for (int i = 1 + r.nextInt(3); i > 0; i--) {
            Pod p = pod("c" + podNo++, r);
            own.add(r.nextInt(4) == 0 ? p.withSpec(specs.get(r.nextInt(specs.size()))) : p);
          }
          Set<String> leaving = new HashSet<>();
          for (int i = r.nextInt(3); i > 0 && !nodes.isEmpty(); i--) {
            leaving.add(nodes.get(r.nextInt(nodes.size())).name());
          }
          List<Pod> mustPlace = new ArrayList<>();
          for (Pod p : shared) {
            if (r.nextInt(12) == 0) {
              mustPlace.add(p);
            }
          }
          Set<String> unreliableNames = new HashSet<>();
          for (StateNode n : nodes) {
            if (!n.isInitialized() || r.nextInt(6) == 0) {
              unreliableNames.add(n.name());
            }
          }
          Predicate<String> unreliable = unreliableNames::contains;
          boolean reasonRead = r.nextInt(4) > 0;
          SimulatedRound a = tails.simulateWithout(shared, own, nodes, leaving, List.of(), OfferingAvailability.ALL,
              now, mustPlace, unreliable, reasonRead, 2);
          SimulatedRound b = plain.simulateWithout(shared, own, nodes, leaving, List.of(), OfferingAvailability.ALL,
              now, mustPlace, unreliable, reasonRead, 2);
          String as = String.format("seed %d step %d ask %d", seed, step, ask);
          assertThat(a.settled()).as(as).isEqualTo(b.settled());
          compared++;
          if (a.settled() && !reasonRead) {
            continue; // a refusal read no further, the rounds stopped wherever it was certain (SettledRoundTest)
          }
          assertThat(List.copyOf(a.onExisting().entrySet())).as(as).isEqualTo(List.copyOf(b.onExisting().entrySet()));
          assertThat(List.copyOf(a.errors().entrySet())).as(as).isEqualTo(List.copyOf(b.errors().entrySet()));
          if (!a.settled()) {
            assertThat(a.claimCount()).as(as).isEqualTo(b.claimCount());
            if (b.claimCount() < 2) {
              assertThat(a.newClaims()).as(as).isEqualTo(b.newClaims());
            }
            if (b.claimCount() > 0) {
              assertThat(a.firstRequirements()).as(as).isEqualTo(b.firstRequirements());
            }
            refusedForClaims += b.claimCount() >= 2 ? 1 : 0;
          }
        }
        now = now.plus(Duration.ofMinutes(r.nextInt(2)));
        if (!nodes.isEmpty() && r.nextInt(3) == 0) {
          nodes.remove(r.nextInt(nodes.size()));
        }
        if (r.nextInt(3) == 0) {
          nodes.addAll(RoundNodesTest.nodes(1, r));
        }
      }
      assertThat(plain.tailsCounted).isZero();
      counted += tails.tailsCounted;
    }
    assertThat(compared).isEqualTo(120 * 6 * 8);
    assertThat(refusedForClaims).as("rounds planning two claims or more").isGreaterThan(1000);
    assertThat(counted).as("rounds that counted their tail").isGreaterThan(100);
  }

  /**
   * A shared pod the base put on node Y goes to a claim in the round, an own pod having taken Y's room first;
   * Y keeps a GPU free there that the base had filled, and the tail's pod, pinned to Y's type, takes it in
   * the round where the base opened a claim for it. The round must place its tail: two claims, not three.
   */
  @Test
  void aSharedPodTheBaseHadOnANodeThatTheRoundPutElsewhereLeavesTheTailToBePlaced() {
    InstanceCatalog catalog = InstanceCatalog.builtIn();
    InstanceType g512 = catalog.require("g5.12xlarge");
    Offering o = g512.offerings().stream().filter(x -> x.capacityType() == CapacityType.ON_DEMAND).findFirst()
        .orElseThrow();
    NodeClaim c = Launcher.nodeClaim(RoundNodesTest.POOL, g512, o, ResourceList.EMPTY, RoundNodesTest.T0,
        new SplittableRandom(1)).withLaunched(RoundNodesTest.T0);
    c = c.withRegistered(RoundNodesTest.T0, c.name()).withInitialized(RoundNodesTest.T0);
    StateNode y = new StateNode(c.name(), Optional.of(c), Optional.of(Node.of(c.name(), c.labels(), List.of(),
        g512.allocatable())), List.of(), Set.of(), RoundNodesTest.T0, false, Map.of());
    Pod s0 = pinned(Fixtures.gpuPod("s0", 1, "30", "4Gi"), "g5.48xlarge");
    Pod h = Fixtures.gpuPod("h", 4, "10", "4Gi");
    Pod t = pinned(Fixtures.gpuPod("t", 1, "1", "4Gi"), "g5.12xlarge");
    List<Pod> own = List.of(Fixtures.gpuPod("o1", 3, "20", "4Gi"), Fixtures.gpuPod("o2", 4, "5", "4Gi"));
    Provisioner tails = new Provisioner(model);
    Provisioner plain = new Provisioner(model);
    plain.sharePrefix = false;
    SimulatedRound a = tails.simulateWithout(List.of(s0, h, t), own, List.of(y), Set.of(), List.of(),
        OfferingAvailability.ALL, RoundNodesTest.T0, List.of(), name -> false, true, 2);
    SimulatedRound b = plain.simulateWithout(List.of(s0, h, t), own, List.of(y), Set.of(), List.of(),
        OfferingAvailability.ALL, RoundNodesTest.T0, List.of(), name -> false, true, 2);
    assertThat(b.onExisting()).containsOnlyKeys("default/o1", "default/t");
    assertThat(b.claimCount()).isEqualTo(2);
    assertThat(a.claimCount()).isEqualTo(2);
    assertThat(tails.resumed).isOne();
    assertThat(tails.tailsCounted).isZero();
  }

  private static Pod pinned(Pod p, String type) {
    return p.withSpec(p.spec().withNodeSelector(Labels.of("node.kubernetes.io/instance-type", type)));
  }

  /**
   * Mostly a GPU pod the pool takes (of 1 to 4 GPUs, or of one pinned to an instance type, each such pod then
   * opening a claim of its own unless one of its type has room); one in forty as {@link RoundNodesTest#pod}
   * draws it, which may fail.
   */
  private static Pod pod(String name, SplittableRandom r) {
    if (r.nextInt(40) == 0) {
      return RoundNodesTest.pod(name, RoundNodesTest.TYPES, r);
    }
    if (r.nextInt(3) > 0) {
      return Fixtures.gpuPod(name, 1 + r.nextInt(4), Integer.toString(1 + r.nextInt(8)), (4 + r.nextInt(40)) + "Gi");
    }
    Pod g = Fixtures.gpuPod(name, 1);
    String type = RoundNodesTest.TYPES.get(r.nextInt(RoundNodesTest.TYPES.size())).name();
    return g.withSpec(g.spec().withNodeSelector(Labels.of("node.kubernetes.io/instance-type", type)));
  }
}
