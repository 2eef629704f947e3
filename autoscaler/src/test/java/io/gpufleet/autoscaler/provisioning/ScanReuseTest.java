package io.gpufleet.autoscaler.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings.GpuSizing;
import io.gpufleet.autoscaler.gpu.NvidiaDevicePlugin;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A round whose pods go on scanning the nodes where an earlier pod asking the same room, tolerations,
 * node selector and affinity stopped, and pass over the planned claims that had no room left for such a
 * pod, whichever spec object each has (as each Job's pods have their own template), plans what the round
 * that tries every node and claim for every pod plans: seeded fleets of initialised, in-flight and
 * deleting nodes, pods of a few shapes each spread over several equal but distinct specs, many of them
 * filling the nodes and the new claims before the later ones come.
 */
class ScanReuseTest {

  private final ProvisioningModel model = ProvisioningModel.of(List.of(RoundNodesTest.POOL),
      InstanceCatalog.builtIn(), List.of(), NvidiaDevicePlugin.DEFAULTS, GpuSizing.PHYSICAL);

  @Test
  void podsOfEqualSpecsResumingOneAnothersScansPlanAsPodsScanningEveryNode() {
    int placedOnExisting = 0;
    int sharedScans = 0;
    for (long seed = 1; seed <= 120; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      List<StateNode> nodes = RoundNodesTest.nodes(4 + r.nextInt(20), r);
      List<PodSpec> shapes = new ArrayList<>();
      for (int i = 1 + r.nextInt(4); i > 0; i--) {
        shapes.add(RoundNodesTest.pod("s", RoundNodesTest.TYPES, r).spec());
      }
      List<Pod> pods = new ArrayList<>();
      List<PodSpec> seen = new ArrayList<>();
      for (int i = 5 + r.nextInt(60); i > 0; i--) {
        PodSpec shape = shapes.get(r.nextInt(shapes.size()));
        // An equal spec, another object: a copy of the shape as another Job's template would give.
        PodSpec spec = r.nextInt(3) == 0 ? shape : shape.withTolerations(List.copyOf(shape.tolerations()));
        assertThat(spec).isEqualTo(shape);
        if (seen.stream().anyMatch(s -> s != spec && s.equals(spec))) {
          sharedScans++;
        }
        seen.add(spec);
        pods.add(RoundNodesTest.pod("p" + i, RoundNodesTest.TYPES, r).withSpec(spec));
      }
      ProvisioningPlan every = new ProvisioningRound(model, nodes, List.of(), OfferingAvailability.ALL,
          RoundNodesTest.T0, new NodeBases(), false).run(pods);
      ProvisioningPlan resumed = new ProvisioningRound(model, nodes, List.of(), OfferingAvailability.ALL,
          RoundNodesTest.T0, new NodeBases(), true).run(pods);
      assertThat(List.copyOf(resumed.onExisting().entrySet())).as("seed %d", seed)
          .isEqualTo(List.copyOf(every.onExisting().entrySet()));
      assertThat(resumed.newClaims()).as("seed %d", seed).isEqualTo(every.newClaims());
      assertThat(List.copyOf(resumed.errors().entrySet())).as("seed %d", seed)
          .isEqualTo(List.copyOf(every.errors().entrySet()));
      placedOnExisting += every.onExisting().size();
    }
    // The fleets must take many pods, and pods of distinct but equal specs must follow one another.
    assertThat(placedOnExisting).isGreaterThan(500);
    assertThat(sharedScans).isGreaterThan(1000);
  }
}
