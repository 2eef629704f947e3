package io.gpufleet.autoscaler.conformance;

import static io.gpufleet.autoscaler.conformance.K.*;
import static io.gpufleet.autoscaler.conformance.LifecycleCases.INTERRUPTION;
import static io.gpufleet.autoscaler.conformance.LifecycleCases.POOL;
import static io.gpufleet.autoscaler.conformance.LifecycleCases.claim;
import static io.gpufleet.autoscaler.conformance.LifecycleCases.deletions;
import static io.gpufleet.autoscaler.conformance.LifecycleCases.interrupt;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.action.Action;
import io.gpufleet.autoscaler.action.RemovalReason;
import io.gpufleet.autoscaler.interruption.InterruptionMessage;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * More of the AWS provider's interruption controller ({@code aws:pkg/controllers/interruption/suite_test.go},
 * its instance-status cases), run through the twin's interruption handler on hand-built nodes. Upstream's instance-status controller
 * reports {@code event_status} for a scheduled event and {@code instance_status}/{@code system_status}
 * for failed checks; the twin has one kind for each action: {@code SCHEDULED_CHANGE} (cordon and drain)
 * and {@code INSTANCE_STATUS} (forceful termination).
 */
final class InterruptionCases {
  private InterruptionCases() {}

  static List<UpstreamCase> all() {
    List<UpstreamCase> c = new ArrayList<>();
    c.add(UpstreamCase.of("interruption", INTERRUPTION, "should handle multiple messages that cause nodeClaim "
        + "deletion: with spot interruption messages", () -> {
      // Upstream: 100 claims, one spot interruption message each; every claim is gone.
      for (int i = 1; i <= 100; i++) {
        StateNode n = spotNode(POOL, "m5.large", i);
        assertThat(deletions(interrupt(InterruptionMessage.Kind.SPOT_INTERRUPTED, n)))
            .containsExactly(new Action.DeleteNodeClaim(n.name(), RemovalReason.INTERRUPTED));
      }
    }));
    c.add(UpstreamCase.of("interruption", INTERRUPTION, "should delete the NodeClaim when an instance has a scheduled "
        + "maintenance event", () -> {
      StateNode n = node(POOL, "m5.large", 1);
      List<Action> out = interrupt(InterruptionMessage.Kind.SCHEDULED_CHANGE, n);
      assertThat(deletions(out)).containsExactly(new Action.DeleteNodeClaim(n.name(), RemovalReason.INTERRUPTED));
      assertThat(out).noneMatch(a -> a instanceof Action.TerminateInstance);
    }));
    c.add(UpstreamCase.of("interruption", INTERRUPTION, "should forcefully terminate the NodeClaim when an instance is "
        + "unhealthy due to EC2 system status checks", () -> {
      StateNode n = node(POOL, "m5.large", 1);
      assertThat(interrupt(InterruptionMessage.Kind.INSTANCE_STATUS, n)).contains(
          new Action.DeleteNodeClaim(n.name(), RemovalReason.INTERRUPTED), new Action.TerminateInstance(n.name()));
    }));
    c.add(UpstreamCase.of("interruption", INTERRUPTION, "should forcefully terminate when an instance has both system "
        + "status failure and a scheduled event", () -> {
      // Forceful termination wins, whichever message comes first: after the scheduled event the
      // claim is already deleting, and the failed check still terminates it without the drain.
      StateNode n = node(POOL, "m5.large", 1);
      StateNode deleting = claim(n, x -> x.withDeletionRequested(T0.plus(Duration.ofHours(1))));
      assertThat(interrupt(InterruptionMessage.Kind.SCHEDULED_CHANGE, n)).noneMatch(
          a -> a instanceof Action.TerminateInstance);
      assertThat(interrupt(InterruptionMessage.Kind.INSTANCE_STATUS, deleting)).contains(
          new Action.TerminateInstance(n.name()));
      // And the other way round, the scheduled event does not undo it.
      assertThat(interrupt(InterruptionMessage.Kind.INSTANCE_STATUS, n)).contains(
          new Action.TerminateInstance(n.name()));
    }));
    return c;
  }
}
