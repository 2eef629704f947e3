package io.gpufleet.autoscaler.conformance;

import static io.gpufleet.autoscaler.conformance.K.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings.GpuSizing;
import io.gpufleet.autoscaler.AutoscalerSettings;
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
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The provisioner plans for the pods of deleting nodes only when they can move now
 * ({@code K:pkg/controllers/provisioning/provisioner.go} Schedule: {@code nodes.Deleting().CurrentlyReschedulablePods},
 * with {@code K:pkg/utils/pdb/pdb.go} IsCurrentlyReschedulable): no replacement capacity for a pod an
 * active {@code karpenter.sh/do-not-disrupt} or a fully blocking PDB holds. Not an upstream case:
 * upstream checks this through its drift suite (see {@link DisruptionCases}); this checks the
 * provisioning round the twin runs when a NodeClaim starts deleting (expiry, drift, interruption).
 */
class CurrentlyReschedulableTest {
  private static final NodePool POOL = consolidating(ConsolidationPolicy.WHEN_EMPTY, Duration.ofDays(1), 100);

  /** A node of the pool's with this pod, its claim deleting since T0 + 1h (as after expiry): marked for deletion. */
  private static StateNode deleting(Pod p) {
    StateNode n = node(POOL, "m5.large", 1, p);
    return new StateNode(n.name(), Optional.of(n.claim().orElseThrow().withDeletionRequested(T0.plus(
        Duration.ofHours(1)))), n.node(), n.pods(), n.terminating(), n.lastPodEvent(), true,
        n.podStarts());
  }

  private static long launches(Instant now, StateNode n, PdbIndex pdbs) {
    Karpenter k = new Karpenter(AutoscalerSettings.DEFAULTS, ProvisioningModel.of(List.of(POOL), CATALOG, List.of(),
        NvidiaDevicePlugin.DEFAULTS, GpuSizing.PHYSICAL));
    ClusterView v = new ClusterView(now, List.of(POOL), CATALOG, OfferingAvailability.ALL, List.of(n), List.of(),
        List.of(), pdbs);
    return k.provision(v, new SplittableRandom(7)).stream().filter(a -> a instanceof Action.LaunchNodeClaim).count();
  }

  private static PdbIndex pdb(Optional<IntOrPercent> minAvailable, Optional<IntOrPercent> maxUnavailable) {
    PodDisruptionBudget b = new PodDisruptionBudget(ObjectMeta.named("pdb"), LabelSelector.matching(
        Labels.of("app", "train")), minAvailable, maxUnavailable);
    return new PdbIndex(List.of(new DisruptionBudget(b, 0)));
  }

  private static final Instant LATER = T0.plus(Duration.ofHours(1)).plusSeconds(1);

  @Test
  void aMovablePodOfADeletingNodeGetsReplacementCapacity() {
    assertThat(launches(LATER, deleting(owned(pod("a", "cpu", "500m"))), PdbIndex.NONE)).isEqualTo(1);
  }

  @Test
  void aDoNotDisruptPodGetsNoCapacityWhileItIsProtected() {
    assertThat(launches(LATER, deleting(owned(doNotDisrupt(pod("a", "cpu", "500m"), "true"))), PdbIndex.NONE))
        .isZero();
  }

  @Test
  void aDurationProtectionHoldsCapacityBackUntilItRunsOut() {
    // Started at T0 with "90m": protected at T0 + 1h, movable at T0 + 90m.
    StateNode n = deleting(owned(doNotDisrupt(pod("a", "cpu", "500m"), "90m")));
    assertThat(launches(LATER, n, PdbIndex.NONE)).isZero();
    assertThat(launches(T0.plus(Duration.ofMinutes(90)), n, PdbIndex.NONE)).isEqualTo(1);
  }

  @Test
  void aFullyBlockingPdbHoldsCapacityBack() {
    StateNode n = deleting(owned(labelled(pod("a", "cpu", "500m"), "app", "train")));
    assertThat(launches(LATER, n, pdb(Optional.empty(), Optional.of(new IntOrPercent.Count(0))))).isZero();
    assertThat(launches(LATER, n, pdb(Optional.empty(), Optional.of(new IntOrPercent.Percent(0))))).isZero();
    assertThat(launches(LATER, n, pdb(Optional.of(new IntOrPercent.Percent(100)), Optional.empty()))).isZero();
  }

  @Test
  void aBudgetThatIsOnlyExhaustedNowDoesNotHoldCapacityBack() {
    // pdb.go isFullyBlocking reads the spec, not status.disruptionsAllowed: minAvailable 1 with no
    // disruption allowed now still gets capacity, the pod being expected to move once a replica is up.
    StateNode n = deleting(owned(labelled(pod("a", "cpu", "500m"), "app", "train")));
    assertThat(launches(LATER, n, pdb(Optional.of(new IntOrPercent.Count(1)), Optional.empty()))).isEqualTo(1);
    assertThat(launches(LATER, n, pdb(Optional.empty(), Optional.of(new IntOrPercent.Count(1))))).isEqualTo(1);
  }
}
