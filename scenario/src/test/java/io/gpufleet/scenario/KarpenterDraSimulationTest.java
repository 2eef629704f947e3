package io.gpufleet.scenario;

import static io.gpufleet.scenario.DraSimulationTest.DRA_POOL;
import static io.gpufleet.scenario.DraSimulationTest.FROM_H100;
import static io.gpufleet.scenario.DraSimulationTest.NODES;
import static io.gpufleet.scenario.DraSimulationTest.POOL;
import static io.gpufleet.scenario.DraSimulationTest.autoscaledL4;
import static io.gpufleet.scenario.DraSimulationTest.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.provisioning.DraProvisioning;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Karpenter with {@code --ignore-dra-requests=false} ({@code spec.autoscaler.ignoreDRARequests: false})
 * on AWS: its allocator places a DRA pod on an initialised node whose published devices fit, and,
 * since the AWS provider declares no devices per instance type, launches nothing for one that does not
 * fit, saying why; with the flag at its default Karpenter refuses both pods.
 */
class KarpenterDraSimulationTest {

  static SimulationResult run(String autoscaler, String cluster) {
    return DraSimulationTest.runWith("autoscaler: " + autoscaler, cluster);
  }

  static final String PODS = pod("trainer", FROM_H100) + pod("waits-for-b200",
      "{name: gpu, resourceClaimTemplateName: one-b200}");

  @Test
  void withTheFlagOffKarpentersAllocatorUsesPublishedDevicesAndLaunchesNoNodeOnAws() {
    SimulationResult r = run("{ignoreDRARequests: false}", NODES + POOL + PODS);
    assertThat(r.violations()).isEmpty();
    assertThat(r.finalState().pods().get("default/trainer").node()).contains("h100-node");
    assertThat(r.finalState().pods().get("default/waits-for-b200").node()).isEmpty();
    assertThat(r.finalState().claims().size()).as("no NodeClaim: no AWS instance type declares devices").isZero();
    var events = r.record().of(RunRecord.Kind.KARPENTER_EVENT);
    assertThat(events).anyMatch(e -> e.subject().equals("default/waits-for-b200") && e.message().equals(
        "FailedScheduling: Failed to schedule pod, allocating dynamic resources, no instance type can satisfy the "
            + "allocation"));
    assertThat(events).noneMatch(e -> e.message().contains("not yet supported by Karpenter")
        || e.message().startsWith("SizedByExtension"));
  }

  @Test
  void byDefaultKarpenterRefusesTheSamePods() {
    SimulationResult r = run("{ignoreDRARequests: true}", NODES + POOL + PODS);
    assertThat(r.finalState().claims().size()).isZero();
    assertThat(r.record().of(RunRecord.Kind.KARPENTER_EVENT)).anyMatch(e -> e.subject().equals(
        "default/waits-for-b200") && e.message().equals("FailedScheduling: " + DraProvisioning.NOT_SUPPORTED));
  }

  @Test
  void whereTheExtensionLaunchesL4NodesKarpentersAllocatorLaunchesNone() {
    String text = autoscaledL4("allocate", DRA_POOL).replace("{draRequests: allocate}", "{ignoreDRARequests: false}");
    SimulationResult r = Simulation.run(ScenarioReader.read("dra.yaml", text, ScenarioSources.directory(Path.of(".")))
        .scenario());
    assertThat(r.finalState().claims().size()).isZero();
    assertThat(r.finalState().pods().get("default/first").node()).isEmpty();
    assertThat(r.record().of(RunRecord.Kind.KARPENTER_EVENT)).anyMatch(e -> e.subject().equals("default/first")
        && e.message().endsWith("allocating dynamic resources, no instance type can satisfy the allocation"));
  }
}
