package io.gpufleet.autoscaler.disruption;

import static io.gpufleet.autoscaler.disruption.DisruptionViews.T0;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.candidates;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.node;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.pod;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.pool;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.random;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.view;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.DisruptionReason;
import io.gpufleet.model.karpenter.NodePool;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EmptinessTest {

  final Emptiness emptiness = new Emptiness(DisruptionViews.simulation(pool()));

  @Test
  void deletesEveryEmptyNodeTheBudgetAllowsInNameOrder() {
    NodePool pool = pool();
    StateNode a = node(pool, "m5.large", 1);
    StateNode b = node(pool, "m5.large", 2);
    StateNode busy = node(pool, "m5.large", 3, pod("p"));
    ClusterView view = view(pool, busy, b, a);
    DisruptionCommand c = emptiness.computeCommand(candidates(emptiness, view), view, random()).orElseThrow();
    assertThat(c.method()).isEqualTo(DisruptionCommand.Method.EMPTINESS);
    assertThat(c.reason()).isEqualTo(DisruptionReason.EMPTY);
    assertThat(c.candidates()).containsExactlyElementsOf(List.of(a.name(), b.name()).stream().sorted().toList());
    assertThat(c.isDelete()).isTrue();

    NodePool one = pool.withDisruption(pool.disruption().withBudgets(List.of(DisruptionViews.budget(1))));
    ClusterView narrow = view(one, busy, b, a);
    DisruptionCommand first = emptiness.computeCommand(candidates(emptiness, narrow), narrow, random()).orElseThrow();
    assertThat(first.candidates()).hasSize(1).containsAnyOf(a.name(), b.name());
    assertThat(first.candidates().getFirst()).isEqualTo(c.candidates().getFirst());
  }

  @Test
  void waitsForConsolidateAfterSinceTheLastPodLeft() {
    NodePool pool = pool();
    StateNode justEmptied = node(pool, "m5.large", 1, T0.plus(Duration.ofMinutes(55)));
    ClusterView view = view(pool, justEmptied); // an hour after start: 5 minutes since the pod left
    assertThat(candidates(emptiness, view)).isEmpty();
    ClusterView later = DisruptionViews.view(T0.plus(Duration.ofMinutes(65)), pool, List.of(justEmptied));
    assertThat(emptiness.computeCommand(candidates(emptiness, later), later, random())).isPresent();
  }

  @Test
  void actsUnderWhenEmptyToo_andNeverWhenConsolidateAfterIsNever() {
    NodePool whenEmpty = pool(ConsolidationPolicy.WHEN_EMPTY);
    ClusterView view = view(whenEmpty, node(whenEmpty, "m5.large", 1));
    assertThat(emptiness.computeCommand(candidates(emptiness, view), view, random())).isPresent();

    NodePool never = whenEmpty.withDisruption(whenEmpty.disruption().withConsolidateAfter(Optional.empty()));
    ClusterView off = view(never, node(never, "m5.large", 1));
    assertThat(candidates(emptiness, off)).isEmpty();
  }

  @Test
  void validationAbandonsOnceAPodArrived() {
    NodePool pool = pool();
    StateNode a = node(pool, "m5.large", 1);
    ClusterView view = view(pool, a);
    DisruptionCommand c = emptiness.computeCommand(candidates(emptiness, view), view, random()).orElseThrow();
    Candidate still = Candidates.of(view, false, (n, p, now) -> true).getFirst();
    assertThat(emptiness.validate(c, List.of(still), view, random()))
        .isEqualTo(new DisruptionController.Validation.Execute(c));

    StateNode busy = node(pool, "m5.large", 1, pod("p"));
    ClusterView later = view(pool, busy);
    Candidate now = Candidates.of(later, false, (n, p, t) -> true).getFirst();
    assertThat(emptiness.validate(c, List.of(now), later, random()))
        .isEqualTo(new DisruptionController.Validation.Abandon(a.name() + " is no longer empty"));
  }
}
