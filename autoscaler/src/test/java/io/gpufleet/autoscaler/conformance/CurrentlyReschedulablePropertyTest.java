package io.gpufleet.autoscaler.conformance;

import static io.gpufleet.autoscaler.conformance.K.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.AutoscalerSettings.GpuSizing;
import io.gpufleet.autoscaler.Karpenter;
import io.gpufleet.autoscaler.action.Action;
import io.gpufleet.autoscaler.gpu.NvidiaDevicePlugin;
import io.gpufleet.autoscaler.provisioning.ProvisioningModel;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.workload.DisruptionBudget;
import io.gpufleet.model.workload.IntOrPercent;
import io.gpufleet.model.workload.PodDisruptionBudget;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Over seeded random small fleets, some nodes deleting, with pods that can move and pods that
 * cannot yet: no provisioning round launches a node for a pod that cannot be evicted now
 * ({@code K:pkg/utils/pdb/pdb.go} IsCurrentlyReschedulable), and a round with nothing pending and
 * only such pods on deleting nodes launches nothing. Which pods are held is decided here from how
 * each was made, not by asking the code under test. Named *Test so the default surefire includes run it.
 */
class CurrentlyReschedulablePropertyTest {
  private static final NodePool POOL = consolidating(ConsolidationPolicy.WHEN_EMPTY, Duration.ofDays(1), 100);
  private static final Instant NOW = T0.plus(Duration.ofHours(1));
  private static final List<String> TYPES = List.of("m5.large", "m5.xlarge", "m5.2xlarge");

  /** How a pod is made, and whether that holds it on its node at {@link #NOW}. */
  private enum Kind {
    PLAIN(false), DO_NOT_DISRUPT(true), PROTECTED_2H(true), PROTECTION_OVER(false), FULLY_BLOCKING_PDB(true),
    EXHAUSTED_PDB(false);

    final boolean held;

    Kind(boolean held) {
      this.held = held;
    }
  }

  private static Pod make(String name, int millis, Kind kind) {
    Pod p = owned(pod(name, "cpu", millis + "m"));
    return switch (kind) {
      case PLAIN -> p;
      case DO_NOT_DISRUPT -> doNotDisrupt(p, "true");
      case PROTECTED_2H -> doNotDisrupt(p, "2h"); // started at T0: protected until T0 + 2h
      case PROTECTION_OVER -> doNotDisrupt(p, "30m");
      case FULLY_BLOCKING_PDB -> labelled(p, "app", "blocked");
      case EXHAUSTED_PDB -> labelled(p, "app", "paced");
    };
  }

  private static PdbIndex pdbs() {
    PodDisruptionBudget blocked = new PodDisruptionBudget(ObjectMeta.named("blocked"), LabelSelector.matching(
        Labels.of("app", "blocked")), Optional.empty(), Optional.of(new IntOrPercent.Count(0)));
    PodDisruptionBudget paced = new PodDisruptionBudget(ObjectMeta.named("paced"), LabelSelector.matching(
        Labels.of("app", "paced")), Optional.of(new IntOrPercent.Count(1)), Optional.empty());
    return new PdbIndex(List.of(new DisruptionBudget(blocked, 0), new DisruptionBudget(paced, 0)));
  }

  @Test
  void noNodeIsLaunchedForAPodThatCannotBeEvictedYet() {
    Karpenter k = new Karpenter(AutoscalerSettings.DEFAULTS, ProvisioningModel.of(List.of(POOL), CATALOG, List.of(),
        NvidiaDevicePlugin.DEFAULTS, GpuSizing.PHYSICAL));
    Kind[] kinds = Kind.values();
    int launchingRounds = 0;
    for (long seed = 1; seed <= 300; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      List<StateNode> nodes = new ArrayList<>();
      Set<String> held = new HashSet<>();
      Set<String> movable = new HashSet<>();
      int podCount = 0;
      int nodeCount = 1 + r.nextInt(4);
      for (int i = 0; i < nodeCount; i++) {
        boolean deleting = r.nextBoolean();
        List<Pod> pods = new ArrayList<>();
        for (int j = r.nextInt(4); j > 0; j--) {
          Kind kind = kinds[r.nextInt(kinds.length)];
          Pod p = make("p" + podCount++, 100 * (1 + r.nextInt(15)), kind);
          pods.add(p);
          if (deleting) {
            (kind.held ? held : movable).add(p.key());
          }
        }
        StateNode n = node(POOL, TYPES.get(r.nextInt(TYPES.size())), (int) seed * 10 + i, pods.toArray(Pod[]::new));
        if (deleting) {
          n = new StateNode(n.name(), Optional.of(n.claim().orElseThrow().withDeletionRequested(NOW)), n.node(),
              n.pods(), n.terminating(), n.lastPodEvent(), true, n.podStarts());
        }
        nodes.add(n);
      }
      List<Pod> pending = new ArrayList<>();
      for (int j = r.nextInt(3); j > 0; j--) {
        pending.add(owned(pod("pending" + podCount++, "cpu", 100 * (1 + r.nextInt(15)) + "m")));
      }
      ClusterView v = new ClusterView(NOW, List.of(POOL), CATALOG, OfferingAvailability.ALL, nodes, pending,
          List.of(), pdbs());
      List<Action.LaunchNodeClaim> launches = k.provision(v, new SplittableRandom(seed)).stream()
          .filter(a -> a instanceof Action.LaunchNodeClaim).map(a -> (Action.LaunchNodeClaim) a).toList();
      for (Action.LaunchNodeClaim l : launches) {
        assertThat(l.pods()).as("seed %d", seed).noneMatch(held::contains);
        assertThat(l.pods()).as("seed %d", seed).isNotEmpty();
      }
      if (pending.isEmpty() && movable.isEmpty()) {
        assertThat(launches).as("seed %d: only held pods leave", seed).isEmpty();
      }
      if (!launches.isEmpty()) {
        launchingRounds++;
      }
    }
    // The fleets must exercise launching at all, or the property says nothing.
    assertThat(launchingRounds).isGreaterThan(50);
  }
}
