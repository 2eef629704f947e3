package io.gpufleet.manifest.kueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.kube.KubeDecoder;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.manifest.yaml.YamlReader;
import io.gpufleet.queue.api.KueueConfiguration;
import io.gpufleet.queue.api.WaitForPodsReady;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Kueue's manager Configuration: waitForPodsReady defaulted as each version's {@code defaults.go}
 * defaults it ({@code apis/config/v1beta1}: off unless enabled, then 5m and blockAdmission true;
 * {@code apis/config/v1beta2}: always on, 30m, blockAdmission false; recoveryTimeout = timeout,
 * backoff 60 s to 3600 s), checked as {@code pkg/config/validation.go} validateWaitForPodsReady, other
 * fields warnings by name, unknown ones strict-decoding errors.
 */
class KueueConfigurationTest {

  /** The Configuration as {@link KueueManifests#of} reads it; empty where the text gives none. */
  static Optional<KueueConfiguration> read(String text, Diagnostics d) {
    var objects = new KubeDecoder(d).decodeAll(new YamlReader().readAll("config.yaml", text));
    return KueueManifests.configurationObject(objects)
        .map(o -> KueueManifests.of(objects, java.util.Set.of(), d, java.time.Instant.EPOCH).configuration());
  }

  static WaitForPodsReady waitForPodsReady(String text) {
    Diagnostics d = new Diagnostics();
    Optional<KueueConfiguration> c = read(text, d);
    assertThat(d.errors()).isEmpty();
    return c.orElseThrow().waitForPodsReady().orElseThrow();
  }

  @Test
  void v1beta1IsOffUntilEnabledThenFiveMinutesAndBlockingAsItsDefaultsSay() {
    Diagnostics d = new Diagnostics();
    assertThat(read("apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\n", d).orElseThrow()
        .waitForPodsReady()).isEmpty();
    assertThat(read("apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\nwaitForPodsReady: {enable: false, "
        + "timeout: 3m}\n", d).orElseThrow().waitForPodsReady()).isEmpty();
    assertThat(d.errors()).isEmpty();
    assertThat(waitForPodsReady("apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\n"
        + "waitForPodsReady: {enable: true}\n")).isEqualTo(new WaitForPodsReady(Duration.ofMinutes(5), true,
            WaitForPodsReady.RequeuingStrategy.DEFAULT, Optional.of(Duration.ofMinutes(5))));
  }

  @Test
  void v1beta2IsOnWithThirtyMinutesAndNoBlockingAsIsNoConfigurationAtAll() {
    WaitForPodsReady defaults = new WaitForPodsReady(Duration.ofMinutes(30), false,
        WaitForPodsReady.RequeuingStrategy.DEFAULT, Optional.of(Duration.ofMinutes(30)));
    assertThat(waitForPodsReady("apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\n")).isEqualTo(defaults);
    assertThat(KueueConfiguration.DEFAULT.waitForPodsReady()).contains(defaults);
    assertThat(read("apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n", new Diagnostics())).isEmpty();
  }

  @Test
  void everyWaitForPodsReadyFieldIsRead() {
    WaitForPodsReady w = waitForPodsReady("""
        apiVersion: config.kueue.x-k8s.io/v1beta2
        kind: Configuration
        waitForPodsReady:
          timeout: 10m
          blockAdmission: true
          recoveryTimeout: 0s
          requeuingStrategy:
            timestamp: Creation
            backoffLimitCount: 5
            backoffBaseSeconds: 30
            backoffMaxSeconds: 600
        """);
    assertThat(w).isEqualTo(new WaitForPodsReady(Duration.ofMinutes(10), true, new WaitForPodsReady.RequeuingStrategy(
        WaitForPodsReady.Timestamp.CREATION, Optional.of(5), 30, 600), Optional.empty()));
  }

  @Test
  void badValuesAndUnknownFieldsAreErrorsAndUnmodelledFieldsWarningsAtTheirLines() {
    String text = """
        apiVersion: config.kueue.x-k8s.io/v1beta2
        kind: Configuration
        multiKueue: {gcInterval: 1m}
        waitForPodsReady:
          enable: true
          timeout: -5m
          requeuingStrategy:
            timestamp: Admission
            backoffLimitCount: -1
        """;
    Diagnostics d = new Diagnostics();
    read(text, d);
    assertThat(d.errors().stream().map(ManifestProblem::toString)).containsExactly(
        "config.yaml:5:3: waitForPodsReady.enable: strict decoding error: unknown field \"waitForPodsReady.enable\"",
        "config.yaml:6:12: waitForPodsReady.timeout: must be greater than or equal to 0, found \"-5m\"",
        "config.yaml:8:16: waitForPodsReady.requeuingStrategy.timestamp: supported values: \"Eviction\", \"Creation\", "
            + "found \"Admission\"",
        "config.yaml:9:24: waitForPodsReady.requeuingStrategy.backoffLimitCount: must be greater than or equal to 0, "
            + "found -1");
    assertThat(d.warnings().stream().map(ManifestProblem::toString)).anyMatch(w -> w.startsWith("config.yaml:3:")
        && w.contains("Configuration field multiKueue is not modelled by gpufleet"));
  }

  @Test
  void aV1beta1ZeroTimeoutIsRequiredAndASecondConfigurationAnError() {
    Diagnostics d = new Diagnostics();
    read("""
        apiVersion: config.kueue.x-k8s.io/v1beta1
        kind: Configuration
        waitForPodsReady: {enable: true, timeout: 0s}
        ---
        apiVersion: config.kueue.x-k8s.io/v1beta2
        kind: Configuration
        """, d);
    assertThat(d.errors().stream().map(ManifestProblem::toString)).anyMatch(e -> e.contains("waitForPodsReady.timeout")
        && e.contains("must be specified")).anyMatch(e -> e.startsWith("config.yaml:5:")
            && e.contains("a second Kueue Configuration"));
  }
}
