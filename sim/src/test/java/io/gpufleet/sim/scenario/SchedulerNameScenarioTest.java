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

/** The simulator's kube-scheduler takes only the pods whose schedulerName is its own. */
class SchedulerNameScenarioTest {

  private static Pod pod(String name, String schedulerName) {
    PodSpec s = PodSpec.of(Container.of("c", "img", ResourceList.of("cpu", "1"), ResourceList.EMPTY));
    return new Pod(ObjectMeta.named(name), new PodSpec(s.containers(), s.initContainers(), s.overhead(),
        s.nodeSelector(), s.nodeAffinity(), s.tolerations(), s.nodeName(), s.priority(), s.priorityClassName(),
        s.preemptionPolicy(), s.terminationGracePeriodSeconds(), schedulerName));
  }

  @Test
  void aPodOfAnotherSchedulerStaysPendingWithNoEvent() {
    Scenario s = Scenario.builder("scheduler-name").settings(SimulationSettings.DEFAULTS
            .withInvariants(SimulationSettings.InvariantMode.FULL))
        .object(ClusterObject.of(Node.of("node-1", Labels.of("kubernetes.io/hostname", "node-1"), List.of(),
            ResourceList.of("cpu", "4", "memory", "16Gi", "pods", "110"))))
        .object(ClusterObject.of(pod("mine", "default-scheduler")))
        .object(ClusterObject.of(pod("theirs", "volcano")))
        .then(new ScenarioAction.Wait(Duration.ofMinutes(5)))
        .build();
    SimulationResult r = Simulation.run(s);
    assertThat(r.violations()).isEmpty();
    assertThat(r.record().about("default/mine")).anySatisfy(e -> assertThat(e.kind())
        .isEqualTo(RunRecord.Kind.POD_SCHEDULED));
    assertThat(r.record().about("default/theirs")).noneSatisfy(e -> assertThat(e.kind())
        .isIn(RunRecord.Kind.POD_SCHEDULED, RunRecord.Kind.POD_FAILED_SCHEDULING));
  }
}
