package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.lint.rules.Rules;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code gpufleet lint}: exit codes, rule selection, formats, and bad input as one line. */
class LintCommandTest {

  private static String example(String rule, String kind) {
    return Path.of("..", "examples", "lint", rule, kind + ".yaml").toString();
  }

  @Test
  void warningsPassByDefaultAndFailWithFailOnWarning() {
    String file = example("service-without-pdb", "trigger");
    CliRun plain = CliRun.of("lint", "-f", file);
    assertThat(plain.exitCode()).isZero();
    assertThat(plain.out()).contains(file + ":5:9: warning: Deployment/default/embeddings: metadata.name:")
        .contains("[service-without-pdb]");
    assertThat(CliRun.of("lint", "-f", file, "--fail-on", "warning").exitCode()).isEqualTo(1);
    assertThat(CliRun.of("lint", "-f", file, "--fail-on", "info").exitCode()).isEqualTo(1);
  }

  @Test
  void errorsFailByDefault() {
    CliRun run = CliRun.of("lint", "-f", example("gpu-whole-units", "trigger"));
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).contains("[gpu-whole-units]");
  }

  @Test
  void aDisabledRuleIsNotRun() {
    CliRun run = CliRun.of("lint", "-f", example("gpu-whole-units", "trigger"), "--disable", "gpu-whole-units",
        "--disable", "manifest-rejected");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).startsWith("no findings (" + (Rules.all().size() - 2) + " rules)");
  }

  @Test
  void aCleanExampleHasNoFindings() {
    CliRun run = CliRun.of("lint", "-f", example("gpu-whole-units", "clean"), "--fail-on", "info");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).isEqualTo("no findings (" + Rules.all().size() + " rules)\n");
  }

  @Test
  void listRulesNamesEveryRegisteredRule() {
    CliRun run = CliRun.of("lint", "--list-rules");
    assertThat(run.exitCode()).isZero();
    Rules.all().forEach(r -> assertThat(run.out()).containsPattern("(?m)^" + r.id() + " +" + r.severity().wire()
        + " +on +" + java.util.regex.Pattern.quote(r.summary()) + "$"));
  }

  @Test
  void badInputIsOneLineAndExitTwo() {
    CliRun unknownRule = CliRun.of("lint", "-f", example("gpu-whole-units", "clean"), "--disable", "nope");
    assertThat(unknownRule.exitCode()).isEqualTo(2);
    assertThat(unknownRule.err()).startsWith("gpufleet lint: unknown rule \"nope\" (rules: gpu-request-equals-limit,");
    assertThat(CliRun.of("lint", "-f", example("gpu-whole-units", "clean"), "-o", "xml").err())
        .contains("--output: expected text, json or sarif, found \"xml\"");
    assertThat(CliRun.of("lint", "-f", example("gpu-whole-units", "clean"), "--fail-on", "fatal").exitCode())
        .isEqualTo(2);
    CliRun missing = CliRun.of("lint", "-f", "no/such/file.yaml");
    assertThat(missing.exitCode()).isEqualTo(2);
    assertThat(missing.err()).contains("no/such/file.yaml: no such file").doesNotContain("Exception");
    assertThat(CliRun.of("lint").exitCode()).isEqualTo(2);
  }

  @Test
  void aDirectoryIsReadAsKubectlReadsIt() {
    String dir = Path.of("..", "examples", "lint", "gpu-whole-units").toString();
    CliRun run = CliRun.of("lint", "-f", dir);
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).contains(example("gpu-whole-units", "trigger") + ":12:25: error: Pod/default/half-a-gpu:")
        .contains("1 finding:");
  }

  @Test
  void strictTurnsAnUnknownFieldIntoARejection(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
    Path file = tmp.resolve("typo.yaml");
    java.nio.file.Files.writeString(file, """
        apiVersion: v1
        kind: Pod
        metadata:
          name: p
        spec:
          containers:
          - name: c
            resources:
              limits:
                nvidia.com/gpu: 1
              requsts:
                cpu: 1
        """);
    CliRun lenient = CliRun.of("lint", "-f", file.toString());
    assertThat(lenient.exitCode()).isZero();
    assertThat(lenient.err()).contains(file + ":11:7: warning: spec.containers[0].resources.requsts: unknown field");
    CliRun strict = CliRun.of("lint", "-f", file.toString(), "--strict");
    assertThat(strict.exitCode()).isEqualTo(1);
    assertThat(strict.out()).contains(file + ":11:7: error: Pod/default/p: spec.containers[0].resources.requsts: "
        + "unknown field \"requsts\" in Pod default/p [manifest-rejected]");
  }

  @Test
  void sarifAndJsonAreSelectedByOutput() {
    String file = example("mig-config-without-mig", "trigger");
    assertThat(CliRun.of("lint", "-f", file, "-o", "sarif").out()).contains("\"version\" : \"2.1.0\"")
        .contains("\"ruleId\" : \"mig-config-without-mig\"");
    assertThat(CliRun.of("lint", "-f", file, "-o", "json").out()).contains("\"rule\" : \"mig-config-without-mig\"");
  }

  // ---- scenarios ----

  private static final String GPU_SERVICE = """
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: %s
      spec:
        replicas: 2
        selector: {matchLabels: {app: %s}}
        template:
          metadata: {labels: {app: %s}}
          spec:
            containers:
            - name: c
              image: i
              resources: {limits: {nvidia.com/gpu: 1}}
      """;

  private static String service(String name) {
    return GPU_SERVICE.formatted(name, name, name);
  }

  /**
   * A scenario whose cluster holds an object written in place, a file and a directory, and whose
   * step applies another file: every one of them is linted where it is written.
   */
  private static Path scenario(Path dir) throws java.io.IOException {
    java.nio.file.Files.createDirectories(dir.resolve("more"));
    java.nio.file.Files.writeString(dir.resolve("base.yaml"), service("from-file"));
    java.nio.file.Files.writeString(dir.resolve("more/extra.yaml"), service("from-dir"));
    java.nio.file.Files.writeString(dir.resolve("later.yaml"), "# applied by a step\n" + service("later"));
    Path scenario = dir.resolve("scenario.yaml");
    java.nio.file.Files.writeString(scenario, """
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata:
          name: t
        spec:
          cluster:
          - file: base.yaml
          - {file: more}
          - apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: in-place
            spec:
              replicas: 2
              selector: {matchLabels: {app: in-place}}
              template:
                metadata: {labels: {app: in-place}}
                spec:
                  containers:
                  - {name: c, image: i, resources: {limits: {nvidia.com/gpu: 1}}}
          steps:
          - id: "1"
            title: later
            actions:
            - apply: {file: later.yaml}
        """);
    return scenario;
  }

  @Test
  void aScenarioIsLintedThroughTheManifestsItNames(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    Path scenario = scenario(dir);
    CliRun run = CliRun.of("lint", "-f", scenario.toString(), "--enable", "service-without-pdb");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains(dir.resolve("base.yaml") + ":4:9: warning: Deployment/default/from-file: metadata.name: "
            + "no PodDisruptionBudget in namespace default selects its pods app=from-file (in spec.cluster of "
            + scenario + ")")
        .contains(dir.resolve("more/extra.yaml") + ":4:9: warning: Deployment/default/from-dir:")
        .contains(scenario + ":12:13: warning: Deployment/default/in-place:")
        .contains(dir.resolve("later.yaml") + ":5:9: warning: Deployment/default/later: metadata.name: "
            + "no PodDisruptionBudget in namespace default selects its pods app=later (applied by step 1 of "
            + scenario + ")")
        .contains("4 findings:");
  }

  @Test
  void aFileGivenAndNamedByAScenarioIsLintedOnce(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    Path scenario = scenario(dir);
    CliRun both = CliRun.of("lint", "-f", dir.toString(), "-R", "-f", dir.resolve("./later.yaml").toString());
    assertThat(both.exitCode()).as(both.err()).isZero();
    assertThat(both.out()).contains("4 findings:");
    assertThat(both.out().lines().filter(l -> l.contains("Deployment/default/later:")).toList()).singleElement()
        .satisfies(l -> assertThat(l).contains("(applied by step 1 of " + scenario + ")"));
  }

  @Test
  void theLabIsLintedWhetherItsFolderOrItsScenarioIsGiven() {
    String lab = Path.of("..", "examples", "lab").toString();
    CliRun folder = CliRun.of("lint", "-f", lab);
    CliRun scenario = CliRun.of("lint", "-f", Path.of(lab, "lab.yaml").toString());
    assertThat(scenario.out()).isEqualTo(folder.out()).doesNotContain("no findings")
        .contains(Path.of(lab, "sliced.yaml") + ":6:9: warning: Deployment/default/vllm-sliced:");
  }

  @Test
  void aFileAScenarioNamesThatIsMissingIsAnErrorAtTheScenario(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    Path scenario = dir.resolve("scenario.yaml");
    java.nio.file.Files.writeString(scenario, """
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: t}
        spec:
          cluster:
          - file: nowhere.yaml
        """);
    CliRun run = CliRun.of("lint", "-f", scenario.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains(scenario + ":6:11: file: no such file: " + dir.resolve("nowhere.yaml"))
        .doesNotContain("Exception");
  }
}
