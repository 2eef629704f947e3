package io.gpufleet.report.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.sim.record.RunRecord;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The disruption decisions --explain prints: proposals with each node weighed, outcomes, and nothing else. */
class DisruptionDecisionsTest {

  static final Instant T0 = Instant.parse("2026-01-05T09:00:00Z");

  @Test
  void aDecisionListsTheNodesItWeighedThenWhatBecameOfIt() {
    RunRecord.Recorder r = new RunRecord.Recorder(true);
    r.add(T0.plusSeconds(10), RunRecord.Kind.POD_SCHEDULED, "default/a", "on n1");
    r.add(T0.plusSeconds(60), RunRecord.Kind.DISRUPTION_PROPOSED, "disruption-x", "SingleNodeConsolidation "
        + "(Underutilized): delete n1");
    r.add(T0.plusSeconds(60), RunRecord.Kind.DISRUPTION_CONSIDERED, "n1", "chosen by disruption-x");
    r.add(T0.plusSeconds(60), RunRecord.Kind.DISRUPTION_CONSIDERED, "n2", "left: Can't replace with a cheaper node");
    r.add(T0.plusSeconds(75), RunRecord.Kind.DISRUPTION_ABANDONED, "disruption-x", "n1 is no longer a disruption "
        + "candidate");
    r.add(T0.plusSeconds(90), RunRecord.Kind.KARPENTER_EVENT, "n1", "DisruptionBlocked: Pod has "
        + "\"karpenter.sh/do-not-disrupt\" annotation (Pod=default/a)");
    r.add(T0.plusSeconds(91), RunRecord.Kind.KARPENTER_EVENT, "n2", "Unconsolidatable: NodePool \"gpu\" has "
        + "non-empty consolidation disabled");
    r.add(T0.plusSeconds(95), RunRecord.Kind.KARPENTER_EVENT, "n3", "Launched for 1 pod(s)");
    RunRecord record = r.build();
    assertThat(DisruptionDecisions.render(record, 0, record.entries().size(), T0)).containsExactly(
        "+00:01:00  proposed disruption-x: SingleNodeConsolidation (Underutilized): delete n1",
        "             n1  chosen by disruption-x",
        "             n2  left: Can't replace with a cheaper node",
        "+00:01:15  abandoned disruption-x: n1 is no longer a disruption candidate",
        "+00:01:30  n1  left: Pod has \"karpenter.sh/do-not-disrupt\" annotation (Pod=default/a)",
        "+00:01:31  n2  left: NodePool \"gpu\" has non-empty consolidation disabled");
    // Only the range asked for.
    assertThat(DisruptionDecisions.render(record, 0, 1, T0)).isEmpty();
  }
}
