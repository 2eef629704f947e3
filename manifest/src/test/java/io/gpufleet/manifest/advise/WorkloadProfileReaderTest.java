package io.gpufleet.manifest.advise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.model.advise.Boundness;
import io.gpufleet.model.advise.RequestDemand;
import io.gpufleet.model.advise.Trust;
import io.gpufleet.model.advise.WorkloadKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class WorkloadProfileReaderTest {

  private final WorkloadProfileReader reader = new WorkloadProfileReader();

  private static List<String> errors(Runnable r) {
    try {
      r.run();
    } catch (ManifestException e) {
      return e.problems().stream().map(ManifestProblem::toString).toList();
    }
    throw new AssertionError("expected errors");
  }

  @Test
  void everyShippedExampleReads() throws Exception {
    try (Stream<Path> files = Files.list(Path.of("../examples/advise"))) {
      List<Path> yaml = files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
      assertThat(yaml).isNotEmpty();
      for (Path p : yaml) {
        ProfileSet set = reader.read(List.of(p));
        assertThat(set.profiles()).as("%s", p).isNotEmpty();
        assertThat(set.gpu()).as("%s", p).isPresent();
      }
    }
  }

  @Test
  void readsTheA10gExampleField() {
    ProfileSet set = reader.read(List.of(Path.of("../examples/advise/a10g-inference.yaml")));
    var p = set.profiles().getFirst();
    assertThat(p.name()).isEqualTo("chat-1.5b");
    assertThat(p.kind()).isEqualTo(WorkloadKind.INFERENCE);
    assertThat(p.replicas()).isEqualTo(4);
    assertThat(p.demand()).isEqualTo(new RequestDemand.ModelWeights(1.5e9, 2, 1));
    assertThat(p.memoryMiB()).isEqualTo(4096);
    assertThat(p.load().ratePerSecond()).isEqualTo(5);
    assertThat(p.slo().orElseThrow().p99Ms()).isEqualTo(50);
    assertThat(p.trust()).isEqualTo(Trust.TRUSTED);
    assertThat(p.host().cpuMillis()).isEqualTo(1000);
    assertThat(set.gpu()).contains("A10G");
    assertThat(set.assumptions()).isEmpty();
  }

  @Test
  void defaultsAreAppliedAndSaidOutLoud() {
    ProfileSet set = reader.read("p.yaml", """
        apiVersion: gpufleet.io/v1alpha1
        kind: WorkloadProfile
        metadata: {name: m}
        spec:
          request: {model: {parameters: 7B}}
          load: {rate: 2}
        """);
    var p = set.profiles().getFirst();
    assertThat(p.memoryMiB()).isEqualTo(13352 + 1024);
    assertThat(p.bound()).isEqualTo(Boundness.MEMORY);
    assertThat(set.assumptions()).anyMatch(a -> a.contains("1 decode step")).anyMatch(a -> a.contains("trusted"))
        .anyMatch(a -> a.contains("plus 1024 MiB"));
  }

  @Test
  void badValuesAreReportedAtTheirLineAndColumn() {
    List<String> errs = errors(() -> reader.read("p.yaml", """
        apiVersion: gpufleet.io/v1alpha1
        kind: WorkloadProfile
        metadata: {name: m}
        spec:
          request:
            model: {parameters: lots}
          load: {rate: fast, burstiness: wild}
          slo: {p99: soon}
          trust: maybe
          replica: 3
        """));
    assertThat(errs).containsExactly(
        "p.yaml:6:25: spec.request.model.parameters: expected a parameter count such as 1.5B, 350M or 7e9, found \"lots\"",
        "p.yaml:7:16: spec.load.rate: expected a rate in requests per second, such as 5 or 0.5, found \"fast\"",
        "p.yaml:7:34: spec.load.burstiness: expected poisson, bursty or an inter-arrival SCV in [0.01, 100], found \"wild\"",
        "p.yaml:8:14: spec.slo.p99: expected a duration such as 50ms or 0.25s, found \"soon\"",
        "p.yaml:9:10: spec.trust: expected trusted or untrusted, found \"maybe\"",
        "p.yaml:10:3: spec.replica: unknown field \"replica\"");
  }

  @Test
  void replicasBeyondAdvisesLimitAreRefusedWhereWritten() {
    List<String> errs = errors(() -> reader.read("p.yaml", """
        apiVersion: gpufleet.io/v1alpha1
        kind: WorkloadProfile
        metadata: {name: m}
        spec:
          request: {model: {parameters: 1B}}
          load: {rate: 1}
          replicas: 1000000
        """));
    assertThat(errs).containsExactly("p.yaml:7:13: spec.replicas: expected 1 to 2000 replicas (advise's limit), found 1000000");
  }

  @Test
  void aMissingRequestIsReportedAtSpec() {
    List<String> errs = errors(() -> reader.read("p.yaml", """
        apiVersion: gpufleet.io/v1alpha1
        kind: WorkloadProfile
        metadata: {name: m}
        spec:
          memory: 4Gi
          load: {rate: 1}
        """));
    assertThat(errs).containsExactly(
        "p.yaml:5:3: spec.request: required: one of model (parameters), kernels or measured (latency or throughput)");
  }

  @Test
  void otherKindsAndSyntaxErrorsAreRejected() {
    assertThat(errors(() -> reader.read("p.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n")))
        .containsExactly("p.yaml:2:7: kind: expected kind WorkloadProfile, found \"Pod\"");
    assertThatThrownBy(() -> reader.read("p.yaml", "spec: [unclosed"))
        .isInstanceOf(ManifestException.class).hasMessageStartingWith("p.yaml:");
  }

  @Test
  void aMeasuredThroughputAloneIsOneOverTheLatency() {
    ProfileSet set = reader.read("p.yaml", """
        apiVersion: gpufleet.io/v1alpha1
        kind: WorkloadProfile
        metadata: {name: big}
        spec:
          request: {measured: {gpu: H200, throughput: 250, bound: memory}}
          memory: 5Gi
          load: {rate: 60}
        """);
    var d = (RequestDemand.MeasuredAlone) set.profiles().getFirst().demand();
    assertThat(d.latencyMs()).isEqualTo(4.0);
    assertThat(d.gpu()).isEqualTo("H200");
  }

  @Test
  void valueSyntaxes() {
    assertThat(ProfileValues.count("1.5B")).hasValue(1.5e9);
    assertThat(ProfileValues.count("350M")).hasValue(3.5e8);
    assertThat(ProfileValues.count("7e9")).hasValue(7e9);
    assertThat(ProfileValues.count("-1")).isEmpty();
    assertThat(ProfileValues.milliseconds("50ms")).hasValue(50);
    assertThat(ProfileValues.milliseconds("0.25s")).hasValue(250);
    assertThat(ProfileValues.mebibytes("4Gi")).hasValue(4096);
    assertThat(ProfileValues.mebibytes("1G")).hasValue(954);
    assertThat(ProfileValues.millicores("500m")).hasValue(500);
  }
}
