package io.gpufleet.autoscaler.conformance;

import static io.gpufleet.autoscaler.conformance.K.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.action.Action;
import io.gpufleet.autoscaler.action.RemovalReason;
import io.gpufleet.autoscaler.disruption.DisruptionCommand;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.karpenter.Budget;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.RequirementOperator;
import io.gpufleet.model.workload.IntOrPercent;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Behaviour Karpenter's maintainers stated in answers to issues, {@code issue:<owner>/<repo>#<n>}: the
 * case's text is the behaviour stated, its comment quotes the answer, and the check runs the twin on
 * the situation the issue describes.
 */
final class IssueCases {
  private IssueCases() {}

  static final String AREA = "maintainers' statements (issues)";

  static List<UpstreamCase> all() {
    List<UpstreamCase> c = new ArrayList<>();
    // jmdeal (maintainer), closing kubernetes-sigs/karpenter#3020: "I'm going to close this out in favor of
    // #1750 which would extend the existing graceful disruption controls to expiration, which is currently
    // only forceful."
    c.add(UpstreamCase.of(AREA, "issue:kubernetes-sigs/karpenter#3020", "expiration is only forceful: disruption "
        + "budgets do not hold back expiring nodes", () -> {
      NodePool pool = consolidating(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, Duration.ZERO, 100);
      NodePool blocked = pool.withDisruption(pool.disruption().withBudgets(List.of(Budget.nodes(
          new IntOrPercent.Count(0)))));
      List<StateNode> nodes = new ArrayList<>();
      for (int i = 1; i <= 3; i++) {
        nodes.add(LifecycleCases.claim(node(blocked, "m5.large", i, owned(pod("p" + i, "cpu", "500m"))),
            x -> x.withExpiry(Optional.of(Duration.ofMinutes(30)), Optional.empty())));
      }
      Instant at = T0.plus(Duration.ofHours(1));
      assertThat(lifecycle(at, blocked, nodes)).containsAll(nodes.stream().map(n -> (Action)
          new Action.DeleteNodeClaim(n.name(), RemovalReason.EXPIRED)).toList());
    }));
    // jonathan-innis (maintainer), aws/karpenter-provider-aws#5707: "Karpenter will take multiple, small
    // nodes and convert them into a large node if it can and there are no scheduling requirements that are
    // preventing it from doing so."
    c.add(UpstreamCase.of(AREA, "issue:aws/karpenter-provider-aws#5707", "consolidation takes multiple small nodes "
        + "and converts them into a large node", () -> {
      // Three m5.large, a 1-CPU pod on each (no two fit one m5.large), in a NodePool of the m5 and c5
      // families: one c5.xlarge holds all three for less than the three cost.
      NodePool np = pool("general", req(CAPACITY_TYPE, RequirementOperator.IN, "on-demand"));
      NodePool pool = np.withDisruption(np.disruption().withPolicy(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED)
          .withConsolidateAfter(Optional.of(Duration.ZERO)).withBudgets(List.of(Budget.nodes(
              new IntOrPercent.Percent(100)))));
      List<StateNode> nodes = new ArrayList<>();
      for (int i = 1; i <= 3; i++) {
        nodes.add(node(pool, "m5.large", i, owned(pod("p" + i, "cpu", "1"))));
      }
      DisruptionCommand cmd = poll(view(T0.plus(Duration.ofHours(1)), pool, nodes, PdbIndex.NONE), pool)
          .orElseThrow();
      assertThat(cmd.candidates()).hasSize(3);
      assertThat(cmd.replacements()).singleElement().satisfies(r -> assertThat(CATALOG.require(
          r.instanceType().name()).vcpu()).isGreaterThan(CATALOG.require("m5.large").vcpu()));
    }));
    // tzneal (maintainer), aws/karpenter-provider-aws#1914, on g4dn nodes never removed: "you will also need to
    // run the NVidia device plugin DS which is responsible for registering the GPU extended resources. If
    // not, Karpenter waits for the NVidia GPU resource indefinitely." and "If this doesn't occur, we don't
    // consider the node empty to allow it time to finish initializing."
    c.add(UpstreamCase.of(AREA, "issue:aws/karpenter-provider-aws#1914", "a GPU node whose device plugin never "
        + "registers nvidia.com/gpu is not initialized and not removed as empty", () -> {
      NodePool gpu = bare("gpu", req(FAMILY, RequirementOperator.IN, "g4dn"));
      gpu = gpu.withDisruption(gpu.disruption().withPolicy(ConsolidationPolicy.WHEN_EMPTY).withConsolidateAfter(
          Optional.of(Duration.ZERO)).withBudgets(List.of(Budget.nodes(new IntOrPercent.Percent(100)))));
      StateNode waiting = awaitingDevicePlugin(gpu, "g4dn.xlarge", 1);
      Instant day = T0.plus(Duration.ofDays(1));
      assertThat(lifecycle(day, gpu, List.of(waiting))).noneMatch(x -> x instanceof Action.MarkInitialized
          || x instanceof Action.DeleteNodeClaim);
      assertThat(poll(view(day, gpu, List.of(waiting), PdbIndex.NONE), gpu)).isEmpty();
    }));
    return c;
  }
}
