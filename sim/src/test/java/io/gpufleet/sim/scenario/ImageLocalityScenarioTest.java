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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ImageLocality in the simulator: a node whose kubelet pulled an image draws the next pod that runs it. */
class ImageLocalityScenarioTest {

  private static final String VLLM = "vllm/vllm-openai:v0.6.3";

  private static Pod pod(String name, String node) {
    PodSpec spec = PodSpec.of(Container.of("main", VLLM, ResourceList.of("cpu", "500m", "memory", "1Gi"),
        ResourceList.EMPTY));
    return new Pod(ObjectMeta.named(name), node == null ? spec : spec.withNodeName(node));
  }

  private static String whereServeLands(Map<String, Long> sizes) {
    List<ClusterObject> nodes = new ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      nodes.add(ClusterObject.of(Node.of("node-" + i, Labels.of("kubernetes.io/hostname", "node-" + i), List.of(),
          ResourceList.of("cpu", "8", "memory", "32Gi", "pods", "110"))));
    }
    Scenario.Builder b = Scenario.builder("image-locality").settings(SimulationSettings.DEFAULTS
        .withInvariants(SimulationSettings.InvariantMode.FULL).withImagePulls(Duration.ofMinutes(4), Map.of())
        .withImageSizes(sizes));
    nodes.forEach(b::object);
    SimulationResult r = Simulation.run(b.object(ClusterObject.of(pod("warm", "node-3")))
        .then(new ScenarioAction.Wait(Duration.ofMinutes(10)))
        .then(new ScenarioAction.Apply(List.of(ClusterObject.of(pod("serve", null)))))
        .then(new ScenarioAction.Wait(Duration.ofMinutes(10)))
        .build());
    assertThat(r.violations()).isEmpty();
    assertThat(r.record().of(RunRecord.Kind.IMAGE_PULLED)).anySatisfy(e -> {
      assertThat(e.subject()).isEqualTo("node-3");
      assertThat(e.message()).isEqualTo(VLLM);
    });
    return r.record().of(RunRecord.Kind.POD_SCHEDULED).stream().filter(e -> e.subject().equals("default/serve"))
        .findFirst().orElseThrow().message();
  }

  @Test
  void theNodeThatPulledTheImageDrawsTheNextReplica() {
    // 9 GiB on one node of four: 9 GiB x 1/4 is above the 1000 MB cap, so node-3 scores 100.
    assertThat(whereServeLands(Map.of(VLLM, 9L * 1024 * 1024 * 1024))).contains("node-3");
  }

  @Test
  void withoutASizeTheImageWeighsNothingAndLeastAllocatedSendsTheReplicaElsewhere() {
    assertThat(whereServeLands(Map.of())).doesNotContain("node-3");
  }
}
