package io.gpufleet.sim.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A pod left Pending by a static placement, found in a run's record: launched for, bound, refused or not. */
class PendingFatesTest {

  private static final Instant T0 = Instant.parse("2026-01-05T00:00:00Z");

  @Test
  void eachPendingPodGetsWhatTheRunDidForItsCounterpart() {
    RunRecord.Recorder r = new RunRecord.Recorder(true);
    r.add(T0, RunRecord.Kind.POD_CREATED, "default/solo", "");
    // A Deployment's pods: the run named them otherwise; the one bound at once is taken last.
    r.add(T0, RunRecord.Kind.POD_CREATED, "default/web-5d8f-aaaaa", "by Deployment/default/web");
    r.add(T0, RunRecord.Kind.POD_CREATED, "default/web-5d8f-bbbbb", "by Deployment/default/web");
    r.add(T0, RunRecord.Kind.POD_CREATED, "default/big", "");
    r.add(T0, RunRecord.Kind.POD_CREATED, "default/stuck", "");
    r.add(T0, RunRecord.Kind.POD_SCHEDULED, "default/web-5d8f-aaaaa", "bound to old-node (the only feasible node)");
    r.add(T0.plusSeconds(1), RunRecord.Kind.NODECLAIM_LAUNCHED, "gpu-x7k2p", "g5.xlarge on-demand in us-east-1a at $1.006/h");
    r.add(T0.plusSeconds(1), RunRecord.Kind.KARPENTER_EVENT, "default/big",
        "FailedScheduling: Failed to schedule pod, all available instance types exceed limits for nodepool (NodePool=gpu)");
    r.add(T0.plusSeconds(211), RunRecord.Kind.POD_SCHEDULED, "default/solo", "bound to gpu-x7k2p");
    r.add(T0.plusSeconds(211), RunRecord.Kind.POD_SCHEDULED, "default/web-5d8f-bbbbb", "bound to old-node");
    Map<String, PendingFates.Fate> f = PendingFates.of(r.build(), T0,
        List.of("default/solo", "default/web-5d8f-zzzzz", "default/big", "default/stuck", "default/gone"));
    assertThat(f.get("default/solo")).isEqualTo(new PendingFates.Fate(PendingFates.Kind.LAUNCHED, "default/solo",
        Duration.ofSeconds(211), "gpu-x7k2p", "gpu", "g5.xlarge on-demand in us-east-1a at $1.006/h", ""));
    assertThat(f.get("default/web-5d8f-zzzzz")).extracting(PendingFates.Fate::kind, PendingFates.Fate::runPod,
        PendingFates.Fate::node).containsExactly(PendingFates.Kind.EXISTING_NODE, "default/web-5d8f-bbbbb", "old-node");
    assertThat(f.get("default/big").kind()).isEqualTo(PendingFates.Kind.REFUSED);
    assertThat(f.get("default/big").message())
        .isEqualTo("Failed to schedule pod, all available instance types exceed limits for nodepool (NodePool=gpu)");
    assertThat(f.get("default/stuck").kind()).isEqualTo(PendingFates.Kind.STILL_PENDING);
    assertThat(f).doesNotContainKey("default/gone");
  }
}
