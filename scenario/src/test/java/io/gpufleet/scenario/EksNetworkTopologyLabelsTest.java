package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.cloud.InstanceLabels;
import io.gpufleet.model.cloud.NetworkTopologyLabels;
import io.gpufleet.model.node.Node;
import io.gpufleet.sim.Checkpoint;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Karpenter's p5.48xlarge nodes in {@code capacity-block-training.yaml} register with EKS's
 * {@code topology.k8s.aws/network-node-layer-1..3} labels (the AWS cloud controller manager's, from
 * DescribeInstanceTopology), two instances of one zone under one layer-3 node; other types get none.
 */
class EksNetworkTopologyLabelsTest {

  @Test
  void launchedP5NodesCarryTheNetworkNodeLabels() throws Exception {
    Path file = CapacityBlockTrainingExampleTest.FILE;
    ScenarioFile f = ScenarioReader.read(file.getFileName().toString(), Files.readString(file),
        ScenarioSources.directory(file.getParent()));
    SimulationResult result = Simulation.run(f.scenario());
    List<Node> nodes = result.checkpoints().stream().map(Checkpoint::state)
        .flatMap(s -> s.nodes().values().stream()).map(n -> n.node()).distinct().toList();
    List<Node> p5 = nodes.stream().filter(n -> n.labels().get(InstanceLabels.INSTANCE_TYPE).orElse("")
        .equals("p5.48xlarge")).toList();
    assertThat(p5).isNotEmpty().allSatisfy(n -> assertThat(n.labels().map().keySet()).contains(
        NetworkTopologyLabels.LAYER_1, NetworkTopologyLabels.LAYER_2, NetworkTopologyLabels.LAYER_3));
    assertThat(p5.stream().map(n -> n.labels().get(NetworkTopologyLabels.LAYER_3).orElseThrow()).distinct())
        .as("the first instances of a zone share a layer-3 node").hasSize(1);
    assertThat(nodes).filteredOn(n -> !NetworkTopologyLabels.described(n.labels().get(InstanceLabels.INSTANCE_TYPE)
        .orElse(""))).allSatisfy(n -> assertThat(n.labels().has(NetworkTopologyLabels.LAYER_1)).isFalse());
  }
}
