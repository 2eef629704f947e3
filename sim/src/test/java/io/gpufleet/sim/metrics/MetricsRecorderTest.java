package io.gpufleet.sim.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.meta.ObjectRef;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The run's measurements claim only what was observed: traffic, readiness, censored waits. */
class MetricsRecorderTest {

  static final Instant T0 = Instant.parse("2026-01-05T09:00:00Z");

  static Instant at(long seconds) {
    return T0.plusSeconds(seconds);
  }

  @Test
  void aServiceWithoutTrafficAnnotationsCountsNoRequests() {
    MetricsRecorder m = new MetricsRecorder();
    m.service(new ObjectRef("Deployment", "default", "web"), Traffic.NONE);
    m.serviceReady(new ObjectRef("Deployment", "default", "web"), 1, 1, at(10));
    m.serviceReady(new ObjectRef("Deployment", "default", "web"), 0, 1, at(20));
    m.serviceReady(new ObjectRef("Deployment", "default", "web"), 1, 1, at(50));
    ServiceMetrics s = m.finish(at(100)).service(new ObjectRef("Deployment", "default", "web")).orElseThrow();
    assertThat(s.trafficModelled()).isFalse();
    assertThat(s.lostRequests()).isEmpty();
    assertThat(s.outageSeconds()).isEqualTo(30);
  }

  @Test
  void withTrafficAnOutageLosesItsRequests() {
    MetricsRecorder m = new MetricsRecorder();
    m.service(new ObjectRef("Deployment", "default", "llm"), new Traffic(20, Duration.ofSeconds(2)));
    m.serviceReady(new ObjectRef("Deployment", "default", "llm"), 1, 1, at(10));
    m.serviceReady(new ObjectRef("Deployment", "default", "llm"), 0, 1, at(20));
    m.serviceReady(new ObjectRef("Deployment", "default", "llm"), 1, 1, at(50));
    ServiceMetrics s = m.finish(at(100)).service(new ObjectRef("Deployment", "default", "llm")).orElseThrow();
    assertThat(s.trafficModelled()).isTrue();
    assertThat(s.lostRequests()).hasValue(30 * 20.0);
    assertThat(s.minReady()).hasValue(0);
  }

  @Test
  void aServiceThatNeverHadAReadyPodIsNeverReadyWithNothingMeasuredAfterwards() {
    MetricsRecorder m = new MetricsRecorder();
    m.service(new ObjectRef("Deployment", "default", "stuck"), new Traffic(5, Duration.ofSeconds(1)));
    m.serviceReady(new ObjectRef("Deployment", "default", "stuck"), 0, 3, at(0));
    ServiceMetrics s = m.finish(at(600)).service(new ObjectRef("Deployment", "default", "stuck")).orElseThrow();
    assertThat(s.everReady()).isFalse();
    assertThat(s.firstReady()).isEmpty();
    assertThat(s.allReady()).isEmpty();
    assertThat(s.minReady()).isEmpty();
    assertThat(s.mostReady()).isZero();
    assertThat(s.lostRequests()).as("it never served, so no loss was measured").isEmpty();
  }

  @Test
  void theFewestReadyCountsOnlyAfterAllWantedWereReady() {
    MetricsRecorder m = new MetricsRecorder();
    m.service(new ObjectRef("Deployment", "default", "web"), Traffic.NONE);
    m.serviceReady(new ObjectRef("Deployment", "default", "web"), 1, 3, at(10));
    m.serviceReady(new ObjectRef("Deployment", "default", "web"), 3, 3, at(20));
    m.serviceReady(new ObjectRef("Deployment", "default", "web"), 2, 3, at(30));
    m.serviceReady(new ObjectRef("Deployment", "default", "web"), 3, 3, at(40));
    ServiceMetrics s = m.finish(at(100)).service(new ObjectRef("Deployment", "default", "web")).orElseThrow();
    assertThat(s.firstReady()).contains(at(10));
    assertThat(s.allReady()).contains(at(20));
    assertThat(s.minReady()).hasValue(2);
    assertThat(s.mostReady()).isEqualTo(3);
  }

  @Test
  void pendingQuantilesCountStillPendingPodsAsCensoredAtTheEnd() {
    MetricsRecorder m = new MetricsRecorder();
    // Three pods scheduled after 10 s, 20 s and 30 s; two still pending, created at 0 and 50.
    for (int i = 0; i < 3; i++) {
      m.podCreated("p" + i, Optional.empty(), at(0));
      m.podScheduled("p" + i, at(10 * (i + 1)));
    }
    m.podCreated("waiting-long", Optional.empty(), at(0));
    m.podCreated("waiting-short", Optional.empty(), at(95));
    Metrics r = m.finish(at(100));
    assertThat(r.neverScheduled()).isEqualTo(2);
    // Sorted waits: 5 (censored), 10, 20, 30, 100 (censored).
    // p20 is the 1st: the censored 5 s, so only a lower bound.
    assertThat(r.pendingQuantile(0.2)).contains(new Metrics.PendingQuantile(Duration.ofSeconds(5), true));
    // p60 is the 3rd: 20 s, but the short-waiting pod may yet wait longer, so 20 s is a lower bound.
    assertThat(r.pendingQuantile(0.6)).contains(new Metrics.PendingQuantile(Duration.ofSeconds(20), true));
    // max is the censored 100 s: at least that.
    assertThat(r.pendingQuantile(1.0)).contains(new Metrics.PendingQuantile(Duration.ofSeconds(100), true));
  }

  @Test
  void pendingQuantilesAreExactWhenEnoughScheduledPodsWaitedNoLonger() {
    MetricsRecorder m = new MetricsRecorder();
    for (int i = 0; i < 4; i++) {
      m.podCreated("p" + i, Optional.empty(), at(0));
      m.podScheduled("p" + i, at(10 * (i + 1)));
    }
    m.podCreated("waiting", Optional.empty(), at(0));
    Metrics r = m.finish(at(100));
    // Waits 10, 20, 30, 40 and a censored 100: the median (3rd) is 30 s whatever the last pod waits.
    assertThat(r.pendingQuantile(0.5)).contains(new Metrics.PendingQuantile(Duration.ofSeconds(30), false));
    assertThat(r.pendingQuantile(1.0)).contains(new Metrics.PendingQuantile(Duration.ofSeconds(100), true));
  }

  @Test
  void noPodsNoQuantile() {
    assertThat(new MetricsRecorder().finish(T0).pendingQuantile(0.5)).isEmpty();
  }

  @Test
  void servicesAreKeyedByTheirTypedReferenceAndOnlyServingKindsCountAsServices() {
    MetricsRecorder m = new MetricsRecorder();
    ObjectRef web = new ObjectRef("Deployment", "default", "web");
    ObjectRef db = new ObjectRef("StatefulSet", "default", "db");
    ObjectRef agent = new ObjectRef("DaemonSet", "kube-system", "agent");
    ObjectRef train = new ObjectRef("Job", "ml", "train");
    // Same namespace and name, another kind: another workload.
    ObjectRef webJob = new ObjectRef("Job", "default", "web");
    for (ObjectRef w : new ObjectRef[] {web, db, agent, train, webJob}) {
      m.service(w, Traffic.NONE);
      m.serviceReady(w, 1, 1, at(10));
    }
    m.serviceReady(web, 0, 1, at(20));
    Metrics metrics = m.finish(at(100));
    // In the order of their Kind/namespace/name text, as reports list them.
    assertThat(metrics.services().keySet()).containsExactly(agent, web, webJob, train, db);
    assertThat(metrics.service(web).orElseThrow().outageSeconds()).isEqualTo(80);
    assertThat(metrics.service(webJob).orElseThrow().outageSeconds()).isZero();
    assertThat(metrics.services().values().stream().filter(ServiceMetrics::service).map(ServiceMetrics::workload))
        .containsExactly(web, db);
    assertThat(metrics.series(Metrics.readySeries("Deployment/default/web"))).isPresent();
  }
}
