package io.gpufleet.engine.deviceplugin;

import static io.gpufleet.engine.deviceplugin.Fixtures.gpuPod;
import static io.gpufleet.engine.deviceplugin.Fixtures.inventory;
import static io.gpufleet.engine.deviceplugin.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.BatchPlacement;
import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.Scheduler;
import io.gpufleet.engine.scheduler.SchedulerProfile;
import io.gpufleet.model.affinity.NodeAffinity;
import io.gpufleet.model.affinity.NodeSelector;
import io.gpufleet.model.affinity.NodeSelectorTerm;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.InstanceTypeGpus;
import io.gpufleet.model.gpu.MigLayout;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The scheduler sees what the device plugin advertises and what GFD labels. */
class SchedulingOnRegisteredNodesTest {

  private static BatchPlacement.Result place(List<Node> nodes, List<Pod> pods) {
    return BatchPlacement.place(pods, ClusterSnapshot.of(nodes), new Scheduler(SchedulerProfile.defaults()),
        new SplittableRandom(1), false);
  }

  @Test
  void aTimeSlicedA10gTakesFourPodsAndRefusesTheFifth() {
    Node a10g = DevicePlugin.register(node("g5"), inventory("g5", "A10G", 1), DevicePluginConfig.timeSliced(4, false),
        MigLayout.NONE).node();
    List<Pod> pods = List.of(gpuPod("p1", "nvidia.com/gpu", 1), gpuPod("p2", "nvidia.com/gpu", 1),
        gpuPod("p3", "nvidia.com/gpu", 1), gpuPod("p4", "nvidia.com/gpu", 1), gpuPod("p5", "nvidia.com/gpu", 1));
    BatchPlacement.Result r = place(List.of(a10g), pods);
    assertThat(r.outcomes().subList(0, 4)).allMatch(o -> o instanceof BatchPlacement.Outcome.Bound);
    assertThat(r.outcomes().get(4)).isInstanceOfSatisfying(BatchPlacement.Outcome.Pending.class,
        p -> assertThat(p.error().message()).isEqualTo("0/1 nodes are available: 1 Insufficient nvidia.com/gpu."));
  }

  @Test
  void selectorsOnGfdLabelsPickTheModel() {
    Node a10g = DevicePlugin.register(node("g5"), inventory("g5", "A10G", 1), DevicePluginConfig.DEFAULT,
        MigLayout.NONE).node();
    Node h100 = DevicePlugin.register(node("p5"), inventory("p5", "H100-80GB", 8), DevicePluginConfig.DEFAULT,
        MigLayout.NONE).node();
    Pod byProduct = gpuPod("by-product", "nvidia.com/gpu", 1);
    byProduct = byProduct.withSpec(byProduct.spec().withNodeSelector(Labels.of("nvidia.com/gpu.product", "NVIDIA-A10G")));
    Pod byMemory = gpuPod("by-memory", "nvidia.com/gpu", 1);
    byMemory = byMemory.withSpec(byMemory.spec().withNodeAffinity(new NodeAffinity(Optional.of(new NodeSelector(List.of(
        new NodeSelectorTerm(List.of(Requirement.gt("nvidia.com/gpu.memory", 40000)), List.of())))), List.of())));
    BatchPlacement.Result r = place(List.of(a10g, h100), List.of(byProduct, byMemory));
    assertThat(r.outcomes()).extracting(o -> ((BatchPlacement.Outcome.Bound) o).node()).containsExactly("g5", "p5");
  }

  @Test
  void findsGpusFromAnnotationLabelsOrInstanceType() {
    GpuCatalog catalog = GpuCatalog.builtIn();
    InstanceTypeGpus aws = type -> type.equals("g6.xlarge") ? Optional.of(new InstanceTypeGpus.Attached("L4", 1))
        : Optional.empty();
    Node annotated = new Node(ObjectMeta.clusterScoped("a", Labels.EMPTY, Labels.of("gpufleet.io/gpus", "NVIDIA-A10G:2")),
        List.of(), false, null, null, Optional.empty(), List.of());
    Node labelled = node("b").withLabels(Labels.of("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3-SHARED",
        "nvidia.com/gpu.count", "8"));
    Node typed = node("c").withLabels(Labels.of("node.kubernetes.io/instance-type", "g6.xlarge"));
    Node plain = node("d");
    Node unknown = node("e").withLabels(Labels.of("nvidia.com/gpu.product", "NVIDIA-K80"));
    assertThat(NodeGpus.of(annotated, catalog, aws)).isInstanceOfSatisfying(NodeGpus.Found.Gpus.class, g -> {
      assertThat(g.inventory().model().id()).isEqualTo("A10G");
      assertThat(g.inventory().count()).isEqualTo(2);
    });
    assertThat(NodeGpus.of(labelled, catalog, aws)).isInstanceOfSatisfying(NodeGpus.Found.Gpus.class,
        g -> assertThat(g.inventory().count()).isEqualTo(8));
    assertThat(NodeGpus.of(typed, catalog, aws)).isInstanceOfSatisfying(NodeGpus.Found.Gpus.class,
        g -> assertThat(g.inventory().model().id()).isEqualTo("L4"));
    assertThat(NodeGpus.of(typed, catalog, InstanceTypeGpus.NONE)).isInstanceOf(NodeGpus.Found.NoGpus.class);
    assertThat(NodeGpus.of(plain, catalog, aws)).isInstanceOf(NodeGpus.Found.NoGpus.class);
    // A product the catalogue lacks is read from the node (NodeGpusTest has the details), never refused.
    assertThat(NodeGpus.of(unknown, catalog, aws)).isInstanceOfSatisfying(NodeGpus.Found.Gpus.class,
        g -> assertThat(g.inventory().model().productLabel()).isEqualTo("NVIDIA-K80"));
  }
}
