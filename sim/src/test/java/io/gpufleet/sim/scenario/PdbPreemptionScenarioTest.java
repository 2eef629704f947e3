package io.gpufleet.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.workload.PodTemplate;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.SimulationSettings;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.testing.Objects;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * DefaultPreemption reading the PDBs' status in the simulator: of two one-GPU nodes, each running a
 * GPU pod of lower priority than the preemptor, it preempts on the node whose victim violates no
 * PodDisruptionBudget ({@code pickOneNodeForPreemption}: fewest violations first), though the other
 * victim has the lower priority and would be the one taken without the budget.
 */
class PdbPreemptionScenarioTest {

  private static Workload.Deployment serving(String name, int priority) {
    Workload.Deployment d = Objects.inference(name, 1, 1, Labels.EMPTY);
    return new Workload.Deployment(d.meta(), d.replicas(), d.selector(), new PodTemplate(d.template().labels(),
        d.template().annotations(), d.template().spec().withPriority(priority)), d.maxSurge(), d.maxUnavailable());
  }

  /** A g6.xlarge (one L4) with room for one 2-CPU GPU pod; no NodePool, so Karpenter adds no node. */
  private static Node gpuNode(String name) {
    ResourceList room = ResourceList.of("cpu", "4", "memory", "16Gi", "pods", "110");
    return Objects.adopted(name, "gpu", "g6.xlarge", "on-demand").withResources(room, room);
  }

  private static SimulationResult run(boolean withPdb) {
    Scenario.Builder b = Scenario.builder("pdb preemption")
        .settings(SimulationSettings.DEFAULTS.withInvariants(SimulationSettings.InvariantMode.FULL))
        .object(ClusterObject.of(gpuNode("gpu-a")))
        .object(ClusterObject.of(gpuNode("gpu-b")))
        .object(ClusterObject.of(serving("guarded", 10)))
        .object(ClusterObject.of(serving("batch", 100)));
    if (withPdb) {
      // minAvailable 1 over its one Ready replica: status.disruptionsAllowed 0.
      b.object(ClusterObject.of(Objects.minAvailable("guarded-pdb", "guarded", 1)));
    }
    Pod urgent = new Pod(ObjectMeta.named("urgent"),
        Objects.gpuSpec(1, "2", "8Gi", "vllm/vllm-openai:v0.6").withPriority(100000));
    b.then(new ScenarioAction.WaitUntil(Condition.readyPods("guarded", Comparison.EQ, 1), Duration.ofMinutes(15)))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("batch", Comparison.EQ, 1), Duration.ofMinutes(15)))
        .then(new ScenarioAction.Apply(List.of(ClusterObject.of(urgent))))
        .then(new ScenarioAction.Wait(Duration.ofMinutes(5)));
    return Simulation.run(b.build());
  }

  private static List<RunRecord.Entry> byUrgent(SimulationResult r) {
    return r.record().of(RunRecord.Kind.POD_PREEMPTED).stream()
        .filter(e -> e.message().startsWith("Preempted by pod default/urgent on node")).toList();
  }

  private static String nodeOf(SimulationResult r, String workload) {
    return r.record().of(RunRecord.Kind.POD_SCHEDULED).stream()
        .filter(e -> e.subject().startsWith("default/" + workload + "-")).findFirst().orElseThrow().message();
  }

  @Test
  void theGpuPodPreemptsWhereNoPdbIsViolatedThoughTheGuardedPodHasTheLowerPriority() {
    SimulationResult r = run(true);
    assertThat(r.violations()).isEmpty();
    // The urgent pod's one victim; batch's replacement (priority 100) may then preempt the guarded pod,
    // a PDB being no bar to preemption, only a preference.
    assertThat(byUrgent(r)).singleElement().satisfies(e -> assertThat(e.subject()).startsWith("default/batch-"));
    String batchNode = nodeOf(r, "batch").contains("gpu-a") ? "gpu-a" : "gpu-b";
    assertThat(r.record().of(RunRecord.Kind.POD_NOMINATED).stream().filter(e -> e.subject().equals("default/urgent")))
        .singleElement().satisfies(e -> assertThat(e.message()).startsWith("nominated node " + batchNode + ", preempting default/batch-"));
    assertThat(r.record().of(RunRecord.Kind.POD_SCHEDULED).stream().filter(e -> e.subject().equals("default/urgent"))
        .findFirst().orElseThrow().message()).contains(batchNode);
  }

  @Test
  void withoutThePdbTheLowerPriorityGuardedPodIsTheVictim() {
    SimulationResult r = run(false);
    assertThat(r.violations()).isEmpty();
    assertThat(byUrgent(r)).singleElement().satisfies(e -> assertThat(e.subject()).startsWith("default/guarded-"));
  }
}
