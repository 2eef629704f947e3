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
}
