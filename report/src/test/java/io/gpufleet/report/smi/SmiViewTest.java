package io.gpufleet.report.smi;

import io.gpufleet.engine.deviceplugin.DeviceAllocation;
import io.gpufleet.engine.deviceplugin.DevicePlugin;
import io.gpufleet.engine.deviceplugin.NodeDevices;
import io.gpufleet.engine.mig.LayoutPlan;
import io.gpufleet.engine.mig.MigConfigPlanner;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.MigPartedConfig;
import io.gpufleet.model.deviceplugin.MigStrategy;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.gpu.MigLayout;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.report.Golden;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SmiViewTest {

  static Pod pod(String name, String resource, int n) {
    ResourceList r = ResourceList.of(resource, Integer.toString(n));
    return new Pod(ObjectMeta.named(name), PodSpec.of(Container.of("main", "img", r, r)));
  }

  static NodeDevices run(NodeDevices state, Pod... pods) {
    for (Pod p : pods) {
      if (DevicePlugin.allocate(state, p) instanceof DeviceAllocation.Result.Granted g) {
        state = g.next();
      }
    }
    return state;
  }

  static Node node(String name) {
    return Node.of(name, Labels.EMPTY, List.of(), ResourceList.of("cpu", "8"));
  }

  @Test
  void timeSlicedCardListsEveryReplicaOnGpuZero() {
    GpuInventory inv = new GpuInventory("g5", GpuCatalog.builtIn().byId("A10G").orElseThrow(), 1);
    NodeDevices state = DevicePlugin.register(node("g5"), inv, DevicePluginConfig.timeSliced(4, false), MigLayout.NONE)
        .devices().orElseThrow();
    state = run(state, pod("a", "nvidia.com/gpu", 1), pod("b", "nvidia.com/gpu", 1), pod("c", "nvidia.com/gpu", 1),
        pod("d", "nvidia.com/gpu", 1));
    Golden.check("smi-a10g-time-slicing.txt", SmiView.render(List.of(state),
        List.of(new SmiView.Unplaced("default/e", "Pending", "0/1 nodes are available: 1 Insufficient nvidia.com/gpu."))));
  }

  @Test
  void migDevicesSitUnderTheirParent() {
    GpuInventory inv = new GpuInventory("p4de", GpuCatalog.builtIn().byId("A100-80GB").orElseThrow(), 2);
    MigLayout layout = ((LayoutPlan.Planned) MigConfigPlanner.plan(List.of(new MigPartedConfig.Entry(List.of(),
        java.util.Optional.of(List.of(1)), true, new java.util.TreeMap<>(Map.of("3g.40gb", 2)))), inv, MigLayout.NONE))
        .layout();
    NodeDevices state = DevicePlugin.register(node("p4de"), inv, DevicePluginConfig.mig(MigStrategy.MIXED), layout)
        .devices().orElseThrow();
    state = run(state, pod("trainer", "nvidia.com/gpu", 1), pod("infer", "nvidia.com/mig-3g.40gb", 1));
    Golden.check("smi-a100-mig-mixed.txt", SmiView.render(List.of(state), List.of()));
  }

  /** What the report did before it asked for a head: the whole view, cut after {@code bound} lines. */
  static SmiView.Head cut(String whole, int bound) {
    String[] lines = whole.split("\n", -1);
    if (lines.length - 1 <= bound) {
      return new SmiView.Head(whole, 0);
    }
    return new SmiView.Head(String.join("\n", java.util.Arrays.asList(lines).subList(0, bound)) + "\n",
        lines.length - 1 - bound);
  }

  @Test
  void headIsTheWholeViewCutAfterItsLines() {
    GpuInventory inv = new GpuInventory("g5", GpuCatalog.builtIn().byId("A10G").orElseThrow(), 1);
    NodeDevices box = run(DevicePlugin.register(node("g5"), inv, DevicePluginConfig.timeSliced(2, false),
        MigLayout.NONE).devices().orElseThrow(), pod("a", "nvidia.com/gpu", 1));
    java.util.SplittableRandom random = new java.util.SplittableRandom(33);
    for (int trial = 0; trial < 200; trial++) {
      List<NodeDevices> nodes = random.nextBoolean() ? List.of(box) : List.of();
      List<SmiView.Unplaced> unplaced = new java.util.ArrayList<>();
      int n = random.nextInt(0, 40);
      for (int i = 0; i < n; i++) {
        String message = "0/" + random.nextInt(1, 1000) + " nodes are available" + "!".repeat(random.nextInt(0, 30))
            + (random.nextInt(50) == 0 ? "\nsecond line" : "");
        unplaced.add(new SmiView.Unplaced("default/p-" + "x".repeat(random.nextInt(0, 20)) + i,
            random.nextInt(10) == 0 ? "Failed" : "Pending", message));
      }
      String whole = SmiView.render(nodes, List.of(), unplaced, io.gpufleet.report.table.Wrap.UNLIMITED);
      int bound = random.nextInt(0, 60);
      org.junit.jupiter.api.Assertions.assertEquals(cut(whole, bound),
          SmiView.render(nodes, List.of(), unplaced, io.gpufleet.report.table.Wrap.UNLIMITED, bound),
          "trial " + trial + ", bound " + bound);
    }
  }
}
