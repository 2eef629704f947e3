package io.gpufleet.sim.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.model.label.Labels;
import io.gpufleet.sim.ImageListener;
import io.gpufleet.sim.ProgressListener;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationSettings;
import io.gpufleet.sim.kernel.Kernel;
import io.gpufleet.sim.scenario.ClusterObject;
import io.gpufleet.sim.scenario.DevicePlugin;
import io.gpufleet.sim.scenario.Scenario;
import io.gpufleet.sim.scenario.ScenarioAction;
import io.gpufleet.sim.testing.Objects;
import io.gpufleet.testing.property.Gen;
import io.gpufleet.testing.property.Property;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Karpenter's view, followed from image to image by what changed, equals the view built from
 * scratch of every image of a run with launches, scale-downs, consolidation and spot interruptions.
 */
class ViewBuilderTest {

  // A fixed seed: the same four runs every build (a random one once gave a run of 88 images).
  @Test
  void aViewFollowedByChangesEqualsOneBuiltFromScratch() {
    Property.check(20261130L, 4, Gen.longs(1, 10_000), this::aViewFollowedByChangesEqualsOneBuiltFromScratch);
  }

  private void aViewFollowedByChangesEqualsOneBuiltFromScratch(long seed) {
    Scenario churn = Scenario.builder("churn").seed(seed)
        .settings(SimulationSettings.DEFAULTS.withSpotInterruptionsPerHour(2))
        .object(ClusterObject.of(Objects.gpuPool("gpu", List.of("g5", "g6"))))
        .object(ClusterObject.of(Objects.inference("a", 3, 1, Labels.EMPTY)))
        .object(ClusterObject.of(Objects.inference("b", 2, 2, Labels.EMPTY)))
        .then(new ScenarioAction.Wait(Duration.ofMinutes(40)))
        .then(new ScenarioAction.Scale("a", 9))
        .then(new ScenarioAction.Wait(Duration.ofMinutes(40)))
        .then(new ScenarioAction.Scale("b", 0))
        .then(new ScenarioAction.Scale("a", 2))
        .then(new ScenarioAction.Wait(Duration.ofHours(1)))
        .build();
    List<ImageListener.Image> images = new ArrayList<>();
    Simulation.run(churn, ProgressListener.NONE, images::add);
    assertThat(images).hasSizeGreaterThan(50);
    ApiServer api = new ApiServer(new Kernel(images.getFirst().time()), SimulationSettings.DEFAULTS,
        DevicePlugin.DEFAULTS, images.getFirst().state());
    ViewBuilder following = new ViewBuilder(api);
    int sameClaimsAndNodes = 0;
    for (int i = 0; i < images.size(); i++) {
      ImageListener.Image image = images.get(i);
      ClusterView followed = following.view(image.state(), image.time());
      ClusterView fresh = new ViewBuilder(api).view(image.state(), image.time());
      assertThat(followed.nodes()).as("image %d", i).isEqualTo(fresh.nodes());
      assertThat(followed.byName()).as("image %d", i).isEqualTo(fresh.byName());
      assertThat(followed.pendingPods()).isEqualTo(fresh.pendingPods());
      assertThat(followed.daemonSets()).isEqualTo(fresh.daemonSets());
      if (i > 0) {
        // What following relies on: a node whose scheduler entry changed has a new NodeState too.
        var before = images.get(i - 1).state();
        for (var info : image.state().snapshot().nodes()) {
          var was = before.snapshot().node(info.name());
          if (was.isPresent() && was.get() != info) {
            assertThat(image.state().nodes().get(info.name())).as("image %d, node %s", i, info.name())
                .isNotSameAs(before.nodes().get(info.name()));
          }
        }
      }
      if (i > 0 && images.get(i - 1).state().claims().keys().equals(image.state().claims().keys())
          && images.get(i - 1).state().nodes().keys().equals(image.state().nodes().keys())) {
        sameClaimsAndNodes++;
      }
    }
    // Most images change no NodeClaim or Node set: those views were followed, not rebuilt.
    assertThat(sameClaimsAndNodes).isGreaterThan(images.size() / 2);
  }
}
