package io.gpufleet.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.pod.TopologySpreadConstraint;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.workload.PodTemplate;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.SimulationSettings;
import io.gpufleet.sim.state.PodState;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** PodTopologySpread in the simulator: the default system constraints and constraints written in the pod. */
class TopologySpreadScenarioTest {

  private static final String ZONE = "topology.kubernetes.io/zone";
  private static final SimulationSettings FULL = SimulationSettings.DEFAULTS
      .withInvariants(SimulationSettings.InvariantMode.FULL);

  private static Node node(String name, String zone, String cpu) {
    return Node.of(name, Labels.of("kubernetes.io/hostname", name, ZONE, zone), List.of(),
        ResourceList.of("cpu", cpu, "memory", "256Gi", "pods", "110"));
  }

  /** As examples/scheduling/topology-spread.yaml: zone-a holds the two largest nodes. */
  private static Scenario.Builder threeZones(String name, Workload w) {
    return Scenario.builder(name).settings(FULL)
        .object(ClusterObject.of(node("big-a1", "zone-a", "64")))
        .object(ClusterObject.of(node("big-a2", "zone-a", "64")))
        .object(ClusterObject.of(node("small-b", "zone-b", "16")))
        .object(ClusterObject.of(node("small-c", "zone-c", "16")))
        .object(ClusterObject.of(w));
  }

  private static Workload.Deployment web(int replicas, List<TopologySpreadConstraint> constraints) {
    PodSpec spec = PodSpec.of(Container.of("web", "nginx:1.27", ResourceList.of("cpu", "1", "memory", "1Gi"),
        ResourceList.EMPTY)).withTopologySpreadConstraints(constraints);
    return new Workload.Deployment(ObjectMeta.named("web"), replicas, LabelSelector.matching(Labels.of("app", "web")),
        new PodTemplate(Labels.of("app", "web"), Labels.EMPTY, spec), Workload.Deployment.DEFAULT_ROLLING,
        Workload.Deployment.DEFAULT_ROLLING);
  }

  /** Bound pods per zone of the final state. */
  private static Map<String, Integer> perZone(SimulationResult r) {
    Map<String, Integer> out = new TreeMap<>();
    for (PodState p : r.finalState().pods().values()) {
      p.node().ifPresent(n -> out.merge(r.finalState().nodes().get(n).node().labels().get(ZONE)
          .orElseThrow(), 1, Integer::sum));
    }
    return out;
  }

  @Test
  void theDefaultConstraintsSpreadADeploymentOnePodPerZone() {
    SimulationResult r = Simulation.run(threeZones("default-spread", web(3, List.of()))
        .then(new ScenarioAction.Wait(Duration.ofMinutes(5))).build());
    assertThat(r.violations()).isEmpty();
    // Resources alone (LeastAllocated) would stack all three on zone-a's large nodes.
    assertThat(perZone(r)).containsExactlyInAnyOrderEntriesOf(Map.of("zone-a", 1, "zone-b", 1, "zone-c", 1));
  }

  @Test
  void aHardZoneConstraintKeepsTheSkewWithinMaxSkew() {
    TopologySpreadConstraint oneSkew = TopologySpreadConstraint.of(1, ZONE,
        TopologySpreadConstraint.WhenUnsatisfiable.DO_NOT_SCHEDULE, LabelSelector.matching(Labels.of("app", "web")));
    SimulationResult r = Simulation.run(threeZones("hard-spread", web(7, List.of(oneSkew)))
        .then(new ScenarioAction.Wait(Duration.ofMinutes(5))).build());
    assertThat(r.violations()).isEmpty();
    Map<String, Integer> zones = perZone(r);
    assertThat(zones.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(7);
    assertThat(zones.values().stream().mapToInt(Integer::intValue).max().orElseThrow()
        - zones.values().stream().mapToInt(Integer::intValue).min().orElseThrow()).isLessThanOrEqualTo(1);
  }
}
