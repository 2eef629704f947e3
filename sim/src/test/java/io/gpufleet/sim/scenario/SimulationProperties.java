package io.gpufleet.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.engine.deviceplugin.GpuOperator;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.SimulationSettings;
import io.gpufleet.sim.testing.Objects;
import io.gpufleet.testing.property.Gen;
import io.gpufleet.testing.property.Property;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Whole simulations drawn from a seed: NodePools with random policies and limits, services with
 * PDBs, some pods marked do-not-disrupt, scale-ups and scale-downs, spot interruptions drawn from a
 * rate and sent by hand, config-label changes, template drift. Every invariant is checked after
 * every event; none may break, and the same seed must give the same run.
 */
class SimulationProperties {

  static final GpuOperator PLUGIN = GpuOperator.DEFAULTS.withConfigs(NamedConfigs.of(Map.of(
      "default", DevicePluginConfig.DEFAULT, "ts2", DevicePluginConfig.timeSliced(2, false)), Optional.empty()));

  static Scenario draw(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<String> families = List.of("g5", "g6", "g4dn");
    ConsolidationPolicy[] policies = {ConsolidationPolicy.WHEN_EMPTY, ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED};
    Scenario.Builder b = Scenario.builder("random " + seed).seed(seed)
        .settings(SimulationSettings.DEFAULTS.withInvariants(SimulationSettings.InvariantMode.FULL)
            .withSpotInterruptionsPerHour(r.nextInt(3) == 0 ? 0.3 : 0))
        .devicePlugin(DevicePlugin.DEFAULTS.withOperator(PLUGIN))
        .autoscaler(AutoscalerSettings.DEFAULTS.withSizing(r.nextBoolean() ? AutoscalerSettings.GpuSizing.ADVERTISED
            : AutoscalerSettings.GpuSizing.PHYSICAL));
    NodePool pool = Objects.gpuPool("gpu", List.of(families.get(r.nextInt(3)), families.get(r.nextInt(3))),
        r.nextBoolean() ? new String[] {"spot", "on-demand"} : new String[] {"on-demand"});
    pool = Objects.withPolicy(pool, policies[r.nextInt(2)], Duration.ofMinutes(r.nextInt(3) * 5));
    if (r.nextBoolean()) {
      pool = pool.withLimits(ResourceList.of("nvidia.com/gpu", Integer.toString(4 + r.nextInt(12))));
    }
    if (r.nextBoolean()) {
      pool = Objects.withRequirement(pool, NodePoolRequirement.in("karpenter.k8s.aws/instance-gpu-count", "1", "4"));
    }
    b.object(ClusterObject.of(pool));
    int services = 1 + r.nextInt(3);
    for (int i = 0; i < services; i++) {
      String name = "svc" + i;
      Workload.Deployment d = Objects.inference(name, 1 + r.nextInt(3), 1 + r.nextInt(2), Labels.of(
          "gpufleet.io/requests-per-second", "10", "gpufleet.io/request-duration", "2s"));
      if (r.nextInt(4) == 0) {
        d = Objects.withPodAnnotations(d, Labels.of("karpenter.sh/do-not-disrupt", "true"));
      }
      b.object(ClusterObject.of(d));
      if (r.nextBoolean()) {
        b.object(ClusterObject.of(Objects.minAvailable(name + "-pdb", name, 1)));
      }
    }
    int steps = 4 + r.nextInt(6);
    for (int s = 0; s < steps; s++) {
      b.then(new ScenarioAction.Wait(Duration.ofMinutes(5 + r.nextInt(40))));
      switch (r.nextInt(5)) {
        case 0, 1 -> b.then(new ScenarioAction.Scale("svc" + r.nextInt(services), r.nextInt(5)));
        case 2 -> b.then(ScenarioAction.Interrupt.spot(NodeRef.hosting("svc" + r.nextInt(services),
            r.nextInt(2))));
        case 3 -> b.then(new ScenarioAction.LabelNode(NodeRef.selected(LabelSelector.EVERYTHING, r.nextInt(3)),
            "nvidia.com/device-plugin.config", r.nextBoolean() ? "ts2" : "default"));
        default -> b.then(new ScenarioAction.Apply(List.of(ClusterObject.of(pool.withTemplate(
            pool.template().withLabels(Labels.of("revision", Integer.toString(s))))))));
      }
    }
    b.then(new ScenarioAction.Wait(Duration.ofMinutes(30)));
    return b.build();
  }

  @Test
  void noInvariantBreaksInAnyRun() {
    Property.check(20261206L, 25, Gen.longs(1, 1_000_000), seed -> {
      SimulationResult r = Simulation.run(draw(seed));
      assertThat(r.violations()).as("seed " + seed).isEmpty();
    });
  }

  @Test
  void aSeedReplaysExactly() {
    Property.check(20261206L, 5, Gen.longs(1, 1_000_000),
        seed -> assertThat(Simulation.run(draw(seed)).record()).isEqualTo(Simulation.run(draw(seed)).record()));
  }

}
