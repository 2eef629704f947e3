package io.gpufleet.web.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.sim.scenario.ClusterObject;
import io.gpufleet.sim.scenario.Scenario;
import io.gpufleet.sim.scenario.ScenarioAction;
import io.gpufleet.web.Lab;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class KnobsTest {

  private static NodePool gpuPool(Scenario s) {
    return s.objects().stream().filter(o -> o instanceof ClusterObject.NodePoolObject)
        .map(o -> ((ClusterObject.NodePoolObject) o).nodePool()).findFirst().orElseThrow();
  }

  @Test
  void turnsTheNodePoolsAndTheAutoscalersKnobsAndNothingElse() {
    Scenario lab = Lab.lab().scenario();
    Knobs k = Knobs.read(Map.of("consolidationPolicy", "WhenEmptyOrUnderutilized", "consolidateAfter", "Never",
        "gpuLimit", "2", "capacityTypes", "spot", "sizing", "advertised", "timeSlicingReplicas", " "));
    Scenario turned = k.apply(lab);
    NodePool pool = gpuPool(turned);
    assertThat(pool.disruption().consolidationPolicy()).isEqualTo(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED);
    assertThat(pool.disruption().consolidateAfter()).isEmpty();
    assertThat(pool.limits().get(ResourceName.NVIDIA_GPU)).contains(Quantity.of(2));
    assertThat(pool.template().requirements()).filteredOn(r -> r.key().equals(KarpenterLabels.CAPACITY_TYPE))
        .extracting(NodePoolRequirement::values).containsExactly(java.util.List.of("spot"));
    assertThat(turned.autoscaler().sizing()).isEqualTo(AutoscalerSettings.GpuSizing.ADVERTISED);
    // The blank knob is left as the scenario has it: the plugin is the very same.
    assertThat(turned.devicePlugin()).isSameAs(lab.devicePlugin());
    assertThat(turned.timeline()).isEqualTo(lab.timeline());
    assertThat(k.describe()).containsEntry("consolidateAfter", "Never").containsEntry("capacityTypes", "spot")
        .doesNotContainKey("timeSlicingReplicas");
  }

  @Test
  void noKnobsChangeNothing() {
    Scenario lab = Lab.lab().scenario();
    assertThat(Knobs.NONE.apply(lab)).isEqualTo(lab);
    assertThat(Knobs.read(Map.of())).isEqualTo(Knobs.NONE);
  }

  @Test
  void aDurationIsReadAsKarpentersConsolidateAfter() {
    assertThat(Knobs.read(Map.of("consolidateAfter", "1h30m")).consolidateAfter())
        .contains(Optional.of(Duration.ofMinutes(90)));
  }

  /** The lab with a second NodePool, {@code gpu-spot}, a copy of its {@code gpu} pool. */
  private static Scenario twoPools() {
    Scenario lab = Lab.lab().scenario();
    java.util.List<ClusterObject> objects = new java.util.ArrayList<>(lab.objects());
    NodePool gpu = gpuPool(lab);
    objects.add(new ClusterObject.NodePoolObject(new NodePool("gpu-spot", gpu.template(), gpu.disruption(),
        gpu.limits(), gpu.weight())));
    return new Scenario(lab.name(), lab.start(), lab.seed(), lab.catalog(), objects, lab.devicePlugin(), lab.settings(),
        lab.autoscaler(), lab.timeline());
  }

  private static NodePool pool(Scenario s, String name) {
    return s.objects().stream().filter(o -> o instanceof ClusterObject.NodePoolObject p && p.nodePool().name().equals(name))
        .map(o -> ((ClusterObject.NodePoolObject) o).nodePool()).findFirst().orElseThrow();
  }

  @Test
  void nodePoolKnobsChangeOnlyTheNodePoolNamed() {
    Scenario two = twoPools();
    Scenario turned = Knobs.read(Map.of("gpuLimit", "2", "nodePool", "gpu-spot")).apply(two);
    assertThat(pool(turned, "gpu-spot").limits().get(ResourceName.NVIDIA_GPU)).contains(Quantity.of(2));
    assertThat(pool(turned, "gpu")).isEqualTo(pool(two, "gpu"));
  }

  @Test
  void withOneNodePoolTheNameMayBeLeftOutWithSeveralItMayNot() {
    Scenario lab = Lab.lab().scenario();
    assertThat(gpuPool(Knobs.read(Map.of("gpuLimit", "2")).apply(lab)).limits().get(ResourceName.NVIDIA_GPU))
        .contains(Quantity.of(2));
    assertThatThrownBy(() -> Knobs.read(Map.of("gpuLimit", "2")).apply(twoPools()))
        .hasMessage("nodePool: expected the NodePool to change, one of gpu, gpu-spot, found none");
    assertThatThrownBy(() -> Knobs.read(Map.of("gpuLimit", "2", "nodePool", "cpu")).apply(twoPools()))
        .hasMessage("nodePool: expected one of gpu, gpu-spot, found \"cpu\"");
    // A knob that is not the NodePool's needs no name.
    assertThat(Knobs.read(Map.of("sizing", "advertised")).apply(twoPools()).objects()).isEqualTo(twoPools().objects());
  }

  /** The lab whose {@code gpu-late} NodePool, a copy of its {@code gpu} pool, a step applies, then applies again. */
  private static Scenario aPoolAppliedLater() {
    Scenario lab = Lab.lab().scenario();
    NodePool late = new NodePool("gpu-late", gpuPool(lab).template(), gpuPool(lab).disruption(),
        gpuPool(lab).limits(), gpuPool(lab).weight());
    List<ScenarioAction> timeline = new ArrayList<>(lab.timeline());
    timeline.add(new ScenarioAction.Apply(List.of(new ClusterObject.NodePoolObject(late))));
    timeline.add(new ScenarioAction.Wait(Duration.ofMinutes(1)));
    timeline.add(new ScenarioAction.Apply(List.of(new ClusterObject.NodePoolObject(late))));
    return lab.withTimeline(timeline);
  }

  private static List<NodePool> applied(Scenario s, String name) {
    return s.timeline().stream().filter(a -> a instanceof ScenarioAction.Apply)
        .flatMap(a -> ((ScenarioAction.Apply) a).objects().stream())
        .filter(o -> o instanceof ClusterObject.NodePoolObject p && p.nodePool().name().equals(name))
        .map(o -> ((ClusterObject.NodePoolObject) o).nodePool()).toList();
  }

  @Test
  void aNodePoolAStepAppliesLaterIsOneTheKnobsMayNameAndEveryApplyOfItIsTurned() {
    Scenario later = aPoolAppliedLater();
    assertThat(Knobs.nodePools(later)).containsExactly("gpu", "gpu-late");
    Scenario turned = Knobs.read(Map.of("gpuLimit", "2", "nodePool", "gpu-late")).apply(later);
    assertThat(applied(turned, "gpu-late")).hasSize(2)
        .allSatisfy(p -> assertThat(p.limits().get(ResourceName.NVIDIA_GPU)).contains(Quantity.of(2)));
    // spec.cluster's pool is left as it was.
    assertThat(turned.objects()).isEqualTo(later.objects());
    // With two NodePools in the scenario, one must be named.
    assertThatThrownBy(() -> Knobs.read(Map.of("gpuLimit", "2")).apply(later))
        .hasMessage("nodePool: expected the NodePool to change, one of gpu, gpu-late, found none");
  }

  @Test
  void aKnobOnASpecClusterPoolAlsoTurnsALaterApplyOfIt() {
    Scenario lab = Lab.lab().scenario();
    List<ScenarioAction> timeline = new ArrayList<>(lab.timeline());
    timeline.add(new ScenarioAction.Apply(List.of(new ClusterObject.NodePoolObject(gpuPool(lab)))));
    Scenario turned = Knobs.read(Map.of("gpuLimit", "3")).apply(lab.withTimeline(timeline));
    assertThat(applied(turned, "gpu")).singleElement()
        .satisfies(p -> assertThat(p.limits().get(ResourceName.NVIDIA_GPU)).contains(Quantity.of(3)));
    assertThat(gpuPool(turned).limits().get(ResourceName.NVIDIA_GPU)).contains(Quantity.of(3));
  }

  @Test
  void refusesUnknownKnobsAndValuesOutOfRange() {
    assertThatThrownBy(() -> Knobs.read(Map.of("replicas", "2"))).hasMessageContaining("knob: expected one of");
    assertThatThrownBy(() -> Knobs.read(Map.of("consolidationPolicy", "Balanced")))
        .hasMessageContaining("expected WhenEmpty or WhenEmptyOrUnderutilized");
    assertThatThrownBy(() -> Knobs.read(Map.of("gpuLimit", "1001"))).hasMessageContaining("from 0 to 1000");
    assertThatThrownBy(() -> Knobs.read(Map.of("consolidateAfter", "-5m"))).hasMessageContaining("Never or a duration");
  }
}
