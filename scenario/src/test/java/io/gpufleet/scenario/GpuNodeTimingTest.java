package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord.Entry;
import io.gpufleet.sim.record.RunRecord.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * When a GPU node's resources appear: the device plugin registers only from its own running pod, so
 * after that pod's image is pulled, and which pull waits for which is the node's
 * {@code serializeImagePulls}. Played on the lab (step 3.4 brings a cold g5.xlarge).
 */
class GpuNodeTimingTest {

  static final Path LAB = Path.of("..", "examples", "lab");
  static final String VLLM = "vllm/vllm-openai:v0.6.3";

  static SimulationResult lab(String kubelet) throws Exception {
    String text = Files.readString(LAB.resolve("lab.yaml"));
    if (!kubelet.isEmpty()) {
      text = text.replace("  simulation:\n", "  simulation:\n    kubelet: " + kubelet + "\n");
    }
    ScenarioFile f = ScenarioReader.read("lab.yaml", text, ScenarioSources.directory(LAB));
    return Simulation.run(f.scenario());
  }

  /** The node Karpenter launched in step 3.4. */
  static String launched(SimulationResult r) {
    return r.record().of(Kind.NODE_REGISTERED).getFirst().subject();
  }

  static Instant first(SimulationResult r, Kind kind, String subject, String containing) {
    return r.record().of(kind).stream().filter(e -> e.subject().equals(subject) || subject.isEmpty())
        .filter(e -> e.message().contains(containing) || e.subject().contains(containing)).map(Entry::time)
        .findFirst().orElseThrow(() -> new AssertionError("no " + kind + " " + subject + " " + containing));
  }

  /** When the plugin first registered on the node Karpenter launched. */
  static Instant registered(SimulationResult r) {
    return first(r, Kind.DEVICE_PLUGIN_REGISTERED, launched(r), "");
  }

  /** The plugin pod bound to a node, by the scheduler's record. */
  static String pluginPodOn(SimulationResult r, String node) {
    return r.record().of(Kind.POD_SCHEDULED).stream()
        .filter(e -> e.subject().startsWith("nvidia-device-plugin/") && e.message().contains("bound to " + node + " "))
        .map(Entry::subject).findFirst().orElseThrow();
  }

  @Test
  void onEveryNodeThePluginRegistersOnlyAfterItsPodStarted() throws Exception {
    for (String kubelet : List.of("", "{serializeImagePulls: true}")) {
      SimulationResult r = lab(kubelet);
      assertThat(r.violations()).as(kubelet).isEmpty();
      assertThat(r.allExpectationsPassed()).as(r.expectations().toString()).isTrue();
      String node = launched(r);
      Instant podStarted = first(r, Kind.POD_STARTED, pluginPodOn(r, node), "");
      List<Entry> registrations = r.record().of(Kind.DEVICE_PLUGIN_REGISTERED).stream()
          .filter(e -> e.subject().equals(node)).toList();
      assertThat(registrations).as(kubelet).isNotEmpty();
      assertThat(registrations).allSatisfy(e -> assertThat(e.time()).isAfterOrEqualTo(podStarted));
      // Karpenter sees the node initialised only once nvidia.com/gpu is there.
      assertThat(first(r, Kind.NODECLAIM_INITIALIZED, "", "")).isAfterOrEqualTo(registrations.getFirst().time());
    }
  }

  @Test
  void serializedPullsMakeThePluginWaitBehindTheNineGigabyteImageParallelPullsDoNot() throws Exception {
    SimulationResult parallel = lab("");
    SimulationResult serial = lab("{serializeImagePulls: true}");
    for (SimulationResult r : List.of(parallel, serial)) {
      assertThat(r.violations()).isEmpty();
    }
    String pNode = launched(parallel);
    String sNode = launched(serial);
    Instant pVllm = first(parallel, Kind.IMAGE_PULLED, pNode, VLLM);
    Instant sVllm = first(serial, Kind.IMAGE_PULLED, sNode, VLLM);
    Instant pRegistered = first(parallel, Kind.DEVICE_PLUGIN_REGISTERED, pNode, "");
    Instant sRegistered = first(serial, Kind.DEVICE_PLUGIN_REGISTERED, sNode, "");
    // Parallel (the EKS AMIs): the plugin's small image arrives while vLLM's is still downloading.
    assertThat(pRegistered).isBefore(pVllm);
    // Serialized (the kubelet's default): the plugin's pull queues behind the pre-pull pod's 9 GB one.
    assertThat(sRegistered).isAfter(sVllm);
    // The node registered at the same time in both runs; only the pull queue differs.
    assertThat(first(serial, Kind.NODE_REGISTERED, sNode, "")).isEqualTo(first(parallel, Kind.NODE_REGISTERED, pNode,
        ""));
    Duration vllmPull = Duration.ofMinutes(4);  // lab.yaml's imagePulls for the vLLM image
    assertThat(Duration.between(pRegistered, sRegistered)).isGreaterThanOrEqualTo(vllmPull);
    // With parallel pulls the fifth pod is Ready no later than with serialized ones.
    assertThat(first(parallel, Kind.POD_READY, "default/vllm-fifth", "")).isBeforeOrEqualTo(
        first(serial, Kind.POD_READY, "default/vllm-fifth", ""));
  }

  @Test
  void aBoundOnParallelPullsQueuesTheRest() throws Exception {
    // One slot is the same queue as serialized pulls.
    SimulationResult one = lab("{serializeImagePulls: false, maxParallelImagePulls: 1}");
    SimulationResult serial = lab("{serializeImagePulls: true}");
    assertThat(registered(one)).isEqualTo(registered(serial));
    SimulationResult three = lab("{serializeImagePulls: false, maxParallelImagePulls: 3}");
    SimulationResult unbounded = lab("");
    assertThat(registered(three)).isEqualTo(registered(unbounded));
  }

  @Test
  void theSettingIsPerNodeClass() throws Exception {
    SimulationResult other = lab("{serializeImagePulls: true, nodeClasses: {gpu: {serializeImagePulls: false}}}");
    SimulationResult parallel = lab("");
    assertThat(registered(other)).isEqualTo(registered(parallel));
  }

  @Test
  void kubeletSettingsForANodeClassNoNodePoolNamesAreWarnedAbout() throws Exception {
    String text = Files.readString(LAB.resolve("lab.yaml")).replace("  simulation:\n",
        "  simulation:\n    kubelet: {nodeClasses: {gpu-typo: {serializeImagePulls: true}}}\n");
    ScenarioFile f = ScenarioReader.read("lab.yaml", text, ScenarioSources.directory(LAB));
    assertThat(f.warnings()).anySatisfy(w -> assertThat(w.toString()).contains("lab.yaml:")
        .contains("no NodePool in spec.cluster refers to a node class \"gpu-typo\" (known: gpu)"));
  }

  @Test
  void serializedPullsWithSeveralParallelOnesAreRefusedAsTheKubeletRefusesThem() {
    String text;
    try {
      text = Files.readString(LAB.resolve("lab.yaml")).replace("  simulation:\n",
          "  simulation:\n    kubelet: {serializeImagePulls: true, maxParallelImagePulls: 4}\n");
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
    String scenarioText = text;
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ScenarioReader.read("lab.yaml", scenarioText,
        ScenarioSources.directory(LAB))).hasMessageContaining("lab.yaml:").hasMessageContaining(
        "maxParallelImagePulls 4 needs serializeImagePulls: false");
  }
}
