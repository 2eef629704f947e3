package io.gpufleet.autoscaler.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.provisioning.Launcher;
import io.gpufleet.autoscaler.testing.Fixtures;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class InitializationTest {

  @Test
  void aGpuNodeIsNotInitialisedUntilItsGpuRegistersAndStartupTaintsAreGone() {
    var pool = Fixtures.gpuPool("gpu", "g6");
    pool = pool.withTemplate(pool.template().withStartupTaints(List.of(Taint.of("agent", "", TaintEffect.NO_SCHEDULE))));
    var type = InstanceCatalog.builtIn().require("g6.xlarge");
    NodeClaim claim = Launcher.nodeClaim(pool, type, type.offerings().getFirst(),
        ResourceList.of("cpu", "1", "nvidia.com/gpu", "1"), Instant.EPOCH, new SplittableRandom(1));
    Node notReady = Node.of("n", Labels.EMPTY, List.of(Taint.of("node.kubernetes.io/not-ready", "",
        TaintEffect.NO_SCHEDULE)), ResourceList.of("cpu", "3920m", "nvidia.com/gpu", "0"));
    assertThat(NodeClaimLifecycle.initializationBlocker(claim, notReady)).contains("NodeNotReady");
    Node startup = notReady.withTaints(List.of(Taint.of("agent", "", TaintEffect.NO_SCHEDULE)));
    assertThat(NodeClaimLifecycle.initializationBlocker(claim, startup)).contains("StartupTaintsExist");
    Node noGpu = startup.withTaints(List.of());
    assertThat(NodeClaimLifecycle.initializationBlocker(claim, noGpu))
        .contains("Resource \"nvidia.com/gpu\" was requested but not registered");
    Node ready = noGpu.withResources(ResourceList.of("cpu", "4", "nvidia.com/gpu", "1"),
        ResourceList.of("cpu", "3920m", "nvidia.com/gpu", "1"));
    assertThat(NodeClaimLifecycle.initializationBlocker(claim, ready)).isEmpty();
  }
}
