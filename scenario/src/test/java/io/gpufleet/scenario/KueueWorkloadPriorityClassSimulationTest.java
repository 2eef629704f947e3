package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A Job's WorkloadPriorityClass ({@code kueue.x-k8s.io/priority-class}, {@code pkg/workloadpriority})
 * is its Workload's priority in the simulator: {@link KueuePreemptionSimulationTest}'s scenario with
 * the pods' PriorityClasses replaced by WorkloadPriorityClasses of the same values preempts the same
 * way; with the labels removed both Workloads have priority 0 and the second Job waits.
 */
class KueueWorkloadPriorityClassSimulationTest {

  static String withWorkloadPriorityClasses() {
    return KueuePreemptionSimulationTest.SCENARIO
        .replace("- apiVersion: scheduling.k8s.io/v1\n    kind: PriorityClass",
            "- apiVersion: kueue.x-k8s.io/v1beta2\n    kind: WorkloadPriorityClass")
        .replace("name: low\n          labels: {kueue.x-k8s.io/queue-name: q}",
            "name: low\n          labels: {kueue.x-k8s.io/queue-name: q, kueue.x-k8s.io/priority-class: low}")
        .replace("name: high\n          labels: {kueue.x-k8s.io/queue-name: q}",
            "name: high\n          labels: {kueue.x-k8s.io/queue-name: q, kueue.x-k8s.io/priority-class: high}")
        .replace("              priorityClassName: low\n", "")
        .replace("              priorityClassName: high\n", "");
  }

  static SimulationResult run(String scenario) {
    return Simulation.run(ScenarioReader.read("s.yaml", scenario, ScenarioSources.directory(Path.of("."))).scenario());
  }

  @Test
  void theWorkloadPriorityClassDecidesThePreemption() {
    String s = withWorkloadPriorityClasses();
    assertThat(s).contains("kind: WorkloadPriorityClass", "priority-class: low", "priority-class: high")
        .doesNotContain("priorityClassName");
    SimulationResult r = run(s);
    assertThat(KueueTwoTeamsExampleTest.kueue(r, "default/low", "Preempted")).hasSize(1);
    assertThat(KueueTwoTeamsExampleTest.kueue(r, "default/high", "Admitted")).hasSize(1);

    SimulationResult unlabelled = run(s.replace(", kueue.x-k8s.io/priority-class: low", "")
        .replace(", kueue.x-k8s.io/priority-class: high", "").replace("timeout: 2h", "timeout: 1h"));
    assertThat(KueueTwoTeamsExampleTest.kueue(unlabelled, "default/low", "Preempted")).isEmpty();
  }
}
