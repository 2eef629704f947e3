package io.gpufleet.report.node;

import io.gpufleet.engine.deviceplugin.DevicePlugin;
import io.gpufleet.engine.deviceplugin.Registration;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.gpu.MigLayout;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.report.Golden;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NodeDescriptionTest {

  @Test
  void describesAnMpsNodeLikeKubectl() {
    Node n = Node.of("l4-1", Labels.of("nvidia.com/device-plugin.config", "mps4", "node.kubernetes.io/instance-type",
        "g6.xlarge"), List.of(Taint.of("nvidia.com/gpu", "true", TaintEffect.NO_SCHEDULE)),
        ResourceList.of("cpu", "4", "memory", "16Gi", "pods", "58"));
    GpuInventory inv = new GpuInventory("l4-1", GpuCatalog.builtIn().byId("L4").orElseThrow(), 1);
    NamedConfigs configs = NamedConfigs.of(Map.of("mps4", DevicePluginConfig.mpsShared(4)), Optional.empty());
    NamedConfigs.Selection selection = configs.select(n.labels());
    Registration r = DevicePlugin.register(n, inv, selection.config(), MigLayout.NONE);
    Golden.check("describe-l4-mps.txt", NodeDescription.render(r, inv, "label nvidia.com/gpu.product", selection));
  }
}
