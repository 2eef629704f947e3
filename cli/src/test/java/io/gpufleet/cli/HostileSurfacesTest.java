package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile input for the surfaces of issue 33 (item 8): DRA CEL selectors, KubeSchedulerConfiguration
 * and Karpenter's CRDs. Each run ends within a bound with exit 0 or 2, no stack trace, and every error
 * line printed once; the named inputs of the issue get their one line.
 */
class HostileSurfacesTest {

  private static final Path EXAMPLES = Path.of("..", "examples");
  private static final Duration BOUND = Duration.ofSeconds(60);

  private static CliRun run(String... args) {
    CliRun r = assertTimeoutPreemptively(BOUND, () -> CliRun.of(args));
    assertThat(r.exitCode()).as(r.err()).isIn(0, 1, 2);
    assertThat(r.err()).doesNotContain("\tat ", "Exception", "Error:", "dev.cel", "OutOfMemory");
    List<String> errors = r.err().lines().filter(l -> !l.contains("warning:")).toList();
    assertThat(errors).as("each error once").doesNotHaveDuplicates();
    return r;
  }

  // ---- CEL ----

  private static String claimWith(String expression) throws IOException {
    String text = Files.readString(EXAMPLES.resolve("dra/first-available.yaml"), StandardCharsets.UTF_8);
    String first = "device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA H100 80GB HBM3\"";
    assertThat(text).contains(first);
    // A single-quoted YAML scalar holds any expression: quotes doubled.
    return text.replace(first, "'" + expression.replace("'", "''") + "'");
  }

  private static String nested(int k) {
    String e = "true";
    for (int i = k - 1; i >= 0; i--) {
      e = "[0,1,2,3,4,5,6,7,8,9].all(a" + i + ", " + e + ")";
    }
    return e;
  }

  private static String doubling(int k) {
    String b = "size(d" + k + ") > 0";
    for (int i = k; i >= 1; i--) {
      b = "cel.bind(d" + i + ", d" + (i - 1) + " + d" + (i - 1) + ", " + b + ")";
    }
    return "cel.bind(d0, 'ab', " + b + ")";
  }

  @Test
  void hostileSelectorsEndInTheirErrorQuickly(@TempDir Path dir) throws IOException {
    List<String> hostile = List.of(nested(9), doubling(60), "(".repeat(2_000) + "true" + ")".repeat(2_000),
        "device.attributes[\"gpu.nvidia.com\"].productName.matches('(a+)+$')", "\u0000\u001b[2J true",
        "device.attributes[\"x\"].y.z.w == 1", "[" + "1,".repeat(4_000) + "1].exists(x, x == 2)",
        "'" + "a".repeat(10_300) + "' == ''");
    for (String e : hostile) {
      Path in = Files.writeString(dir.resolve("claim.yaml"), claimWith(e), StandardCharsets.UTF_8);
      run("schedule", "-f", in.toString());
    }
    Path nine = Files.writeString(dir.resolve("nine.yaml"), claimWith(nested(9)), StandardCharsets.UTF_8);
    assertThat(run("schedule", "-f", nine.toString()).err())
        .contains("Forbidden: too complex, exceeds cost limit");
    Path bind = Files.writeString(dir.resolve("bind.yaml"), claimWith(doubling(60)), StandardCharsets.UTF_8);
    assertThat(run("schedule", "-f", bind.toString()).err())
        .contains("Forbidden: too complex, exceeds cost limit");
    Path big = Files.writeString(dir.resolve("big.yaml"), claimWith("'" + "a".repeat(10_300) + "' == ''"),
        StandardCharsets.UTF_8);
    assertThat(run("schedule", "-f", big.toString()).err()).contains("Too long: may not be more than 10240 bytes");
  }

  // ---- KubeSchedulerConfiguration ----

  @Test
  void hostileSchedulerConfigurationsAreRefusedOnceByName(@TempDir Path dir) throws IOException {
    String head = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";
    List<String> hostile = List.of(
        "profilez: []\n",
        "profiles: {}\n",
        "profiles:\n- plugins: {filter: {disabled: NodeResourcesFit}}\n",
        "profiles:\n- plugins: {filter: {disabled: [{name: '*'}], enabled: [{name: '*'}]}}\n",
        "profiles:\n- plugins: {score: {enabled: [{name: \"\\e[31mRed\", weight: 1e9}]}}\n",
        "profiles:\n- plugins: {multiPoint: {enabled: [{name: NodeResourcesFit, weight: high}]}}\n",
        "profiles:\n- plugins: {bind: {disabled: [{name: DefaultBinder}]}}\n",
        "percentageOfNodesToScore: high\nprofiles:\n- percentageOfNodesToScore: -1\n",
        "extenders: [{urlPrefix: 'http://x'}]\n",
        "profiles:\n" + "- schedulerName: a\n".repeat(3));
    Path fleet = EXAMPLES.resolve("scheduling/gpu-fleet.yaml");
    for (String c : hostile) {
      Path cfg = Files.writeString(dir.resolve("cfg.yaml"), head + c, StandardCharsets.UTF_8);
      CliRun r = run("schedule", "-f", fleet.toString(), "--config", cfg.toString());
      assertThat(r.exitCode()).as(c + r.err()).isEqualTo(2);
    }
    Path typo = Files.writeString(dir.resolve("typo.yaml"), head + "percentageOfNodesToScore: high\n",
        StandardCharsets.UTF_8);
    assertThat(run("schedule", "-f", fleet.toString(), "--config", typo.toString()).err().lines()
        .filter(l -> l.contains("percentageOfNodesToScore"))).hasSize(1);
  }

  // ---- Karpenter CRDs ----

  private static Path scenario(Path dir, String from, String to) throws IOException {
    String cluster = Files.readString(EXAMPLES.resolve("lab/cluster.yaml"), StandardCharsets.UTF_8);
    assertThat(cluster).contains(from);
    Files.writeString(dir.resolve("cluster.yaml"), cluster.replace(from, to), StandardCharsets.UTF_8);
    return Files.writeString(dir.resolve("scenario.yaml"), """
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: hostile}
        spec:
          cluster:
          - file: cluster.yaml
          steps:
          - id: "1"
            title: wait
            actions:
            - wait: 1m
        """, StandardCharsets.UTF_8);
  }

  private static List<String> errors(CliRun r) {
    return r.err().lines().filter(l -> l.contains(": ") && !l.contains("warning:") && !l.startsWith("gpufleet:"))
        .toList();
  }

  @Test
  void karpenterObjectsAreValidatedAsTheirCrdsWithOneErrorPerProblem(@TempDir Path dir) throws IOException {
    String ami = "amiSelectorTerms: [{alias: bottlerocket@latest}]";
    CliRun string = run("simulate", scenario(dir, ami, "amiSelectorTerms: bottlerocket@latest").toString(), "-q");
    assertThat(errors(string)).singleElement().asString()
        .contains("spec.amiSelectorTerms: expected a list, found the string \"bottlerocket@latest\"");
    CliRun windows = run("simulate", scenario(dir, ami, "amiSelectorTerms: [{alias: windows@ever}]").toString(), "-q");
    // aws/karpenter-provider-aws pkg/apis/v1/ec2nodeclass.go, AMISelectorTerm.alias's second rule.
    assertThat(errors(windows)).singleElement().asString().contains("spec.amiSelectorTerms[0].alias: Invalid value: "
        + "\"string\": family is not supported, must be one of the following: 'al2', 'al2023', 'bottlerocket', "
        + "'windows2019', 'windows2022'");
    CliRun pinned = run("simulate", scenario(dir, ami, "amiSelectorTerms: [{alias: windows2022@v1}]").toString(),
        "-q");
    assertThat(errors(pinned)).singleElement().asString()
        .contains("Invalid value: \"string\": windows families may only specify version 'latest'");
    CliRun two = run("simulate", scenario(dir, ami,
        "amiSelectorTerms: [{alias: al2023@latest}, {id: ami-1}]").toString(), "-q");
    assertThat(errors(two)).singleElement().asString().contains("spec.amiSelectorTerms: Invalid value: \"array\": "
        + "'alias' is mutually exclusive, cannot be set with a combination of other amiSelectorTerms");
    CliRun weight = run("simulate", scenario(dir, "spec:\n  template:", "spec:\n  weight: high\n  template:")
        .toString(), "-q");
    assertThat(errors(weight)).singleElement().asString().contains("spec.weight: expected an integer");
    CliRun after = run("simulate", scenario(dir, "consolidateAfter: 10m", "consolidateAfter: 600").toString(), "-q");
    assertThat(errors(after)).singleElement().asString().contains("spec.disruption.consolidateAfter: expected a string");
  }

  // ---- simulate and smi on the wrong input ----

  @Test
  void simulateGivenAnotherKindSaysSoInOneLineAndSmiWithoutNodesSaysSo(@TempDir Path dir) throws IOException {
    Path list = Files.writeString(dir.resolve("list.yaml"), """
        apiVersion: v1
        kind: List
        items:
        - {apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, image: i}]}}
        """, StandardCharsets.UTF_8);
    CliRun r = run("simulate", list.toString(), "-q");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(errors(r)).singleElement().asString().contains("expected a Scenario (gpufleet.io/v1alpha1), found v1 List");
    Path pod = Files.writeString(dir.resolve("pod.yaml"), """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec: {containers: [{name: c, image: i}]}
        """, StandardCharsets.UTF_8);
    assertThat(errors(run("simulate", pod.toString(), "-q"))).singleElement().asString()
        .contains("found v1 Pod");
    // With a pod, smi shows why it waits and warns that there is no Node; with nothing at all it is refused.
    CliRun smi = run("smi", "-f", pod.toString());
    assertThat(smi.exitCode()).isZero();
    assertThat(smi.err()).contains("gpufleet smi: warning: no Node in the input");
    assertThat(smi.out()).contains("default/p");
    Path none = Files.writeString(dir.resolve("none.yaml"), "apiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n",
        StandardCharsets.UTF_8);
    CliRun empty = run("smi", "-f", none.toString());
    assertThat(empty.exitCode()).isEqualTo(2);
    assertThat(empty.err()).contains("gpufleet smi: no Node in the input");
  }

  // ---- advise replicas ----

  @Test
  void adviseReportsABadReplicaCountOnce(@TempDir Path dir) throws IOException {
    String profile = Files.readString(EXAMPLES.resolve("advise/a10g-inference.yaml"), StandardCharsets.UTF_8);
    for (String bad : List.of("0", "1.5")) {
      Path in = Files.writeString(dir.resolve("p.yaml"), profile.replace("  replicas: 4", "  replicas: " + bad),
          StandardCharsets.UTF_8);
      CliRun r = run("advise", "-f", in.toString());
      assertThat(r.exitCode()).isEqualTo(2);
      assertThat(errors(r)).as(bad).singleElement().asString().contains("spec.replicas");
    }
  }
}
