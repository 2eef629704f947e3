package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.k8s.MockCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code gpufleet when}: its answer is the run's own (checked against {@code simulate} of the same
 * cluster and job), a job that cannot run says why in the scheduler's and Karpenter's words, a live
 * cluster is answered as its imported snapshot is, and bad input is refused in one line.
 */
class WhenCommandTest {

  static final String CLUSTER = "../examples/lab/cluster.yaml";
  static final String TRAIN = "../examples/when/train.yaml";
  static final String NEVER = "../examples/when/never.yaml";
  static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path dir;

  @Test
  void theJobRunsWhenSimulateOfTheSameClusterStartsItsPodsAndIsDoneAnHourLater() throws IOException {
    CliRun when = CliRun.of("when", TRAIN, "-f", CLUSTER, "--seeds", "1..2", "-o", "json");
    assertThat(when.exitCode()).as(when.err()).isZero();
    JsonNode answer = JSON.readTree(when.out());
    JsonNode seed1 = answer.get("runs").get(0);
    assertThat(seed1.get("seed").asLong()).isEqualTo(1);
    CliRun sim = CliRun.of("simulate", "-f", CLUSTER, "-f", TRAIN, "--for", "24h", "--seeds", "1", "-q",
        "--out", dir.toString());
    assertThat(sim.exitCode()).as(sim.err()).isZero();
    List<Long> started = new ArrayList<>();
    List<Long> done = new ArrayList<>();
    for (String line : Files.readAllLines(dir.resolve("seed-1").resolve("events.jsonl"))) {
      JsonNode e = JSON.readTree(line);
      if (e.get("subject").asString().startsWith("ml/finetune-")) {
        long at = java.time.Duration.between(java.time.Instant.parse("2026-01-05T00:00:00Z"),
            java.time.Instant.parse(e.get("time").asString())).getSeconds();
        switch (e.get("kind").asString()) {
          case "PodStarted" -> started.add(at);
          case "PodSucceeded" -> done.add(at);
          default -> { }
        }
      }
    }
    assertThat(started).hasSize(2);
    assertThat(seed1.get("runningSeconds").asLong()).isEqualTo(started.stream().mapToLong(Long::longValue).max().orElseThrow());
    assertThat(seed1.get("doneSeconds").asLong()).isEqualTo(done.stream().mapToLong(Long::longValue).max().orElseThrow());
    // gpufleet.io/run-for: 1h, the two pods side by side.
    assertThat(seed1.get("doneSeconds").asLong() - seed1.get("runningSeconds").asLong()).isEqualTo(3600);
    assertThat(seed1.get("nodes").properties()).extracting(java.util.Map.Entry::getKey)
        .contains("ip-10-0-1-17.ec2.internal");
    assertThat(seed1.get("nodes").get("ip-10-0-1-17.ec2.internal").isNull()).as("a node already there").isTrue();
    assertThat(seed1.get("nodes").toString()).contains("g5.xlarge on-demand");
    // Two A10Gs for a little over an hour each, at the g5.xlarge's $1.006 per GPU-hour.
    assertThat(seed1.get("gpuHours").asDouble()).isBetween(2.0, 2.2);
    assertThat(seed1.get("dollars").asDouble()).isCloseTo(seed1.get("gpuHours").asDouble() * 1.006,
        org.assertj.core.api.Assertions.within(0.001));
    assertThat(answer.get("runningSeconds").get("p50").asLong()).isPositive();
  }

  static final String KUEUE = "../examples/when/kueue.yaml";

  /**
   * A Job that names a Kueue queue: within its ClusterQueue's quota it is admitted when submitted
   * (QuotaReserved and Admitted at once, as {@code pkg/scheduler/scheduler.go} records them) and runs
   * as it would unqueued; asking for more than the ClusterQueue can ever give, it is never admitted
   * and the answer gives Kueue's Pending message ({@code flavorassigner.go}: "insufficient quota for R
   * in flavor F, previously considered podsets requests (0) + current podset request (N) > maximum
   * capacity (M)").
   */
  @Test
  void aQueuedJobIsAdmittedAtOnceWithinQuotaAndNeverBeyondItWithKueuesMessage() throws IOException {
    CliRun queued = CliRun.of("when", "../examples/when/queued.yaml", "-f", CLUSTER, "-f", KUEUE, "--seeds", "1",
        "-o", "json");
    assertThat(queued.exitCode()).as(queued.err()).isZero();
    JsonNode answer = JSON.readTree(queued.out());
    assertThat(answer.get("admittedSeconds").get("p50").asLong()).isZero();
    JsonNode seed1 = answer.get("runs").get(0);
    assertThat(seed1.get("admittedSeconds").asLong()).isZero();
    assertThat(seed1.get("kueuePending").isNull()).isTrue();
    // Admitted, it runs as the unqueued job does on the same cluster.
    CliRun plain = CliRun.of("when", TRAIN, "-f", CLUSTER, "--seeds", "1", "-o", "json");
    assertThat(seed1.get("runningSeconds").asLong())
        .isEqualTo(JSON.readTree(plain.out()).get("runs").get(0).get("runningSeconds").asLong());

    CliRun never = CliRun.wide("when", "../examples/when/queued-too-big.yaml", "-f", CLUSTER, "-f", KUEUE,
        "--seeds", "1");
    assertThat(never.exitCode()).as(never.err()).isEqualTo(1);
    assertThat(never.out()).contains("admitted        p50 not within the horizon")
        .contains("pending         in seed 1, not admitted by +24:00:00; Kueue: couldn't assign flavors to pod set");
    CliRun neverJson = CliRun.of("when", "../examples/when/queued-too-big.yaml", "-f", CLUSTER, "-f", KUEUE,
        "--seeds", "1", "-o", "json");
    JsonNode run = JSON.readTree(neverJson.out()).get("runs").get(0);
    assertThat(run.get("admittedSeconds").isNull()).isTrue();
    assertThat(run.get("kueuePending").asString()).isEqualTo("couldn't assign flavors to pod set main: insufficient "
        + "quota for nvidia.com/gpu in flavor default-flavor, previously considered podsets requests (0) + current "
        + "podset request (4) > maximum capacity (2)");
  }

  @Test
  void aJobThatCannotRunExitsOneWithKarpentersReason() {
    CliRun when = CliRun.wide("when", NEVER, "-f", CLUSTER, "--seeds", "1");
    assertThat(when.exitCode()).as(when.err()).isEqualTo(1);
    assertThat(when.out()).contains("running         p50 not within the horizon")
        .contains("1 pod(s) never started by +24:00:00")
        .contains("Karpenter: FailedScheduling: Failed to schedule pod, incompatible with nodepool \"gpu\"")
        .contains("karpenter.k8s.aws/instance-gpu-name In [h100]");
  }

  @Test
  void aJobOnNodesNoNodeClaimOwnsSaysWhyItCostsNothing() {
    CliRun when = CliRun.wide("when", TRAIN, "-f", "../examples/snapshot/cluster-dump.yaml", "--seeds", "1");
    assertThat(when.exitCode()).as(when.err()).isZero();
    assertThat(when.out()).contains("$0.00").contains("on nodes with no price in the run");
  }

  @Test
  void aLiveClusterIsAnsweredAsItsImportedSnapshot() {
    try (MockCluster cluster = MockCluster.start().seed(MockCluster.LIVE_CLUSTER)) {
      Path kubeconfig = cluster.kubeconfig(dir);
      Path snapshot = dir.resolve("snapshot.yaml");
      CliRun imported = CliRun.of("import", "--kubeconfig", kubeconfig.toString(), "-o", snapshot.toString());
      assertThat(imported.exitCode()).as(imported.err()).isZero();
      CliRun live = CliRun.of("when", TRAIN, "--kubeconfig", kubeconfig.toString(), "--seeds", "1", "--within", "6h",
          "-o", "json");
      CliRun file = CliRun.of("when", TRAIN, "-f", snapshot.toString(), "--seeds", "1", "--within", "6h", "-o", "json");
      assertThat(live.exitCode()).as(live.err()).isEqualTo(file.exitCode());
      assertThat(JSON.readTree(live.out())).isEqualTo(JSON.readTree(file.out()));
      assertThat(JSON.readTree(live.out()).get("runs").get(0).get("pods").asInt()).isEqualTo(2);
    }
  }

  static final String RUNNING = "../examples/when/running.yaml";
  static final String NEXT = "../examples/when/next.yaml";

  /** Seconds from the run's start of the first {@code kind} event of a pod whose key starts with {@code prefix}. */
  private long firstEvent(Path out, String prefix, String kind) throws IOException {
    for (String line : Files.readAllLines(out.resolve("seed-1").resolve("events.jsonl"))) {
      JsonNode e = JSON.readTree(line);
      if (e.get("subject").asString().startsWith(prefix) && e.get("kind").asString().equals(kind)) {
        return java.time.Duration.between(java.time.Instant.parse("2026-01-05T00:00:00Z"),
            java.time.Instant.parse(e.get("time").asString())).getSeconds();
      }
    }
    throw new AssertionError("no " + kind + " of " + prefix + " in " + out);
  }

  private long runningSeconds(String cluster) throws IOException {
    CliRun when = CliRun.of("when", NEXT, "-f", cluster, "--seeds", "1", "-o", "json");
    assertThat(when.exitCode()).as(when.err()).isZero();
    return JSON.readTree(when.out()).get("runs").get(0).get("runningSeconds").asLong();
  }

  /**
   * A snapshot's running Job pod runs what is left of its {@code gpufleet.io/run-for} after its
   * {@code status.startTime}, the snapshot's import time being now: "pretrain" started 40 minutes
   * before the import, so of its hour 20 minutes are left, and the job queued behind it on the one
   * GPU starts 40 minutes sooner than behind a fresh start. {@code simulate} of the same files says
   * the same: the old pod succeeds at +00:20:00 and the new one starts when {@code when} says.
   */
  @Test
  void aJobBehindARunningOneStartsWhenWhatIsLeftOfItsRunTimeIsDone() throws IOException {
    long resumed = runningSeconds(RUNNING);
    CliRun sim = CliRun.of("simulate", "-f", RUNNING, "-f", NEXT, "--for", "24h", "--seeds", "1", "-q",
        "--out", dir.resolve("resumed").toString());
    assertThat(sim.exitCode()).as(sim.err()).isZero();
    assertThat(firstEvent(dir.resolve("resumed"), "ml/pretrain-4kq9z", "PodSucceeded")).isEqualTo(20 * 60);
    assertThat(firstEvent(dir.resolve("resumed"), "ml/next-", "PodStarted")).isEqualTo(resumed);
    assertThat(resumed).isGreaterThanOrEqualTo(20 * 60).isLessThan(60 * 60);

    // No start time recorded: it starts its hour afresh, and the next job waits 40 minutes longer.
    String text = Files.readString(Path.of(RUNNING));
    Path fresh = dir.resolve("fresh.yaml");
    Files.writeString(fresh, text.replace("  status: {active: 1, startTime: \"2026-03-02T11:20:00Z\"}\n", "")
        .replace("    startTime: \"2026-03-02T11:20:00Z\"\n", ""));
    assertThat(Files.readString(fresh)).doesNotContain("startTime: ");
    assertThat(runningSeconds(fresh.toString()) - resumed).isEqualTo(40 * 60);

    // Started before its hour was out: it finishes at once.
    Path past = dir.resolve("past.yaml");
    Files.writeString(past, text.replace("2026-03-02T11:20:00Z", "2026-03-02T10:00:00Z"));
    CliRun pastSim = CliRun.of("simulate", "-f", past.toString(), "--for", "1h", "--seeds", "1", "-q",
        "--out", dir.resolve("past").toString());
    assertThat(pastSim.exitCode()).as(pastSim.err()).isZero();
    assertThat(firstEvent(dir.resolve("past"), "ml/pretrain-4kq9z", "PodSucceeded")).isZero();

    // The pod records none, its Job does: the pod counts from the Job's start, the earliest it can have.
    Path jobOnly = dir.resolve("job-only.yaml");
    Files.writeString(jobOnly, text.replace("    startTime: \"2026-03-02T11:20:00Z\"\n", ""));
    assertThat(runningSeconds(jobOnly.toString())).isEqualTo(resumed);

    // A file with no import time: now is the run's start (2026-01-05T00:00:00Z, as simulate's), so a
    // start 40 minutes before it leaves the same 20 minutes.
    Path noImport = dir.resolve("no-import.yaml");
    Files.writeString(noImport, text.replace("    gpufleet.io/imported-at: \"2026-03-02T12:00:00Z\"\n", "")
        .replace("2026-03-02T11:20:00Z", "2026-01-04T23:20:00Z"));
    assertThat(Files.readString(noImport)).doesNotContain("imported-at:");
    assertThat(runningSeconds(noImport.toString())).isEqualTo(resumed);
  }

  /** A Succeeded pod of "pretrain" that ran from {@code start} to {@code end}, as a dump records it. */
  private static String completedPod(String name, String start, String end) {
    return """
        - apiVersion: v1
          kind: Pod
          metadata:
            name: NAME
            namespace: ml
            labels: {batch.kubernetes.io/job-name: pretrain}
            ownerReferences:
            - {apiVersion: batch/v1, kind: Job, name: pretrain, controller: true, blockOwnerDeletion: true}
          spec:
            nodeName: ip-10-0-3-30.ec2.internal
            restartPolicy: Never
            containers:
            - name: train
              image: pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime
              resources: {requests: {cpu: "2", memory: 8Gi, nvidia.com/gpu: "1"}, limits: {nvidia.com/gpu: "1"}}
          status:
            phase: Succeeded
            startTime: "START"
            containerStatuses:
            - name: train
              state: {terminated: {exitCode: 0, reason: Completed, startedAt: "START", finishedAt: "END"}}
        """.replace("NAME", name).replace("START", start).replace("END", end);
  }

  /**
   * A running Job that declares no run time, from a real cluster: its completed pods' history says
   * how long a pod runs. "pretrain" (3 completions) has two pods done, which ran 50 and 70 minutes;
   * its third started 40 minutes before the import, so it is taken to run the lower median, 50
   * minutes, and finishes 10 minutes in, where the next job starts; {@code simulate} agrees. Without
   * the history it would hold the GPU past the horizon.
   */
  @Test
  void aRunningJobWithoutARunTimeTakesTheMedianOfItsCompletedPods() throws IOException {
    String text = Files.readString(Path.of(RUNNING)).replace("        annotations: {gpufleet.io/run-for: 1h}\n", "")
        .replace("    completions: 1\n", "    completions: 3\n");
    assertThat(text).doesNotContain("run-for: 1h").contains("completions: 3");
    Path history = dir.resolve("history.yaml");
    Files.writeString(history, text + completedPod("pretrain-a1", "2026-03-02T09:00:00Z", "2026-03-02T09:50:00Z")
        + completedPod("pretrain-b2", "2026-03-02T10:00:00Z", "2026-03-02T11:10:00Z"));
    CliRun when = CliRun.of("when", NEXT, "-f", history.toString(), "--seeds", "1", "-o", "json");
    assertThat(when.exitCode()).as(when.err()).isZero();
    assertThat(when.err()).contains("is taken to run 50m, the median of its 2 completed pod(s)");
    long running = JSON.readTree(when.out()).get("runs").get(0).get("runningSeconds").asLong();
    assertThat(running).isGreaterThanOrEqualTo(10 * 60).isLessThan(20 * 60);
    CliRun sim = CliRun.of("simulate", "-f", history.toString(), "-f", NEXT, "--for", "24h", "--seeds", "1", "-q",
        "--out", dir.resolve("history").toString());
    assertThat(sim.exitCode()).as(sim.err()).isZero();
    assertThat(firstEvent(dir.resolve("history"), "ml/pretrain-4kq9z", "PodSucceeded")).isEqualTo(10 * 60);
    assertThat(firstEvent(dir.resolve("history"), "ml/next-", "PodStarted")).isEqualTo(running);

    // No history and no run time: the running pod holds the one GPU, and the next job does not start.
    Path none = dir.resolve("no-history.yaml");
    Files.writeString(none, text);
    CliRun never = CliRun.of("when", NEXT, "-f", none.toString(), "--seeds", "1", "--within", "6h");
    assertThat(never.exitCode()).as(never.err()).isEqualTo(1);
    assertThat(never.err()).doesNotContain("is taken to run");
  }

  @Test
  void aStartTimeThatIsNoRfc3339TimeIsAnErrorAtItsLine() throws IOException {
    String text = Files.readString(Path.of(RUNNING));
    Path bad = dir.resolve("bad.yaml");
    Files.writeString(bad, text.replace("    startTime: \"2026-03-02T11:20:00Z\"", "    startTime: yesterday"));
    int line = (int) text.lines().takeWhile(l -> !l.equals("    startTime: \"2026-03-02T11:20:00Z\"")).count() + 1;
    CliRun run = CliRun.of("when", NEXT, "-f", bad.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains(bad + ":" + line + ":")
        .contains("expected an RFC 3339 time such as 2026-01-05T09:00:00Z, found \"yesterday\"")
        .doesNotContain("Exception");
    Path badImport = dir.resolve("bad-import.yaml");
    Files.writeString(badImport, text.replace("\"2026-03-02T12:00:00Z\"", "\"noon\""));
    CliRun imported = CliRun.of("when", NEXT, "-f", badImport.toString());
    assertThat(imported.exitCode()).isEqualTo(2);
    assertThat(imported.err()).contains("found \"noon\"");
    // After the snapshot's time (clocks apart): a warning, and it counts as just started.
    Path ahead = dir.resolve("ahead.yaml");
    Files.writeString(ahead, text.replace("2026-03-02T11:20:00Z", "2026-03-02T12:05:00Z"));
    CliRun late = CliRun.of("when", NEXT, "-f", ahead.toString(), "--seeds", "1");
    assertThat(late.exitCode()).as(late.err()).isZero();
    assertThat(late.err()).contains("status.startTime: 2026-03-02T12:05:00Z is after the snapshot's import time "
        + "2026-03-02T12:00:00Z; taken as started then");
  }

  @Test
  void badInputIsOneLineAndExitTwo() throws IOException {
    Path configMap = dir.resolve("cm.yaml");
    Files.writeString(configMap, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: b}\n");
    Path daemons = dir.resolve("ds.yaml");
    Files.writeString(daemons, """
        apiVersion: apps/v1
        kind: DaemonSet
        metadata: {name: agent}
        spec:
          selector: {matchLabels: {app: agent}}
          template:
            metadata: {labels: {app: agent}}
            spec: {containers: [{name: a, image: busybox}]}
        """);
    for (var c : List.of(
        new String[] {configMap.toString(), "expected a Job, Deployment, StatefulSet, ReplicaSet or Pod to place, found none"},
        new String[] {daemons.toString(), "a DaemonSet runs a pod per node, not a job to place"})) {
      CliRun run = CliRun.of("when", c[0], "-f", CLUSTER);
      assertThat(run.exitCode()).isEqualTo(2);
      assertThat(run.err()).contains(c[1]).doesNotContain("Exception");
    }
    CliRun within = CliRun.of("when", TRAIN, "-f", CLUSTER, "--within", "soon");
    assertThat(within.exitCode()).isEqualTo(2);
    assertThat(within.err()).contains("--within: expected a duration such as 30m, 6h or 24h, found \"soon\"");
    // Seeds as replay reads them: a reversed range and a seed that is no number are one line each.
    CliRun reversed = CliRun.of("when", TRAIN, "-f", CLUSTER, "--seeds", "9..1");
    assertThat(reversed.exitCode()).isEqualTo(2);
    assertThat(reversed.err()).contains("--seeds 9..1: expected a..b with a <= b").doesNotContain("\tat ");
    CliRun word = CliRun.of("when", TRAIN, "-f", CLUSTER, "--seeds", "one");
    assertThat(word.exitCode()).isEqualTo(2);
    assertThat(word.err()).contains("--seeds: a seed is an integer, got \"one\"").doesNotContain("\tat ");
    CliRun output = CliRun.of("when", TRAIN, "-f", CLUSTER, "-o", "yaml");
    assertThat(output.exitCode()).isEqualTo(2);
    assertThat(output.err()).contains("-o: expected text or json, found \"yaml\"");
    CliRun noJob = CliRun.of("when", "-f", CLUSTER);
    assertThat(noJob.exitCode()).isEqualTo(2);
    assertThat(noJob.err()).contains("no JOB: give the job's manifest first");
    CliRun noCluster = CliRun.of("when", TRAIN);
    assertThat(noCluster.exitCode()).isEqualTo(2);
    assertThat(noCluster.err()).contains("no input: give -f FILE");
  }
}
