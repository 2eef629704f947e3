package io.gpufleet.autoscaler.disruption;

import static io.gpufleet.autoscaler.disruption.DisruptionViews.candidates;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.doNotDisrupt;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.drifted;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.node;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.pod;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.pool;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.random;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.simulation;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.view;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.karpenter.DisruptionReason;
import io.gpufleet.model.karpenter.NodePool;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DriftTest {

  @Test
  void onlyDriftedNodesAreConsidered() {
    NodePool pool = pool();
    Drift drift = new Drift(simulation(pool));
    StateNode fresh = node(pool, "m5.large", 1);
    StateNode old = drifted(node(pool, "m5.large", 2));
    ClusterView view = view(pool, fresh, old);
    assertThat(candidates(drift, view)).extracting(Candidate::name).containsExactly(old.name());
    DisruptionCommand c = drift.computeCommand(candidates(drift, view), view, random()).orElseThrow();
    assertThat(c.method()).isEqualTo(DisruptionCommand.Method.DRIFT);
    assertThat(c.reason()).isEqualTo(DisruptionReason.DRIFTED);
    assertThat(c.candidates()).containsExactly(old.name());
    assertThat(c.isDelete()).isTrue(); // empty: nothing to reschedule
  }

  @Test
  void aDriftedNodeWithPodsIsReplacedEvenAtTheSamePrice() {
    NodePool pool = pool();
    Drift drift = new Drift(simulation(pool));
    StateNode old = drifted(node(pool, "m5.large", 1, pod("p")));
    ClusterView view = view(pool, old);
    DisruptionCommand c = drift.computeCommand(candidates(drift, view), view, random()).orElseThrow();
    assertThat(c.candidates()).containsExactly(old.name());
    assertThat(c.replacements()).hasSize(1);
    // The cheapest m5 that holds the pod is the one it is on: drift, unlike consolidation, does not ask for savings.
    assertThat(c.replacements().getFirst().instanceType().name()).isEqualTo("m5.large");
    assertThat(c.replacementPrice()).isEqualTo(c.candidatePrice());
  }

  @Test
  void emptyDriftedNodesGoFirstAndTogether() {
    NodePool pool = pool();
    Drift drift = new Drift(simulation(pool));
    StateNode busy = drifted(node(pool, "m5.large", 1, pod("p")));
    StateNode e1 = drifted(node(pool, "m5.large", 2));
    StateNode e2 = drifted(node(pool, "m5.large", 3));
    ClusterView view = view(pool, busy, e1, e2);
    DisruptionCommand c = drift.computeCommand(candidates(drift, view), view, random()).orElseThrow();
    assertThat(c.candidates()).containsExactlyInAnyOrder(e1.name(), e2.name());
    assertThat(c.isDelete()).isTrue();
  }

  @Test
  void eventual_aGracePeriodLetsBlockedPodsDriftOut() {
    NodePool pool = pool();
    StateNode blocked = drifted(node(pool, "m5.large", 1, doNotDisrupt(pod("p"))));
    Drift drift = new Drift(simulation(pool));
    assertThat(candidates(drift, view(pool, blocked))).isEmpty();

    NodePool bounded = pool.withTemplate(pool.template().withTerminationGracePeriod(Optional.of(Duration.ofHours(1))));
    StateNode boundedNode = drifted(node(bounded, "m5.large", 1, doNotDisrupt(pod("p"))));
    ClusterView view = view(bounded, boundedNode);
    assertThat(candidates(drift, view)).extracting(Candidate::name).containsExactly(boundedNode.name());
    // Graceful methods still leave it alone.
    assertThat(Candidates.of(view, false, drift.filter())).isEmpty();
  }

  @Test
  void validationPlansReplacementsAfreshAndAbandonsWhenPodsCannotMove() {
    NodePool pool = pool();
    Drift drift = new Drift(simulation(pool));
    StateNode old = drifted(node(pool, "m5.large", 1, pod("p")));
    ClusterView view = view(pool, old);
    DisruptionCommand c = drift.computeCommand(candidates(drift, view), view, random()).orElseThrow();
    var ok = drift.validate(c, candidates(drift, view), view, random());
    assertThat(ok).isInstanceOf(DisruptionController.Validation.Execute.class);
    assertThat(((DisruptionController.Validation.Execute) ok).command().replacements()).hasSize(1);

    // Nothing in the pool can hold a pod larger than every m5.
    StateNode huge = drifted(node(pool, "m5.large", 1, io.gpufleet.autoscaler.testing.Fixtures.cpuPod("p", "100",
        "1Gi")));
    ClusterView stuck = view(pool, huge);
    assertThat(drift.validate(c, candidates(drift, stuck), stuck, random()))
        .isEqualTo(new DisruptionController.Validation.Abandon("pods no longer reschedule"));
    assertThat(drift.computeCommand(candidates(drift, stuck), stuck, random())).isEmpty();
  }
}
