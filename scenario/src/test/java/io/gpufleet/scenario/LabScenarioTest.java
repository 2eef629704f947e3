package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.sim.Checkpoint;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.state.NodeState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The lab scenario through the simulator: what each step leaves behind, checked on the cluster image. */
class LabScenarioTest {

  static final String LAB_NODE = "ip-10-0-1-17.ec2.internal";
  static SimulationResult run;

  @BeforeAll
  static void play() throws Exception {
    Path lab = Path.of("..", "examples", "lab");
    ScenarioFile f = ScenarioReader.read("lab.yaml", Files.readString(lab.resolve("lab.yaml")),
        ScenarioSources.directory(lab));
    run = Simulation.run(f.scenario());
  }

  private static Checkpoint at(String label) {
    return run.checkpoints().stream().filter(c -> c.label().startsWith(label)).findFirst().orElseThrow();
  }

  private static NodeState labNode(Checkpoint c) {
    return c.state().nodes().get(LAB_NODE);
  }

  @Test
  void everyExpectationHoldsAndNoInvariantBreaks() {
    assertThat(run.allExpectationsPassed()).as(run.expectations().toString()).isTrue();
    assertThat(run.violations()).isEmpty();
  }

  @Test
  void timeSlicingRelabelsTheProductAsGfdDoes() {
    assertThat(labNode(at("3.1")).node().labels().get("nvidia.com/gpu.product")).contains("NVIDIA-A10G");
    assertThat(labNode(at("3.2")).node().labels().get("nvidia.com/gpu.product")).contains("NVIDIA-A10G-SHARED");
    assertThat(labNode(at("3.2")).node().labels().get("nvidia.com/gpu.replicas")).contains("4");
    assertThat(labNode(at("3.5")).node().labels().get("nvidia.com/gpu.product")).contains("NVIDIA-A10G");
  }

  @Test
  void fourPodsHoldFourReplicasOfGpuZero() {
    var devices = labNode(at("3.3")).devices().orElseThrow();
    List<String> held = devices.allAssignments().stream().flatMap(c -> c.devices().stream())
        .map(d -> d.gpuIndex() + "/" + d.replica()).sorted().toList();
    assertThat(held).containsExactly("0/0", "0/1", "0/2", "0/3");
  }

  @Test
  void reRegistrationKeepsWhatRunningPodsHoldUntilTheyGo() {
    Checkpoint shown = at("after the plugin re-registered");
    assertThat(labNode(shown).devices().orElseThrow().allAssignments()).hasSize(4);
    assertThat(labNode(shown).node().allocatable().getOrZero(io.gpufleet.model.resource.ResourceName.NVIDIA_GPU)
        .value()).isEqualTo(1);
    assertThat(labNode(run.checkpoints().getLast()).devices().orElseThrow().allAssignments()).isEmpty();
  }

  @Test
  void theFifthPodsNodeCameFromTheNodePoolUnsliced() {
    var nodes = at("3.4").state().nodes().values();
    NodeState second = nodes.stream().filter(n -> !n.name().equals(LAB_NODE)).findFirst().orElseThrow();
    assertThat(second.node().labels().get("node.kubernetes.io/instance-type")).contains("g5.xlarge");
    assertThat(second.node().labels().get("nvidia.com/gpu.replicas")).contains("1");
    assertThat(second.claim()).isPresent();
  }
}
