package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.state.NodeState;
import org.junit.jupiter.api.Test;

/**
 * {@code instanceStorePolicy: RAID0} end to end: a model server that keeps its weights on local disk
 * (200Gi of {@code ephemeral-storage}, one GPU) fits a g6.xlarge only when the node class mounts the
 * instance store (250G of NVMe) as ephemeral storage ({@code A:pkg/providers/instancetype/types.go}
 * ephemeralStorage); on the default 20Gi root volume nothing holds it.
 */
class InstanceStoreScenarioTest {

  static SimulationResult run(String nodeClassSpec) {
    return NodeClassScenarioTest.play(NodeClassScenarioTest.scenario(nodeClassSpec, "g6.xlarge",
        "vllm/vllm-openai:v0.6.3", "{requests: {cpu: \"2\", ephemeral-storage: 200Gi}, limits: {nvidia.com/gpu: 1}}",
        """
          - title: wait
            actions:
            - wait: 15m
        """));
  }

  @Test
  void withRaid0TheInstanceStoreIsTheNodesEphemeralStorageAndThePodFits() {
    SimulationResult r = run("{instanceStorePolicy: RAID0}");
    assertThat(r.violations()).isEmpty();
    NodeState node = r.finalState().nodes().values().stream().findFirst().orElseThrow();
    long store = 250L * 1_000_000_000L;
    assertThat(node.node().allocatable().getOrZero(ResourceName.EPHEMERAL_STORAGE).value())
        .isEqualTo(store - (1L << 30) - (long) Math.ceil(store / 100.0 * 10));
    assertThat(r.finalState().pods().get("default/p").node()).contains(node.name());
  }

  @Test
  void onTheDefaultRootVolumeNothingHoldsIt() {
    SimulationResult r = run("{role: KarpenterNodeRole}");
    assertThat(r.finalState().nodes().size()).isZero();
    assertThat(r.record().of(RunRecord.Kind.KARPENTER_EVENT)).anySatisfy(e -> assertThat(e.message())
        .startsWith("FailedScheduling").contains("ephemeral-storage"));
  }

  @Test
  void anotherPolicyIsRefusedAtItsLine() {
    assertThatThrownBy(() -> run("{instanceStorePolicy: RAID1}")).isInstanceOf(ManifestException.class)
        .hasMessageContaining("s.yaml:9:")
        .hasMessageContaining("instanceStorePolicy: expected RAID0, found \"RAID1\"");
  }
}
