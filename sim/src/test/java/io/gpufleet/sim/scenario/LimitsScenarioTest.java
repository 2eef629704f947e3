package io.gpufleet.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.SimulationSettings;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.testing.Objects;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LimitsScenarioTest {

  @Test
  void aGpuLimitOfEightStopsProvisioningAtEightGpusWithKarpentersMessage() {
    var pool = Objects.gpuPool("gpu", List.of("g5", "g6"), "on-demand")
        .withLimits(ResourceList.of("nvidia.com/gpu", "8"));
    Scenario s = Scenario.builder("gpu limit")
        .settings(SimulationSettings.DEFAULTS.withInvariants(SimulationSettings.InvariantMode.FULL))
        .object(ClusterObject.of(pool))
        .object(ClusterObject.of(Objects.inference("llm", 12, 1, Labels.EMPTY)))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, 8), Duration.ofMinutes(15)))
        .then(new ScenarioAction.Wait(Duration.ofMinutes(30)))
        .then(new ScenarioAction.Expect("eight run, four wait", new Condition.All(List.of(
            Condition.readyPods("llm", Comparison.EQ, 8), Condition.pendingPods(Comparison.EQ, 4)))))
        .build();
    SimulationResult r = Simulation.run(s);
    assertThat(r.violations()).isEmpty();
    assertThat(r.allExpectationsPassed()).as(r.expectations().toString()).isTrue();
    int gpus = r.finalState().claims().values().stream().mapToInt(c -> c.instanceType().gpuCount()).sum();
    assertThat(gpus).isEqualTo(8);
    assertThat(r.record().of(RunRecord.Kind.KARPENTER_EVENT)).filteredOn(e -> e.message().startsWith(
        "FailedScheduling")).hasSize(4).allSatisfy(e -> assertThat(e.message()).isEqualTo("FailedScheduling: "
            + "Failed to schedule pod, all available instance types exceed limits for nodepool (NodePool=gpu)"));
    assertThat(r.finalState().claims().values()).extracting(NodeClaim::nodePool).containsOnly("gpu");
  }
}
