package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every example scenario (docs/scenarios.md lists them) runs and meets its expectations; failures say what and when. */
class SimulateCommandTest {

  private static final Path EXAMPLES = Path.of("..", "examples");

  @ParameterizedTest
  @ValueSource(strings = {"scenarios/inference-spot.yaml", "scenarios/consolidation-when-empty.yaml",
      "scenarios/consolidation-underutilized.yaml", "scenarios/consolidation-livelock.yaml", "scenarios/node-expiry.yaml",
      "scenarios/mig-multi-tenant.yaml", "scenarios/time-sliced-node-overlay.yaml", "scenarios/preemption.yaml",
      "scenarios/capacity-block-training.yaml", "scenarios/kueue-capacity-block.yaml",
      "scenarios/kueue-gang.yaml",
      "lab/lab.yaml"})
  void exampleScenariosMeetTheirExpectations(String example, @TempDir Path out) {
    CliRun run = CliRun.wide("simulate", EXAMPLES.resolve(example).toString(), "--out", out.toString(), "-q");
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    assertThat(run.out()).containsPattern("expectations    (\\d+) of \\1 passed");
    assertThat(out.resolve("result.json")).exists();
    assertThat(out.resolve("report.html")).exists();
  }

  @Test
  void theSameScenarioAndSeedGiveByteIdenticalFiles(@TempDir Path a, @TempDir Path b) throws IOException {
    String scenario = EXAMPLES.resolve("scenarios/inference-spot.yaml").toString();
    CliRun first = CliRun.wide("simulate", scenario, "--out", a.toString());
    CliRun second = CliRun.wide("simulate", scenario, "--out", b.toString());
    assertThat(second.out().replace(b.toString(), a.toString())).isEqualTo(first.out());
    for (String f : List.of("result.json", "timeseries.csv", "pods.csv", "report.html", "events.jsonl")) {
      assertThat(Files.readString(b.resolve(f))).as(f).isEqualTo(Files.readString(a.resolve(f)));
    }
  }

  /**
   * A fleet larger than the report's bound: the terminal shows every node and pod, the HTML the
   * first rows of each table and how many it left out, and events.jsonl every entry of the run record.
   */
  @Test
  void aLargeFleetsReportIsBoundedAndEventsJsonlHoldsTheWholeRecord(@TempDir Path dir) throws IOException {
    int replicas = io.gpufleet.report.sim.RunOutputs.HTML_ROW_BOUND + 50;
    Path s = dir.resolve("large.yaml");
    Files.writeString(s, Files.readString(EXAMPLES.resolve("scenarios/inference-spot.yaml"))
        .replace("replicas: 2", "replicas: " + replicas).replace("limits: {nvidia.com/gpu: 8}", "")
        .replace("values: [spot]", "values: [on-demand]")
        .replaceAll("(?s)  - id: \"2\".*", ""));
    Path out = dir.resolve("out");
    CliRun run = CliRun.wide("simulate", s.toString(), "--out", out.toString());
    // Every pod's row is in the terminal's view, however many there are.
    assertThat(run.out().lines().filter(l -> l.contains(" chat-")).count()).isGreaterThanOrEqualTo(replicas);
    assertThat(run.out()).doesNotContain("more rows not shown");
    String html = Files.readString(out.resolve("report.html"));
    assertThat(html).contains("more rows not shown; the whole run record is in events.jsonl")
        .contains("more card lanes not shown").contains("more node lanes not shown");
    List<String> lines = Files.readAllLines(out.resolve("events.jsonl"));
    assertThat(lines.stream().filter(l -> l.contains("\"kind\":\"PodScheduled\"")).count())
        .isGreaterThanOrEqualTo(replicas);
    for (String line : lines) {
      assertThat(line).startsWith("{\"time\":\"").contains("\"offset\":", "\"kind\":", "\"subject\":", "\"message\":")
          .endsWith("}");
    }
  }

  @Test
  void explainSaysWhichNodeConsolidationTookAndWhyItLeftTheOthers(@TempDir Path out) throws IOException {
    String scenario = EXAMPLES.resolve("scenarios/consolidation-underutilized.yaml").toString();
    CliRun run = CliRun.wide("simulate", scenario, "--out", out.resolve("explained").toString(), "--explain");
    assertThat(run.exitCode()).as(run.err()).isZero();
    java.util.regex.Matcher proposed = java.util.regex.Pattern.compile(
        "proposed (disruption-\\w+): SingleNodeConsolidation \\(Underutilized\\): replace (\\S+) with").matcher(run.out());
    assertThat(proposed.find()).as(run.out()).isTrue();
    // The node it took, by the command's id, and the replacement that was left as it is, with Karpenter's reason.
    assertThat(run.out()).contains("Disruption decisions (each node the disruption controller considered")
        .contains(proposed.group(2) + "  chosen by " + proposed.group(1))
        .contains("executed " + proposed.group(1))
        .containsPattern("  left: Can't replace with a cheaper node");
    // Without --explain the decisions are not printed, and the events table never lists them.
    CliRun plain = CliRun.wide("simulate", scenario, "--out", out.resolve("plain").toString());
    assertThat(plain.out()).doesNotContain("Disruption decisions").doesNotContain("DisruptionConsidered");
    // Nor are they worked out (a simulation per node at each decision): the record has them only with
    // --explain, and is otherwise the same, entry for entry.
    List<String> explained = Files.readAllLines(out.resolve("explained/events.jsonl"));
    List<String> considered = explained.stream().filter(l -> l.contains("\"kind\":\"DisruptionConsidered\"")).toList();
    assertThat(considered).anyMatch(l -> l.contains("chosen by " + proposed.group(1)));
    List<String> rest = new java.util.ArrayList<>(explained);
    rest.removeAll(considered);
    assertThat(Files.readAllLines(out.resolve("plain/events.jsonl"))).isEqualTo(rest);
  }

  @Test
  void theSpotScenarioShowsTheDrainInItsResults(@TempDir Path out) throws IOException {
    CliRun run = CliRun.wide("simulate", EXAMPLES.resolve("scenarios/inference-spot.yaml").toString(), "--out",
        out.toString(), "-q");
    assertThat(run.out()).contains("disruptions     Interrupted 1; evictions Interrupted 1")
        .containsPattern("Deployment/default/chat: all wanted Ready \\+\\d\\d:\\d\\d:\\d\\d, then at least 1; 0s with none Ready"
            + " after the first; no traffic modelled;");
    String json = Files.readString(out.resolve("result.json"));
    assertThat(json).contains("\"Interrupted\" : 1").contains("\"passed\" : true").doesNotContain("\"passed\" : false");
    assertThat(Files.readString(out.resolve("timeseries.csv"))).startsWith("series,seconds,value\n")
        .contains("nodes{kind=g6.xlarge spot}");
  }

  /** The policy what-if of consolidation-when-empty: the comparison names the failed expectation and the outage. */
  @Test
  void theComparisonNamesTheExpectationThatChangedAndEachServicesOutage(@TempDir Path dir) throws IOException {
    Path s = dir.resolve("underutilized.yaml");
    Files.writeString(s, Files.readString(EXAMPLES.resolve("scenarios/consolidation-when-empty.yaml"))
        .replace("file: clusters/consolidation-cluster.yaml", "file: "
            + EXAMPLES.resolve("scenarios/clusters/consolidation-cluster.yaml").toAbsolutePath())
        .replace("name: consolidation-when-empty", "name: underutilized")
        .replace("consolidationPolicy: WhenEmpty\n", "consolidationPolicy: WhenEmptyOrUnderutilized\n"));
    CliRun run = CliRun.wide("simulate", EXAMPLES.resolve("scenarios/consolidation-when-empty.yaml").toString(),
        "--compare", s.toString(), "--out", dir.resolve("out").toString(), "-q");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out())
        .containsPattern("\n  disruptions +Empty 1 +Empty 1, Underutilized 1\n")
        .containsPattern("\n  evictions +none +Underutilized 1\n")
        .containsPattern("\n  Deployment/default/llm +0s with none Ready +30s with none Ready\n")
        .containsPattern("\n  expectation \"the half-used g5.12xlarge is still there\" +passed +FAILED \\(seen: 0 nodes\\)\n")
        // Only what changed is named: the other expectations held in both runs.
        .doesNotContain("expectation \"the replica never moved\"");
  }

  @Test
  void aWrongExpectationExitsOneAndSaysWhichWhenAndWhatWasSeen(@TempDir Path dir) throws IOException {
    Path s = dir.resolve("wrong.yaml");
    Files.writeString(s, Files.readString(EXAMPLES.resolve("scenarios/consolidation-when-empty.yaml"))
        .replace("file: clusters/consolidation-cluster.yaml", "file: " + EXAMPLES.resolve("scenarios/clusters/consolidation-cluster.yaml")
            .toAbsolutePath())
        .replace("instance-type: g5.12xlarge}}, equals: 1}", "instance-type: g5.12xlarge}}, equals: 0}"));
    CliRun run = CliRun.wide("simulate", s.toString(), "--out", dir.resolve("out").toString(), "-q");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).contains("expectations    2 of 3 passed")
        .containsPattern("FAILED at \\+01:00:00 \\(step \\d+ of the timeline\\): the half-used g5.12xlarge is still "
            + "there; seen: 1 nodes");
  }

  @Test
  void theNodeOverlayExampleBuysOneSmallNodeAndSaysSo_KarpentersDefaultBuysAFourGpuOne(@TempDir Path dir)
      throws IOException {
    Path example = EXAMPLES.resolve("scenarios/time-sliced-node-overlay.yaml");
    CliRun on = CliRun.wide("simulate", example.toString(), "--out", dir.resolve("on").toString());
    assertThat(on.exitCode()).as(on.err()).isZero();
    assertThat(on.out()).contains("g6.xlarge on-demand")
        .contains("NodeOverlayApplied: sliced-1-gpu-types changed g6.xlarge for NodePool sliced")
        .contains("sizing          1 launch(es) shaped by NodeOverlays");
    // The same scenario under Karpenter's default feature gates: the overlay is read and ignored.
    Path off = dir.resolve("off.yaml");
    Files.writeString(off, Files.readString(example).replace("NodeOverlay: true", "NodeOverlay: false"));
    CliRun plain = CliRun.wide("simulate", off.toString(), "--out", dir.resolve("off").toString());
    assertThat(plain.out()).contains("g6.12xlarge on-demand").contains("NodeOverlay ignored")
        .doesNotContain("sizing          ");
    assertThat(cost(plain.out())).isGreaterThan(5 * cost(on.out()));
  }

  /** The run's total cost from its summary line. */
  static double cost(String out) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("cost +\\$([0-9.]+)").matcher(out);
    assertThat(m.find()).as(out).isTrue();
    return Double.parseDouble(m.group(1));
  }

  @Test
  void aBrokenScenarioExitsTwoWithFileLineAndColumn(@TempDir Path dir) throws IOException {
    Path s = dir.resolve("bad.yaml");
    Files.writeString(s, "apiVersion: gpufleet.io/v1alpha1\nkind: Scenario\nmetadata: {name: x}\nspec:\n"
        + "  steps:\n  - title: t\n    actions:\n    - wait: soon\n");
    CliRun run = CliRun.wide("simulate", s.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains(s + ":8:13: spec.steps[0].actions[0].wait: expected a duration such as 30s, 3m "
        + "or 1h30m, found \"soon\"").doesNotContain("Exception");
  }

  @Test
  void aStaticNodesStatedGpusRunAFinishedJobThatIsNotReportedAsAnOutage(@TempDir Path dir) throws IOException {
    Path s = Files.writeString(dir.resolve("job.yaml"), """
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: job}
        spec:
          seed: 1
          cluster:
          - apiVersion: v1
            kind: Node
            metadata:
              name: static-a10g
              annotations: {gpufleet.io/gpus: "NVIDIA-A10G:1"}
            status:
              capacity: {cpu: "8", memory: 32Gi, pods: "110"}
          - apiVersion: batch/v1
            kind: Job
            metadata: {name: train}
            spec:
              template:
                metadata: {annotations: {gpufleet.io/run-for: 5m}}
                spec:
                  restartPolicy: Never
                  containers:
                  - {name: t, image: i, resources: {limits: {nvidia.com/gpu: 1}}}
          steps:
          - id: "1"
            title: run
            actions:
            - wait: 30m
        """);
    Path out = dir.resolve("out");
    CliRun run = CliRun.wide("simulate", s.toString(), "--out", out.toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    // The annotation gives the node its card in simulate as in node describe and smi.
    assertThat(run.out()).contains("node added with 1 x NVIDIA A10G (from annotation gpufleet.io/gpus)")
        .contains("bound to static-a10g").contains("PodSucceeded").doesNotContain("service         Job/");
    String result = Files.readString(out.resolve("result.json"));
    assertThat(result).contains("\"workload\" : \"Job/default/train\"").contains("\"service\" : false")
        .contains("\"outageSeconds\" : null");
  }

  @Test
  void aDumpsFinishedJobCountsItsSucceededPodsAndRunsNothingMore(@TempDir Path out) {
    CliRun run = CliRun.wide("simulate", "-f", "src/test/resources/snapshot/finished-job.yaml", "--for", "1m",
        "--out", out.toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).containsPattern("Job/ml/nightly +Job complete \\(1 succeeded\\), deleted")
        .doesNotContain("by Job/ml/nightly");
  }
  /** kubectl --validate=strict: with --strict, simulate refuses the misspelt field it otherwise only warns about. */
  @Test
  void strictMakesAnUnknownFieldInTheManifestsAnError(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("typo.yaml");
    Files.writeString(f, """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          nodeSelecter: {gpu: a100}
          containers: [{name: c, image: busybox}]
        """);
    CliRun lenient = CliRun.wide("simulate", "-f", f.toString(), "--for", "10s", "--out", dir.resolve("a").toString());
    assertThat(lenient.exitCode()).as(lenient.err()).isZero();
    assertThat(lenient.err()).contains(f + ":5:3: warning: spec.nodeSelecter: unknown field \"nodeSelecter\" in Pod default/p");
    CliRun strict = CliRun.wide("simulate", "-f", f.toString(), "--strict", "--for", "10s", "--out",
        dir.resolve("b").toString());
    assertThat(strict.exitCode()).isEqualTo(2);
    assertThat(strict.err()).contains(f + ":5:3: spec.nodeSelecter: unknown field \"nodeSelecter\" in Pod default/p");
    assertThat(dir.resolve("b")).doesNotExist();
  }
  /**
   * A dump's NodeClaim binds to its Node by status.nodeName: the node, though its own labels name no
   * NodePool, resumes as that claim of that NodePool; a claim with no Node is said, not dropped silently.
   */
  @Test
  void aDumpsNodeClaimBindsToItsNode(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("claims.yaml");
    Files.writeString(f, """
        apiVersion: karpenter.k8s.aws/v1
        kind: EC2NodeClass
        metadata: {name: default}
        spec: {amiSelectorTerms: [{alias: al2023@latest}]}
        ---
        apiVersion: karpenter.sh/v1
        kind: NodePool
        metadata: {name: gpu}
        spec:
          template:
            spec:
              nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
              requirements: [{key: node.kubernetes.io/instance-type, operator: In, values: [g5.xlarge]}]
        ---
        apiVersion: karpenter.sh/v1
        kind: NodeClaim
        metadata:
          name: gpu-x7k2p
          labels: {karpenter.sh/nodepool: gpu, karpenter.sh/capacity-type: on-demand}
        spec:
          nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
          requirements: [{key: node.kubernetes.io/instance-type, operator: In, values: [g5.xlarge]}]
        status: {nodeName: ip-10-0-9-9.ec2.internal, providerID: "aws:///us-east-1a/i-0abc"}
        ---
        apiVersion: karpenter.sh/v1
        kind: NodeClaim
        metadata: {name: gpu-launching, labels: {karpenter.sh/nodepool: gpu}}
        spec:
          nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
          requirements: [{key: node.kubernetes.io/instance-type, operator: In, values: [g5.xlarge]}]
        ---
        apiVersion: v1
        kind: Node
        metadata: {name: ip-10-0-9-9.ec2.internal}
        spec: {providerID: "aws:///us-east-1a/i-0abc"}
        """);
    CliRun run = CliRun.wide("simulate", "-f", f.toString(), "--for", "1m", "--out", dir.resolve("out").toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).containsPattern(
        "ip-10-0-9-9.ec2.internal\\s+node adopted as NodeClaim gpu-x7k2p of NodePool gpu \\(g5.xlarge\\)")
        .doesNotContain("NodeclaimLaunched");
    assertThat(run.err()).contains(f + ":25:1: warning: status.nodeName: NodeClaim \"gpu-launching\" has no Node in the "
        + "input (it has not registered one yet)").doesNotContain("gpu-x7k2p");
  }
  /** A scenario's file: takes what -f takes: several files, a directory, its subdirectories with recursive. */
  @Test
  void aScenarioFileEntryNamesSeveralFilesAndDirectoriesAsDashFDoes(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("node.yaml"), """
        apiVersion: v1
        kind: Node
        metadata: {name: cpu-1}
        status: {capacity: {cpu: "8", memory: 32Gi, pods: "110"}}
        """);
    Files.createDirectories(dir.resolve("pods/more"));
    for (String p : List.of("pods/a.yaml", "pods/b.yml", "pods/more/c.yaml")) {
      String name = p.substring(p.lastIndexOf('/') + 1, p.indexOf('.'));
      Files.writeString(dir.resolve(p), "apiVersion: v1\nkind: Pod\nmetadata: {name: pod-" + name + "}\n"
          + "spec: {containers: [{name: c, image: busybox, resources: {requests: {cpu: \"1\"}}}]}\n");
    }
    Files.writeString(dir.resolve("pods/notes.txt"), "not a manifest");
    Files.createDirectories(dir.resolve("empty"));
    String scenario = """
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: includes}
        spec:
          cluster:
          - file: [node.yaml, pods]
          steps:
          - {title: settle, actions: [{wait: 10s}]}
        """;
    Path flat = dir.resolve("flat.yaml");
    Files.writeString(flat, scenario);
    CliRun run = CliRun.wide("simulate", flat.toString(), "--out", dir.resolve("out1").toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("default/pod-a").contains("default/pod-b").doesNotContain("pod-c")
        .doesNotContain("notes");
    Path deep = dir.resolve("deep.yaml");
    Files.writeString(deep, scenario.replace("- file: [node.yaml, pods]", "- {file: [node.yaml, pods], recursive: true}"));
    run = CliRun.wide("simulate", deep.toString(), "--out", dir.resolve("out2").toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("default/pod-a").contains("default/pod-b").contains("default/pod-c");
    Path none = dir.resolve("none.yaml");
    Files.writeString(none, scenario.replace("[node.yaml, pods]", "[node.yaml, empty]"));
    run = CliRun.wide("simulate", none.toString(), "--out", dir.resolve("out3").toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains(none + ":6:23: ").contains("holds no .json, .yaml or .yml file");
  }
}
