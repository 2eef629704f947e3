package io.gpufleet.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.engine.deviceplugin.GpuOperator;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.SimulationSettings;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.testing.Objects;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DevicePluginScenarioTest {

  static final SimulationSettings FULL = SimulationSettings.DEFAULTS
      .withInvariants(SimulationSettings.InvariantMode.FULL);

  static final GpuOperator CONFIGS = GpuOperator.DEFAULTS.withConfigs(NamedConfigs.of(Map.of(
      "default", DevicePluginConfig.DEFAULT, "ts4", DevicePluginConfig.timeSliced(4, false)), Optional.empty()));

  static NodePool slicedPool() {
    NodePool p = Objects.withRequirement(Objects.gpuPool("gpu", List.of("g6"), "on-demand"),
        io.gpufleet.model.karpenter.NodePoolRequirement.in("karpenter.k8s.aws/instance-gpu-count", "1", "4"));
    return p.withTemplate(p.template().withLabels(Labels.of("nvidia.com/device-plugin.config", "ts4")));
  }

  /** A notebook-sized GPU workload: one GPU, half a core, 2 GiB. */
  static io.gpufleet.model.workload.Workload.Deployment small(String name, int replicas) {
    var d = Objects.inference(name, replicas, 1, Labels.EMPTY);
    return new io.gpufleet.model.workload.Workload.Deployment(d.meta(), replicas, d.selector(),
        new io.gpufleet.model.workload.PodTemplate(d.template().labels(), Labels.EMPTY,
            Objects.gpuSpec(1, "500m", "2Gi", "jupyter:1")), d.maxSurge(), d.maxUnavailable());
  }

  static Scenario sliced(AutoscalerSettings.GpuSizing sizing) {
    var small = small("notebook", 4);
    return Scenario.builder("time-sliced pool, " + sizing).settings(FULL)
        .devicePlugin(DevicePlugin.DEFAULTS.withOperator(CONFIGS))
        .autoscaler(AutoscalerSettings.DEFAULTS.withSizing(sizing))
        .object(ClusterObject.of(slicedPool()))
        .object(ClusterObject.of(small))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("notebook", Comparison.EQ, 4), Duration.ofMinutes(15)))
        .build();
  }

  @Test
  void theTwinSizesATimeSlicedPoolByReplicasWhereKarpenterCountsPhysicalGpus() {
    SimulationResult twin = Simulation.run(sliced(AutoscalerSettings.GpuSizing.ADVERTISED));
    assertThat(twin.violations()).isEmpty();
    assertThat(twin.allExpectationsPassed()).isTrue();
    assertThat(twin.record().of(RunRecord.Kind.NODECLAIM_LAUNCHED)).singleElement()
        .satisfies(e -> assertThat(e.message()).startsWith("g6.xlarge"));
    assertThat(twin.record().of(RunRecord.Kind.DEVICE_PLUGIN_REGISTERED)).singleElement()
        .satisfies(e -> assertThat(e.message()).isEqualTo("advertises {nvidia.com/gpu: 4} (config ts4)"));

    SimulationResult karpenter = Simulation.run(sliced(AutoscalerSettings.GpuSizing.PHYSICAL));
    assertThat(karpenter.violations()).isEmpty();
    // Karpenter packs four 1-GPU pods onto a four-GPU type: sixteen replicas for four pods.
    assertThat(karpenter.record().of(RunRecord.Kind.NODECLAIM_LAUNCHED)).singleElement()
        .satisfies(e -> assertThat(e.message()).startsWith("g6.12xlarge"));
    assertThat(karpenter.metrics().totalCost()).isGreaterThan(twin.metrics().totalCost() * 3);
    // The twin's run says its extension sized the node; Karpenter's says nothing of the kind.
    assertThat(twin.record().of(RunRecord.Kind.KARPENTER_EVENT)).anySatisfy(e -> assertThat(e.message())
        .startsWith("SizedByExtension: sizing: advertised (gpufleet extension) counted 4 nvidia.com/gpu on g6.xlarge"));
    assertThat(karpenter.record().of(RunRecord.Kind.KARPENTER_EVENT)).noneSatisfy(e -> assertThat(e.message())
        .contains("SizedBy"));
  }

  /** The 1-GPU types of the time-sliced pool, as a NodeOverlay tells Karpenter: four nvidia.com/gpu each. */
  static io.gpufleet.model.karpenter.NodeOverlay fourPerCard() {
    return new io.gpufleet.model.karpenter.NodeOverlay("ts4-1-gpu", List.of(
        io.gpufleet.model.karpenter.NodePoolRequirement.in("karpenter.sh/nodepool", "gpu"),
        io.gpufleet.model.karpenter.NodePoolRequirement.in("karpenter.k8s.aws/instance-gpu-count", "1")),
        Optional.empty(), Optional.empty(), io.gpufleet.model.resource.ResourceList.of("nvidia.com/gpu", "4"), 0);
  }

  @Test
  void byDefaultKarpentersSizingHoldsAndANodeOverlayIsItsOwnFix() {
    // No sizing set: Karpenter's (physical GPUs) is the default.
    assertThat(AutoscalerSettings.DEFAULTS.sizing()).isEqualTo(AutoscalerSettings.GpuSizing.PHYSICAL);
    Scenario.Builder base = Scenario.builder("time-sliced pool, overlay").settings(FULL)
        .devicePlugin(DevicePlugin.DEFAULTS.withOperator(CONFIGS))
        .object(ClusterObject.of(slicedPool()))
        .object(ClusterObject.of(fourPerCard()))
        .object(ClusterObject.of(small("notebook", 4)))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("notebook", Comparison.EQ, 4), Duration.ofMinutes(15)));

    // The NodeOverlay feature gate is off by default: the overlay is read, said to be ignored, and
    // Karpenter buys the 4-GPU type.
    SimulationResult gateOff = Simulation.run(base.build());
    assertThat(gateOff.record().of(RunRecord.Kind.NODECLAIM_LAUNCHED)).singleElement()
        .satisfies(e -> assertThat(e.message()).startsWith("g6.12xlarge"));
    assertThat(gateOff.record().of(RunRecord.Kind.KARPENTER_EVENT)).anySatisfy(e -> assertThat(e.message())
        .startsWith("NodeOverlay ignored: the NodeOverlay feature gate is off"));

    SimulationResult overlaid = Simulation.run(base.autoscaler(AutoscalerSettings.DEFAULTS.withNodeOverlay(true))
        .build());
    assertThat(overlaid.violations()).isEmpty();
    assertThat(overlaid.allExpectationsPassed()).isTrue();
    assertThat(overlaid.record().of(RunRecord.Kind.NODECLAIM_LAUNCHED)).singleElement()
        .satisfies(e -> assertThat(e.message()).startsWith("g6.xlarge"));
    assertThat(overlaid.record().of(RunRecord.Kind.KARPENTER_EVENT)).anySatisfy(e -> assertThat(e.message())
        .isEqualTo("NodeOverlayApplied: ts4-1-gpu changed g6.xlarge for NodePool gpu"));
    // Billed at the catalogue's price: the overlay changed what Karpenter saw, not what EC2 charges.
    assertThat(overlaid.metrics().totalCost()).isLessThan(gateOff.metrics().totalCost() / 3);
  }

  @Test
  void aConfigLabelChangeMakesThePluginReRegisterAndRunningPodsStay() {
    var node = NodeRef.named("l4");
    Scenario s = Scenario.builder("relabel").settings(FULL)
        .devicePlugin(DevicePlugin.DEFAULTS.withOperator(CONFIGS))
        .object(ClusterObject.of(Objects.adopted("l4", "gpu", "g6.xlarge", "on-demand")))
        .object(ClusterObject.of(Objects.withPolicy(Objects.gpuPool("gpu", List.of("g6"), "on-demand"),
            io.gpufleet.model.karpenter.ConsolidationPolicy.WHEN_EMPTY, Duration.ofHours(1))))
        .object(ClusterObject.of(small("a", 1)))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("a", Comparison.EQ, 1), Duration.ofMinutes(5)))
        .then(new ScenarioAction.Expect("one GPU", new Condition.ResourceAdvertised(node, "nvidia.com/gpu",
            Comparison.EQ, 1)))
        .then(new ScenarioAction.LabelNode(node, "nvidia.com/device-plugin.config", "ts4"))
        .then(new ScenarioAction.Expect("unchanged until the plugin restarts", new Condition.ResourceAdvertised(node,
            "nvidia.com/gpu", Comparison.EQ, 1)))
        .then(new ScenarioAction.Wait(Duration.ofMinutes(1)))
        .then(new ScenarioAction.Expect("four replicas", new Condition.ResourceAdvertised(node, "nvidia.com/gpu",
            Comparison.EQ, 4)))
        .then(new ScenarioAction.Scale("a", 4))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("a", Comparison.EQ, 4), Duration.ofMinutes(5)))
        .then(new ScenarioAction.Expect("all four share the one card", Condition.nodeCount(LabelSelector.EVERYTHING,
            Comparison.EQ, 1)))
        .then(new ScenarioAction.LabelNode(node, "nvidia.com/device-plugin.config", "default"))
        .then(new ScenarioAction.Wait(Duration.ofMinutes(1)))
        .then(new ScenarioAction.Expect("back to one, the four pods still running", new Condition.All(List.of(
            new Condition.ResourceAdvertised(node, "nvidia.com/gpu", Comparison.EQ, 1),
            Condition.readyPods("a", Comparison.EQ, 4)))))
        .build();
    SimulationResult r = Simulation.run(s);
    assertThat(r.violations()).isEmpty();
    assertThat(r.allExpectationsPassed()).as(r.expectations().toString()).isTrue();
    assertThat(r.finalState().nodes().get("l4").node().labels().get("nvidia.com/gpu.replicas")).contains("1");
  }

  @Test
  void aPluginThatNeverRegistersLeavesTheNodeUninitialisedUnlessTheExtensionTimesItOut() {
    Scenario.Builder b = Scenario.builder("broken plugin").settings(FULL)
        .devicePlugin(DevicePlugin.DEFAULTS.neverRegisteringOn(LabelSelector.matching(Labels.of(
            "node.kubernetes.io/instance-type", "g6.xlarge"))))
        .object(ClusterObject.of(Objects.gpuPool("gpu", List.of("g5", "g6"), "on-demand")))
        .object(ClusterObject.of(Objects.inference("llm", 1, 1, Labels.EMPTY)))
        .then(new ScenarioAction.Wait(Duration.ofHours(1)));
    SimulationResult karpenter = Simulation.run(b.build());
    assertThat(karpenter.violations()).isEmpty();
    // As in Karpenter (pain points 1 and 2): one node, never initialised, the pod pending for the hour.
    assertThat(karpenter.record().of(RunRecord.Kind.NODECLAIM_LAUNCHED)).hasSize(1);
    assertThat(karpenter.record().of(RunRecord.Kind.NODECLAIM_INITIALIZED)).isEmpty();
    assertThat(karpenter.finalState().pending().size()).isEqualTo(1);

    SimulationResult extended = Simulation.run(b.autoscaler(AutoscalerSettings.DEFAULTS
        .withInitializationTimeout(Optional.of(Duration.ofMinutes(10)))).build());
    assertThat(extended.violations()).isEmpty();
    // The gpufleet extension gives up on the node after 10 minutes and launches another, again and again.
    assertThat(extended.metrics().disruptionsByReason()).containsKey("InitializationTimeout");
    assertThat(extended.record().of(RunRecord.Kind.NODECLAIM_LAUNCHED).size()).isGreaterThan(1);
  }
}
