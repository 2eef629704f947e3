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

  /**
   * The plugin's DaemonSet names {@code system-node-critical} (2000001000), the pre-pull's names no
   * class (0). kube-scheduler's queue (PrioritySort: higher priority first, then arrival) takes the
   * plugin's pod first when the new node registers, so it is bound first and the kubelet asks for its
   * image first. Serialized pulls then make the 9 GB pull wait behind the plugin's small one, not the
   * other way round: the node initialises at the same time in both modes and only vLLM comes later.
   */
  @Test
  void thePluginPodIsBoundFirstByPrioritySoSerializedPullsQueueTheNineGigabyteImageBehindIt() throws Exception {
    SimulationResult parallel = lab("");
    SimulationResult serial = lab("{serializeImagePulls: true}");
    for (SimulationResult r : List.of(parallel, serial)) {
      assertThat(r.violations()).isEmpty();
      String node = launched(r);
      List<String> boundThere = r.record().of(Kind.POD_SCHEDULED).stream()
          .filter(e -> e.message().contains("bound to " + node + " ")).map(Entry::subject).toList();
      assertThat(boundThere.indexOf(pluginPodOn(r, node))).isLessThan(indexOfPrefix(boundThere, "default/vllm-prepull-"));
      // The plugin registers before the 9 GB image is on the node, whichever way pulls run.
      assertThat(first(r, Kind.DEVICE_PLUGIN_REGISTERED, node, "")).isBefore(first(r, Kind.IMAGE_PULLED, node, VLLM));
    }
    String pNode = launched(parallel);
    String sNode = launched(serial);
    assertThat(first(serial, Kind.NODE_REGISTERED, sNode, "")).isEqualTo(first(parallel, Kind.NODE_REGISTERED, pNode,
        ""));
    assertThat(first(serial, Kind.DEVICE_PLUGIN_REGISTERED, sNode, "")).isEqualTo(
        first(parallel, Kind.DEVICE_PLUGIN_REGISTERED, pNode, ""));
    // Serialized: vLLM's pull starts only once the plugin's image is in, and takes lab.yaml's 4 minutes.
    Duration vllmPull = Duration.ofMinutes(4);
    Instant sPlugin = first(serial, Kind.IMAGE_PULLED, sNode, "k8s-device-plugin");
    Instant sVllm = first(serial, Kind.IMAGE_PULLED, sNode, VLLM);
    assertThat(Duration.between(sPlugin, sVllm)).isGreaterThanOrEqualTo(vllmPull);
    assertThat(sVllm).isAfter(first(parallel, Kind.IMAGE_PULLED, pNode, VLLM));
    // So the fifth pod, which needs the vLLM image, is Ready later with serialized pulls.
    assertThat(first(parallel, Kind.POD_READY, "default/vllm-fifth", "")).isBefore(
        first(serial, Kind.POD_READY, "default/vllm-fifth", ""));
  }

  static int indexOfPrefix(List<String> subjects, String prefix) {
    for (int i = 0; i < subjects.size(); i++) {
      if (subjects.get(i).startsWith(prefix)) {
        return i;
      }
    }
    throw new AssertionError("no " + prefix + " in " + subjects);
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
