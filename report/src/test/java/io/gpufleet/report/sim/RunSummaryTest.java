package io.gpufleet.report.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.sim.metrics.Metrics;
import io.gpufleet.sim.metrics.MetricsRecorder;
import io.gpufleet.sim.metrics.ServiceMetrics;
import io.gpufleet.sim.metrics.Traffic;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The summary's service and pending-time lines say only what the run measured. */
class RunSummaryTest {

  static final Instant T0 = Instant.parse("2026-01-05T09:00:00Z");

  static ServiceMetrics service(Traffic traffic, int... readyEveryTenSeconds) {
    MetricsRecorder m = new MetricsRecorder();
    m.service(new ObjectRef("Deployment", "default", "s"), traffic);
    for (int i = 0; i < readyEveryTenSeconds.length; i++) {
      m.serviceReady(new ObjectRef("Deployment", "default", "s"), readyEveryTenSeconds[i], 2, T0.plusSeconds(10L * i));
    }
    return m.finish(T0.plusSeconds(600)).service(new ObjectRef("Deployment", "default", "s")).orElseThrow();
  }

  @Test
  void aServiceThatNeverHadAReadyPodIsReportedAsNeverReady() {
    String line = RunSummary.service(service(new Traffic(10, Duration.ofSeconds(1)), 0, 0), T0);
    assertThat(line).isEqualTo("never Ready");
  }

  @Test
  void withoutTrafficNoRequestsAreClaimed() {
    String line = RunSummary.service(service(Traffic.NONE, 0, 1, 2, 0, 2), T0);
    assertThat(line).contains("no traffic modelled").doesNotContain("requests lost");
    assertThat(line).contains("first Ready +00:00:10").contains("all wanted Ready +00:00:20, then at least 0")
        .contains("10s with none Ready after the first");
  }

  @Test
  void withTrafficTheLostRequestsAreCounted() {
    // Ready 2 at 10 s, none from 20 s to 50 s: 30 s at 4 requests per second.
    String line = RunSummary.service(service(new Traffic(4, Duration.ofSeconds(1)), 0, 2, 0, 0, 0, 2), T0);
    assertThat(line).contains("30s with none Ready after the first").contains("120 requests lost")
        .doesNotContain("no traffic");
  }

  @Test
  void aServiceThatNeverHadAllItWantedSaysSo() {
    String line = RunSummary.service(service(Traffic.NONE, 1, 1), T0);
    assertThat(line).startsWith("first Ready +00:00:00; never all wanted Ready at once (at most 1)");
  }

  @Test
  void pendingPercentilesCoverStillPendingPodsAsCensoredLowerBounds() {
    MetricsRecorder r = new MetricsRecorder();
    r.podCreated("a", Optional.empty(), T0);
    r.podScheduled("a", T0.plusSeconds(30));
    r.podCreated("b", Optional.empty(), T0);
    Metrics m = r.finish(T0.plusSeconds(300));
    assertThat(RunSummary.pending(m)).isEqualTo(
        "p50 30s, p90 >=5m, p99 >=5m, max >=5m over 2 pods; 1 still pending at the end, counted with their wait so far"
            + " (censored)");
  }
}
