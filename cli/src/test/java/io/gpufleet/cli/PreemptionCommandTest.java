package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Training vs inference priority classes through the command line: {@code schedule} names the victim
 * and the nomination, {@code simulate} (a scenario file, or the same manifests with {@code -f}) shows
 * the eviction, the victim's grace period and then the bind, with priorities resolved from the
 * PriorityClass manifests as the API server's Priority admission does.
 */
class PreemptionCommandTest {

  private static final Path EXAMPLES = Path.of("..", "examples");

  /** One line of events.jsonl, in record order. */
  private record Event(Instant time, String kind, String subject, String message) {}

  private static final Pattern LINE = Pattern.compile(
      "\"time\":\"([^\"]+)\".*\"kind\":\"([^\"]+)\",\"subject\":\"([^\"]*)\",\"message\":\"([^\"]*)\"");

  private static List<Event> events(Path out) throws IOException {
    return Files.readAllLines(out.resolve("events.jsonl")).stream().map(l -> {
      Matcher m = LINE.matcher(l);
      assertThat(m.find()).as(l).isTrue();
      return new Event(Instant.parse(m.group(1)), m.group(2), m.group(3), m.group(4));
    }).toList();
  }

  private static int index(List<Event> events, String kind, String subject) {
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i).kind().equals(kind) && events.get(i).subject().equals(subject)) {
        return i;
      }
    }
    throw new AssertionError("no " + kind + " of " + subject + " in " + events);
  }

  @Test
  void theScenarioEvictsTheTrainerWithItsGracePeriodThenBindsTheInferencePodThere(@TempDir Path out)
      throws IOException {
    Path scenario = EXAMPLES.resolve("scenarios/preemption.yaml");
    CliRun run = CliRun.wide("simulate", scenario.toString(), "--out", out.toString());
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    assertThat(run.out()).contains("nominated node gpu-node-1, preempting default/train")
        .contains("Preempted by pod default/inference on node gpu-node-1");
    List<Event> e = events(out);
    int ready = index(e, "PodReady", "default/train");
    int nominated = index(e, "PodNominated", "default/inference");
    int preempted = index(e, "PodPreempted", "default/train");
    int exited = index(e, "PodExited", "default/train");
    int bound = index(e, "PodScheduled", "default/inference");
    assertThat(List.of(ready, nominated, preempted, exited, bound)).isSorted();
    assertThat(e.get(bound).message()).startsWith("bound to gpu-node-1 ");
    // The trainer was running, so it takes the whole terminationGracePeriodSeconds the scenario gives it.
    long grace = Long.parseLong(Files.readAllLines(scenario).stream()
        .filter(l -> l.contains("terminationGracePeriodSeconds:")).findFirst().orElseThrow()
        .replaceAll(".*terminationGracePeriodSeconds: (\\d+).*", "$1"));
    assertThat(Duration.between(e.get(preempted).time(), e.get(exited).time())).isEqualTo(Duration.ofSeconds(grace));
    assertThat(e.get(bound).time()).isEqualTo(e.get(exited).time());
  }

  @Test
  void theSchedulingExampleRunThroughSimulateShowsTheEvictionAndTheBind(@TempDir Path out) throws IOException {
    CliRun run = CliRun.wide("simulate", "-f", EXAMPLES.resolve("scheduling/preemption.yaml").toString(), "--out",
        out.toString());
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    List<Event> e = events(out);
    assertThat(e.get(index(e, "PodPreempted", "default/train")).message())
        .isEqualTo("Preempted by pod default/inference on node gpu-node-1");
    int bound = index(e, "PodScheduled", "default/inference");
    assertThat(bound).isGreaterThan(index(e, "PodExited", "default/train"));
    assertThat(e.get(bound).message()).startsWith("bound to gpu-node-1 ");
    assertThat(e).noneMatch(x -> x.kind().equals("PodScheduled") && x.subject().equals("default/train")
        && e.indexOf(x) > bound);
  }

  @Test
  void aVictimRunningInTheDumpKeepsItsGracePeriodWhenPreemptedAtTheStart(@TempDir Path out) throws IOException {
    // The scheduling example as a cluster dump has it: the trainer already Running on its node.
    long grace = 45;
    String example = Files.readString(EXAMPLES.resolve("scheduling/preemption.yaml"));
    String trainer = "  name: train\nspec:\n";
    assertThat(example).contains(trainer).contains("---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: inference");
    String dump = example.replace(trainer, trainer + "  terminationGracePeriodSeconds: " + grace + "\n")
        .replace("---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: inference",
            "status:\n  phase: Running\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: inference");
    Path running = Files.writeString(out.resolve("running.yaml"), dump);
    CliRun run = CliRun.wide("simulate", "-f", running.toString(), "--out", out.resolve("run").toString());
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    List<Event> e = events(out.resolve("run"));
    Instant start = e.get(0).time();
    int started = index(e, "PodStarted", "default/train");
    int preempted = index(e, "PodPreempted", "default/train");
    int exited = index(e, "PodExited", "default/train");
    int bound = index(e, "PodScheduled", "default/inference");
    assertThat(List.of(started, preempted, exited, bound)).isSorted();
    assertThat(e.get(started).time()).isEqualTo(start);
    assertThat(e.get(preempted).time()).isEqualTo(start);
    assertThat(Duration.between(e.get(preempted).time(), e.get(exited).time())).isEqualTo(Duration.ofSeconds(grace));
    assertThat(e.get(bound).time()).isEqualTo(e.get(exited).time());
    assertThat(e.get(bound).message()).startsWith("bound to gpu-node-1 ");

    // Without the status the trainer is a request: preempted before its containers start, it exits at once.
    Path request = Files.writeString(out.resolve("request.yaml"), dump.replace("status:\n  phase: Running\n", ""));
    CliRun fresh = CliRun.wide("simulate", "-f", request.toString(), "--out", out.resolve("fresh").toString());
    assertThat(fresh.exitCode()).as(fresh.out() + fresh.err()).isZero();
    List<Event> f = events(out.resolve("fresh"));
    assertThat(f.get(index(f, "PodExited", "default/train")).time())
        .isEqualTo(f.get(index(f, "PodPreempted", "default/train")).time());
  }

  /**
   * Two one-GPU nodes: the trainer (priority 100) on gpu-node-1 covered by a PDB that allows no
   * disruption (minAvailable 1 over its one running pod), a batch pod (priority 1000) on gpu-node-2.
   * Without the PDB the trainer, of the lower priority, is the victim; with it DefaultPreemption
   * prefers the node whose victim violates no budget (pickOneNodeForPreemption's first criterion).
   */
  @Test
  void bothCommandsPreemptWhereNoPdbIsViolated(@TempDir Path out) throws IOException {
    String example = Files.readString(EXAMPLES.resolve("scheduling/preemption.yaml"));
    String trainer = "  name: train\nspec:\n";
    String node2 = example.substring(example.indexOf("apiVersion: v1\nkind: Node"), example.indexOf("---\napiVersion: v1\nkind: Pod"))
        .replace("gpu-node-1", "gpu-node-2");
    String batch = """
        ---
        apiVersion: scheduling.k8s.io/v1
        kind: PriorityClass
        metadata: {name: batch}
        value: 1000
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: batch}
        spec:
          nodeName: gpu-node-2
          priorityClassName: batch
          tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
          containers:
          - name: c
            image: busybox
            resources: {requests: {cpu: "2", memory: 8Gi}, limits: {nvidia.com/gpu: 1}}
        """;
    String pdb = """
        ---
        apiVersion: policy/v1
        kind: PodDisruptionBudget
        metadata: {name: train}
        spec:
          minAvailable: 1
          selector: {matchLabels: {app: train}}
        """;
    assertThat(example).contains(trainer);
    String base = example.replace(trainer, "  name: train\n  labels: {app: train}\nspec:\n") + "---\n" + node2 + batch;
    Path without = Files.writeString(out.resolve("without.yaml"), base);
    Path with = Files.writeString(out.resolve("with.yaml"), base + pdb);

    CliRun plain = CliRun.wide("schedule", "-f", without.toString());
    assertThat(plain.exitCode()).as(plain.out() + plain.err()).isZero();
    assertThat(plain.out()).contains("Preempted by pod default/inference on node gpu-node-1")
        .doesNotContain("on node gpu-node-2");
    CliRun guarded = CliRun.wide("schedule", "-f", with.toString());
    assertThat(guarded.exitCode()).as(guarded.out() + guarded.err()).isZero();
    assertThat(guarded.out()).contains("Preempted by pod default/inference on node gpu-node-2")
        .doesNotContain("on node gpu-node-1");

    CliRun simulate = CliRun.wide("simulate", "-f", with.toString(), "--out", out.resolve("run").toString());
    assertThat(simulate.exitCode()).as(simulate.out() + simulate.err()).isZero();
    List<Event> e = events(out.resolve("run"));
    assertThat(e.get(index(e, "PodPreempted", "default/batch")).message())
        .isEqualTo("Preempted by pod default/inference on node gpu-node-2");
    assertThat(e).noneMatch(x -> x.kind().equals("PodPreempted") && x.subject().equals("default/train"));
  }

  @Test
  void atEqualPrioritiesNeitherCommandPreempts(@TempDir Path out) throws IOException {
    // The same manifests with both pods at priority 0: nothing to preempt, the inference pod waits.
    String text = Files.readString(EXAMPLES.resolve("scheduling/preemption.yaml"))
        .replace("priorityClassName: inference", "priorityClassName: training");
    Path f = Files.writeString(out.resolve("equal.yaml"), text);
    CliRun schedule = CliRun.wide("schedule", "-f", f.toString());
    assertThat(schedule.exitCode()).isZero();
    assertThat(schedule.out()).doesNotContain("Preempted").contains("inference   0/1     Pending");
    CliRun simulate = CliRun.wide("simulate", "-f", f.toString(), "--out", out.resolve("run").toString());
    assertThat(simulate.exitCode()).isZero();
    assertThat(events(out.resolve("run"))).noneMatch(x -> x.kind().equals("PodPreempted"));
  }

  @Test
  void aClassWithPreemptionPolicyNeverStopsPreemptionInBothCommands(@TempDir Path out) throws IOException {
    String text = Files.readString(EXAMPLES.resolve("scheduling/preemption.yaml"))
        .replace("name: inference\nvalue: 100000\n", "name: inference\nvalue: 100000\npreemptionPolicy: Never\n");
    assertThat(text).contains("preemptionPolicy: Never");
    Path f = Files.writeString(out.resolve("never.yaml"), text);
    CliRun schedule = CliRun.wide("schedule", "-f", f.toString());
    assertThat(schedule.out()).contains("preemption: not eligible due to preemptionPolicy=Never.")
        .doesNotContain("Preempted by");
    CliRun simulate = CliRun.wide("simulate", "-f", f.toString(), "--out", out.resolve("run").toString());
    assertThat(simulate.exitCode()).isZero();
    assertThat(events(out.resolve("run"))).noneMatch(x -> x.kind().equals("PodPreempted"));
  }

  @Test
  void aScenarioPodNamingAMissingClassIsRefusedAsScheduleRefusesIt(@TempDir Path dir) throws IOException {
    String pod = """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          priorityClassName: gold
          containers: [{name: c, image: busybox}]
        """;
    Path manifest = Files.writeString(dir.resolve("pod.yaml"), pod);
    CliRun schedule = CliRun.wide("schedule", "-f", manifest.toString());
    Path scenario = Files.writeString(dir.resolve("s.yaml"), """
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: s}
        spec:
          cluster:
          - {file: pod.yaml}
          steps:
          - title: t
            actions: [{wait: 1m}]
        """);
    CliRun simulate = CliRun.wide("simulate", scenario.toString(), "--out", dir.resolve("out").toString());
    String words = "spec.priorityClassName: no PriorityClass with name gold was found";
    assertThat(schedule.exitCode()).isEqualTo(2);
    assertThat(schedule.err()).contains(manifest + ":1:1: " + words);
    assertThat(simulate.exitCode()).isEqualTo(2);
    assertThat(simulate.err()).contains(manifest + ":1:1: " + words).doesNotContain("Exception");
  }

  @Test
  void aClassAppliedInAnEarlierStepCountsForAPodAppliedLater(@TempDir Path dir) throws IOException {
    Path scenario = Files.writeString(dir.resolve("s.yaml"), """
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: s}
        spec:
          steps:
          - title: the class
            actions:
            - apply: {apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: gold}, value: 7}
          - title: the pod
            actions:
            - apply:
                apiVersion: v1
                kind: Pod
                metadata: {name: p}
                spec: {priorityClassName: gold, containers: [{name: c, image: busybox}]}
            - wait: 1m
        """);
    CliRun run = CliRun.wide("simulate", scenario.toString(), "--out", dir.resolve("out").toString(), "-q");
    assertThat(run.exitCode()).as(run.err()).isZero();
    // Before the class exists, the same pod is refused.
    String swapped = Files.readString(scenario).replace("title: the class", "title: first")
        .replace("    - apply: {apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: gold}, value: 7}\n",
            "    - wait: 1s\n");
    Path without = Files.writeString(dir.resolve("without.yaml"), swapped);
    CliRun refused = CliRun.wide("simulate", without.toString(), "--out", dir.resolve("out2").toString(), "-q");
    assertThat(refused.exitCode()).isEqualTo(2);
    assertThat(refused.err()).contains("no PriorityClass with name gold was found");
  }
}
