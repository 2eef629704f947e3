package io.gpufleet.engine.mig;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.deviceplugin.MigPartedConfig;
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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MigManagerTest {

  private static final MigPartedConfig CONFIG = MigPartedConfig.of(Map.of(
      "all-1g.10gb", List.of(MigPartedConfig.Entry.all(true, Map.of("1g.10gb", 7))),
      "all-disabled", List.of(MigPartedConfig.Entry.all(false, Map.of())),
      "impossible", List.of(MigPartedConfig.Entry.all(true, Map.of("3g.40gb", 1, "4g.40gb", 1, "1g.10gb", 1)))));

  private static Node node(String config, String state) {
    Labels labels = Labels.of(MigPartedConfig.CONFIG_LABEL, config, "nvidia.com/gpu.deploy.device-plugin", "true");
    if (state != null) {
      labels = labels.with(MigPartedConfig.STATE_LABEL, state);
    }
    return Node.of("p5", labels, List.of(), ResourceList.EMPTY);
  }

  private static Pod pod(String name, String resource) {
    ResourceList r = ResourceList.of(resource, "1");
    return new Pod(ObjectMeta.named(name), PodSpec.of(Container.of("c", "", r, r)));
  }

  private static GpuInventory h100() {
    return new GpuInventory("p5", GpuCatalog.builtIn().byId("H100-80GB").orElseThrow(), 1);
  }

  @Test
  void reconfiguresThroughPendingEvictionAndSuccess() {
    MigManager.Decision d = MigManager.reconcile(node("all-1g.10gb", null), h100(), CONFIG, MigLayout.NONE,
        List.of(pod("trainer", "nvidia.com/gpu"), pod("web", "cpu")), false);
    assertThat(d.finalState()).hasValue(MigConfigState.SUCCESS);
    assertThat(d.steps()).hasSize(6);
    assertThat(d.steps().get(0)).isEqualTo(new MigStep.SetLabel("nvidia.com/mig.config.state", "pending"));
    assertThat(d.steps().get(1)).isEqualTo(new MigStep.SetLabel("nvidia.com/gpu.deploy.device-plugin",
        "paused-for-mig-change"));
    assertThat(d.steps().get(2)).isEqualTo(new MigStep.EvictPod("default/trainer", "MIG reconfiguration to all-1g.10gb"));
    assertThat(d.steps().get(3)).isInstanceOf(MigStep.ApplyLayout.class);
    assertThat(d.layout().orElseThrow().instances(0)).hasSize(7);
    assertThat(d.steps().get(4)).isEqualTo(new MigStep.SetLabel("nvidia.com/gpu.deploy.device-plugin", "true"));
    assertThat(d.steps().get(5)).isEqualTo(new MigStep.SetLabel("nvidia.com/mig.config.state", "success"));
  }

  @Test
  void anImpossibleLayoutEvictsAndThenFails() {
    MigManager.Decision d = MigManager.reconcile(node("impossible", "success"), h100(), CONFIG, MigLayout.NONE,
        List.of(pod("trainer", "nvidia.com/gpu")), false);
    assertThat(d.finalState()).hasValue(MigConfigState.FAILED);
    assertThat(d.failure()).hasValueSatisfying(f -> assertThat(f).contains("needs 8 compute slices"));
    assertThat(d.steps()).contains(new MigStep.EvictPod("default/trainer", "MIG reconfiguration to impossible"));
    assertThat(d.steps().getLast()).isEqualTo(new MigStep.SetLabel("nvidia.com/mig.config.state", "failed"));
    assertThat(d.layout()).isEmpty();
  }

  @Test
  void theDrainComesFirstAndTheLayoutAfterMigPartedRan() {
    MigManager.Decision d = MigManager.reconcile(node("all-1g.10gb", null), h100(), CONFIG, MigLayout.NONE,
        List.of(pod("trainer", "nvidia.com/gpu"), pod("web", "cpu")), false);
    assertThat(d.drain()).containsExactly(new MigStep.SetLabel("nvidia.com/mig.config.state", "pending"),
        new MigStep.SetLabel("nvidia.com/gpu.deploy.device-plugin", "paused-for-mig-change"),
        new MigStep.EvictPod("default/trainer", "MIG reconfiguration to all-1g.10gb"));
    assertThat(d.finish()).first().isInstanceOf(MigStep.ApplyLayout.class);
    assertThat(d.finish().getLast()).isEqualTo(new MigStep.SetLabel("nvidia.com/mig.config.state", "success"));
    MigManager.Decision failed = MigManager.reconcile(node("impossible", "success"), h100(), CONFIG, MigLayout.NONE,
        List.of(pod("trainer", "nvidia.com/gpu")), false);
    assertThat(failed.drain()).contains(new MigStep.EvictPod("default/trainer", "MIG reconfiguration to impossible"));
    assertThat(failed.finish()).doesNotHaveAnyElementsOfTypes(MigStep.ApplyLayout.class)
        .last().isEqualTo(new MigStep.SetLabel("nvidia.com/mig.config.state", "failed"));
  }

  @Test
  void aConfigTheFileDoesNotHoldFailsAtOnceWithoutDraining() {
    MigManager.Decision d = MigManager.reconcile(node("no-such-config", "success"), h100(), CONFIG, MigLayout.NONE,
        List.of(pod("trainer", "nvidia.com/gpu")), false);
    assertThat(d.steps()).containsExactly(new MigStep.SetLabel("nvidia.com/mig.config.state", "failed"));
    assertThat(d.drain()).isEmpty();
    assertThat(d.failure()).hasValueSatisfying(f -> assertThat(f).contains("no entry named \"no-such-config\""));
  }

  @Test
  void anAppliedConfigIsLeftAlone() {
    MigLayout applied = MigManager.reconcile(node("all-1g.10gb", null), h100(), CONFIG, MigLayout.NONE, List.of(), false)
        .layout().orElseThrow();
    MigManager.Decision again = MigManager.reconcile(node("all-1g.10gb", "success"), h100(), CONFIG, applied, List.of(),
        false);
    assertThat(again.steps()).isEmpty();
  }

  @Test
  void aModeFlipRebootsWhereThePlatformNeedsIt() {
    MigManager.Decision d = MigManager.reconcile(node("all-1g.10gb", null), h100(), CONFIG, MigLayout.NONE, List.of(),
        true);
    assertThat(d.steps()).contains(new MigStep.SetLabel("nvidia.com/mig.config.state", "rebooting"), new MigStep.Reboot());
  }

  @Test
  void noLabelNoAction() {
    Node plain = Node.of("p5", Labels.EMPTY, List.of(), ResourceList.EMPTY);
    assertThat(MigManager.reconcile(plain, h100(), CONFIG, MigLayout.NONE, List.of(), false).configName())
        .isEqualTo(Optional.empty());
  }
}
