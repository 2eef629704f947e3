package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.scenario.ScenarioFile;
import io.gpufleet.scenario.ScenarioReader;
import io.gpufleet.scenario.ScenarioSources;
import io.gpufleet.sim.Simulation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A kubectl dump is state, not a request: schedule, smi and simulate read examples/snapshot's dump
 * alike. Running pods keep the node the dump gives them, the finished Job pod holds nothing, the
 * Deployment (3 wanted, 2 observed through its ReplicaSet) adds one pod, the Job and the DaemonSet
 * none; and the order of the dump's items changes nothing.
 */
class SnapshotAgreementTest {

  private static Path examples() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isDirectory(p.resolve("examples/snapshot"))) {
        return p.resolve("examples/snapshot");
      }
    }
    throw new IllegalStateException("examples/snapshot not found");
  }

  private static final Path DUMP = examples().resolve("cluster-dump.yaml");

  /** The dump's own statement of where each live pod runs: its spec.nodeName, read from the text. */
  private static Map<String, String> boundInDump(String dump) {
    Map<String, String> out = new TreeMap<>();
    Matcher m = Pattern.compile("kind: Pod\\n  metadata:\\n    name: (\\S+)\\n    namespace: (\\S+)\\n(?s:.*?)"
        + "nodeName: (\\S+)\\n(?s:.*?)phase: (\\w+)").matcher(dump);
    while (m.find()) {
      if (m.group(4).equals("Running")) {
        out.put(m.group(2) + "/" + m.group(1), m.group(3));
      }
    }
    return out;
  }

  private static Map<String, String> schedule(Path file) {
    CliRun run = CliRun.wide("schedule", "-f", file.toString(), "-o", "json");
    assertThat(run.exitCode()).as(run.err()).isZero();
    Map<String, String> out = new TreeMap<>();
    for (JsonNode p : JsonMapper.builder().build().readTree(run.out()).get("pods")) {
      out.put(p.get("namespace").asString() + "/" + p.get("name").asString(),
          p.has("node") ? p.get("node").asString() : "<pending>");
    }
    return out;
  }

  private static Map<String, String> smi(Path file) {
    CliRun run = CliRun.wide("smi", "-f", file.toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    Map<String, String> out = new TreeMap<>();
    String node = null;
    for (String line : run.out().lines().toList()) {
      Matcher n = Pattern.compile("^\\| Node (\\S+)").matcher(line);
      if (n.find()) {
        node = n.group(1);
      }
      Matcher p = Pattern.compile("GPU-\\S+\\s+(\\S+/\\S+)\\s").matcher(line);
      if (p.find() && node != null) {
        out.put(p.group(1), node);
      }
    }
    return out;
  }

  private static Map<String, String> simulate() {
    Path dir = examples();
    ScenarioFile scenario;
    try {
      scenario = ScenarioReader.read("one-minute.yaml", Files.readString(dir.resolve("one-minute.yaml")),
          ScenarioSources.directory(dir));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    Map<String, String> out = new TreeMap<>();
    Simulation.run(scenario.scenario()).checkpoints().getLast().state().pods()
        .forEach((k, p) -> out.put(k, p.node().orElse("<pending>")));
    return out;
  }

  /** Pods the dump does not name: what the controllers created, by owner prefix. */
  private static List<String> created(Map<String, String> placements, String dump) {
    return placements.keySet().stream().filter(k -> !Pattern.compile("name: " + Pattern.quote(
        k.substring(k.indexOf('/') + 1)) + "[,\n}]").matcher(dump).find()).toList();
  }

  @Test
  void scheduleSmiAndSimulateAgreeOnTheDump() throws IOException {
    String dump = Files.readString(DUMP);
    Map<String, String> bound = boundInDump(dump);
    assertThat(bound).hasSize(6);
    Map<String, String> schedule = schedule(DUMP);
    Map<String, String> simulate = simulate();
    Map<String, String> smi = smi(DUMP);
    for (Map<String, String> placements : List.of(schedule, simulate)) {
      assertThat(placements).containsAllEntriesOf(bound).doesNotContainKey("ml/train-x7k2p");
      // One new vLLM replica on the H100 node; nothing else new; the notebook on the shared A10G.
      List<String> created = created(placements, dump);
      assertThat(created).singleElement().satisfies(k -> {
        assertThat(k).startsWith("serving/vllm-");
        assertThat(placements.get(k)).isEqualTo("ip-10-0-3-33.ec2.internal");
      });
      assertThat(placements).containsEntry("research/notebook-alice", "ip-10-0-1-11.ec2.internal");
    }
    // smi shows the GPU pods only: the same nodes for each.
    schedule.forEach((pod, node) -> {
      if (smi.containsKey(pod)) {
        assertThat(smi.get(pod)).as(pod).isEqualTo(node);
      }
    });
    assertThat(smi).containsKeys("ml/train-9qz4m", "serving/vllm-6c8f9d7b5-4xk8d", "serving/vllm-6c8f9d7b5-p2m9t",
        "research/notebook-alice").doesNotContainKey("ml/train-x7k2p").hasSize(5);
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void shufflingTheDumpsItemsChangesNothing(long seed, @TempDir Path dir) throws IOException {
    String dump = Files.readString(DUMP);
    int start = dump.indexOf("items:\n") + "items:\n".length();
    List<String> items = new ArrayList<>(List.of(dump.substring(start).split("\n(?=- apiVersion)")));
    Collections.shuffle(items, new Random(seed));
    Path shuffled = dir.resolve("shuffled.yaml");
    Files.writeString(shuffled, dump.substring(0, start) + String.join("\n", items) + "\n");
    assertThat(stable(schedule(shuffled))).isEqualTo(stable(schedule(DUMP)));
    assertThat(stable(smi(shuffled))).isEqualTo(stable(smi(DUMP)));
  }

  /** pod -> the device ids it holds, from the process rows of an nvidia-smi view (smi's, or simulate's last). */
  private static Map<String, List<String>> cards(String text) {
    Map<String, List<String>> out = new TreeMap<>();
    Matcher m = Pattern.compile("\\|\\s+\\d+\\s+\\S+\\s+(GPU-\\S+)\\s+(\\S+/\\S+)\\s").matcher(text);
    while (m.find()) {
      out.computeIfAbsent(m.group(2), k -> new ArrayList<>()).add(m.group(1));
    }
    out.values().forEach(Collections::sort);
    return out;
  }

  /** The cards are gpufleet's, but the same in every command: each running pod of the dump holds the same ones in smi and simulate. */
  @Test
  void theDumpsRunningPodsHoldTheSameCardsInSmiAndSimulate(@TempDir Path dir) throws IOException {
    Map<String, String> bound = boundInDump(Files.readString(DUMP));
    CliRun smi = CliRun.wide("smi", "-f", DUMP.toString());
    CliRun simulate = CliRun.wide("simulate", "-f", DUMP.toString(), "--for", "1m", "--out", dir.toString());
    assertThat(smi.exitCode()).as(smi.err()).isZero();
    assertThat(simulate.exitCode()).as(simulate.err()).isZero();
    Map<String, List<String>> inSmi = cards(smi.out());
    Map<String, List<String>> inSimulate = cards(simulate.out().substring(simulate.out().lastIndexOf("$ nvidia-smi")));
    inSmi.keySet().retainAll(bound.keySet());
    inSimulate.keySet().retainAll(bound.keySet());
    assertThat(inSmi).hasSize(3).isEqualTo(inSimulate);
  }

  /** The dump records no device ids: every view that shows them says they are the twin's. */
  @Test
  void everyViewOfDevicesSaysTheirIdsAreGpufleets(@TempDir Path dir) {
    String note = io.gpufleet.report.smi.SmiView.DEVICE_IDS_NOTE;
    CliRun smi = CliRun.wide("smi", "-f", DUMP.toString());
    CliRun describe = CliRun.wide("node", "describe", "-f", DUMP.toString());
    CliRun simulate = CliRun.wide("simulate", "-f", DUMP.toString(), "--for", "10s", "--out", dir.toString());
    for (CliRun run : List.of(smi, describe, simulate)) {
      assertThat(run.exitCode()).as(run.err()).isZero();
      assertThat(run.out()).contains("GPU-").containsOnlyOnce("note: " + note);
    }
    // Nothing to say where no device is shown (-q prints the summary only).
    CliRun quiet = CliRun.wide("simulate", "-f", DUMP.toString(), "--for", "10s", "-q", "--out", dir.resolve("q").toString());
    assertThat(quiet.out()).doesNotContain(note);
  }

  /**
   * A Deployment caught mid-rollout (two ReplicaSets, v1 and v2 templates, 2 + 1 pods, 2 wanted):
   * schedule keeps the three pods the cluster has and adds none; simulate goes on with the rollout,
   * replacing the old ReplicaSet's pods by pods of the current template, and ends with exactly 2.
   */
  @Test
  void aMidRolloutDeploymentResumesItsRollout(@TempDir Path dir) {
    Path file = Path.of("src/test/resources/snapshot/mid-rollout.yaml");
    assertThat(schedule(file)).containsOnlyKeys("default/web-7d9f8c6b5-aaaaa", "default/web-7d9f8c6b5-bbbbb",
        "default/web-5c4b7f9d8-ccccc");
    CliRun run = CliRun.wide("simulate", "-f", file.toString(), "--for", "5m", "--out", dir.toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    String last = run.out().substring(run.out().lastIndexOf("$ kubectl get pods -A -o wide"));
    List<String> pods = last.lines().skip(2).map(String::strip).takeWhile(l -> !l.isEmpty()).toList();
    assertThat(pods).hasSize(2).allSatisfy(l -> assertThat(l).contains(" Running "));
    assertThat(pods).anySatisfy(l -> assertThat(l).containsPattern("^default\\s+web-5c4b7f9d8-ccccc\\s"))
        .noneSatisfy(l -> assertThat(l).contains("web-7d9f8c6b5-"));
    // The old pods went by the rolling update, not by a scale-down of surplus replicas.
    assertThat(run.out()).containsPattern("default/web-7d9f8c6b5-aaaaa\\s+rolling update")
        .containsPattern("default/web-7d9f8c6b5-bbbbb\\s+rolling update").doesNotContain("scaled down");
  }

  /** A node with one A10G and a pod bound to it by name that asks for two: the kubelet refuses it. */
  private static final String REFUSED = """
      apiVersion: v1
      kind: Node
      metadata:
        name: a10g-1
        labels: {node.kubernetes.io/instance-type: g5.2xlarge, nvidia.com/gpu.product: NVIDIA-A10G, nvidia.com/gpu.count: "1"}
      status:
        capacity: {cpu: "8", memory: 32Gi, pods: "110", nvidia.com/gpu: "1"}
        allocatable: {cpu: 7910m, memory: 29317Mi, pods: "110", nvidia.com/gpu: "1"}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: too-big, namespace: default}
      spec:
        nodeName: a10g-1
        containers:
        - {name: c, image: busybox, resources: {limits: {nvidia.com/gpu: "2"}}}
      status: {phase: Pending}
      """;

  @Test
  void aPodTheKubeletRefusesEndsFailedWithItsReasonInScheduleAndSimulate(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("refused.yaml");
    Files.writeString(file, REFUSED);
    CliRun schedule = CliRun.wide("schedule", "-f", file.toString(), "-o", "json");
    assertThat(schedule.exitCode()).as(schedule.err()).isZero();
    JsonNode pod = JsonMapper.builder().build().readTree(schedule.out()).get("pods").get(0);
    assertThat(pod.get("phase").asString()).isEqualTo("Failed");
    assertThat(pod.get("reason").asString()).isEqualTo("OutOfnvidia.com/gpu");
    String message = pod.get("message").asString();
    assertThat(message).startsWith("Pod was rejected: Node didn't have enough resource: nvidia.com/gpu, requested: 2");

    CliRun simulate = CliRun.wide("simulate", "-f", file.toString(), "--for", "2m", "--out", dir.resolve("out").toString());
    assertThat(simulate.exitCode()).as(simulate.err()).isZero();
    assertThat(simulate.out()).containsPattern("PodFailed\\s+default/too-big\\s+OutOfnvidia.com/gpu: " + Pattern.quote(message));
    String table = simulate.out().substring(simulate.out().lastIndexOf("$ kubectl get pods -A -o wide"));
    assertThat(table).containsPattern("default\\s+too-big\\s+0/1\\s+OutOfnvidia.com/gpu\\s+a10g-1\\s");
    // Failed, it holds nothing and is not retried: one refusal only, and the card stays free.
    assertThat(simulate.out().split("PodFailed\\s+default/too-big", -1)).hasSize(2);
    assertThat(simulate.out()).contains("No running processes found");
  }

  /** Placements with the random suffix of controller-made pod names dropped. */
  private static Map<String, String> stable(Map<String, String> placements) {
    Map<String, String> out = new TreeMap<>();
    placements.forEach((k, v) -> out.merge(k.replaceAll("-[a-z0-9]{10}-[a-z0-9]{5}$", "-<new>"), v, (a, b) -> a + "," + b));
    return out;
  }
}
