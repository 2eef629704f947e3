package io.gpufleet.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.SimulationSettings;
import io.gpufleet.sim.record.RunRecord;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** DefaultPreemption in the simulator: the victim exits within its grace period, then the preemptor binds. */
class PreemptionScenarioTest {

  private static Pod pod(String name, int priority, long graceSeconds) {
    PodSpec spec = PodSpec.of(Container.of("main", "img", ResourceList.of("cpu", "4", "memory", "8Gi"),
        ResourceList.EMPTY)).withPriority(priority).withTerminationGracePeriodSeconds(graceSeconds);
    return new Pod(ObjectMeta.named(name), spec);
  }

  @Test
  void aHighPriorityPodEvictsTheTrainingPodAndBindsOnceItHasExited() {
    Node node = Node.of("node-1", Labels.of("kubernetes.io/hostname", "node-1"), List.of(),
        ResourceList.of("cpu", "4", "memory", "16Gi", "pods", "110"));
    Scenario s = Scenario.builder("preemption").settings(SimulationSettings.DEFAULTS
            .withInvariants(SimulationSettings.InvariantMode.FULL))
        .object(ClusterObject.of(node))
        .object(ClusterObject.of(pod("train", 100, 45)))
        .then(new ScenarioAction.Wait(Duration.ofMinutes(1)))
        .then(new ScenarioAction.Apply(List.of(ClusterObject.of(pod("inference", 100000, 30)))))
        .then(new ScenarioAction.Wait(Duration.ofMinutes(5)))
        .build();
    SimulationResult r = Simulation.run(s);
    assertThat(r.violations()).isEmpty();
    RunRecord.Entry preempted = r.record().of(RunRecord.Kind.POD_PREEMPTED).getFirst();
    assertThat(preempted.subject()).isEqualTo("default/train");
    assertThat(preempted.message()).isEqualTo("Preempted by pod default/inference on node node-1");
    assertThat(r.record().of(RunRecord.Kind.POD_NOMINATED)).singleElement()
        .satisfies(e -> assertThat(e.message()).isEqualTo("nominated node node-1, preempting default/train"));
    RunRecord.Entry bound = r.record().of(RunRecord.Kind.POD_SCHEDULED).stream()
        .filter(e -> e.subject().equals("default/inference")).findFirst().orElseThrow();
    assertThat(bound.message()).contains("node-1");
    // The preemptor binds only once the victim has exited, within its 45 s grace period.
    RunRecord.Entry exited = r.record().about("default/train").stream()
        .filter(e -> e.kind() == RunRecord.Kind.POD_EXITED || e.kind() == RunRecord.Kind.POD_KILLED
            || e.kind() == RunRecord.Kind.POD_DELETED).reduce((a, b) -> b).orElseThrow();
    assertThat(bound.sequence()).isGreaterThan(exited.sequence());
    assertThat(Duration.between(preempted.time(), exited.time())).isLessThanOrEqualTo(Duration.ofSeconds(45));
    assertThat(r.record().of(RunRecord.Kind.POD_PREEMPTED)).hasSize(1);
  }
}
