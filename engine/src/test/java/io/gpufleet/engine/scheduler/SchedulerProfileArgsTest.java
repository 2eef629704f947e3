package io.gpufleet.engine.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.plugin.NodeResourcesBalancedAllocation;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.scheduling.SchedulerConfiguration;
import io.gpufleet.model.scheduling.SchedulerConfiguration.ResourceWeightSpec;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The plugin args of a KubeSchedulerConfiguration reach the plugins they configure. */
class SchedulerProfileArgsTest {

  private static SchedulerConfiguration config(List<ResourceWeightSpec> balanced, Set<String> ignored,
      Set<String> groups) {
    SchedulerConfiguration d = SchedulerConfiguration.defaults();
    return new SchedulerConfiguration(d.schedulerName(), 0, d.strategy(), d.resources(), d.shape(), Map.of(), Set.of(),
        balanced, ignored, groups);
  }

  private static final Pod DEVICE_POD = new Pod(ObjectMeta.named("p"), PodSpec.of(Container.of("c", "i",
      ResourceList.of("cpu", "1", "memory", "1Gi", "example.com/device", "1"),
      ResourceList.of("example.com/device", "1"))));
  private static final ClusterSnapshot CPU_NODE = ClusterSnapshot.of(List.of(Node.of("n", Labels.EMPTY, List.of(),
      ResourceList.of("cpu", "4", "memory", "8Gi", "pods", "110"))));

  @Test
  void ignoredResourcesAndGroupsLeaveThoseExtendedResourcesUnchecked() {
    var byName = new Scheduler(SchedulerProfile.of(config(SchedulerConfiguration.DEFAULT_RESOURCES,
        Set.of("example.com/device"), Set.of())));
    var byGroup = new Scheduler(SchedulerProfile.of(config(SchedulerConfiguration.DEFAULT_RESOURCES, Set.of(),
        Set.of("example.com"))));
    var strict = new Scheduler(SchedulerProfile.of(SchedulerConfiguration.defaults()));
    assertThat(byName.schedule(PodInfo.of(DEVICE_POD), CPU_NODE, new SplittableRandom(1)))
        .isInstanceOf(ScheduleResult.Scheduled.class);
    assertThat(byGroup.schedule(PodInfo.of(DEVICE_POD), CPU_NODE, new SplittableRandom(1)))
        .isInstanceOf(ScheduleResult.Scheduled.class);
    assertThat(((ScheduleResult.Unschedulable) strict.schedule(PodInfo.of(DEVICE_POD), CPU_NODE,
        new SplittableRandom(1))).error().message())
        .isEqualTo("0/1 nodes are available: 1 Insufficient example.com/device.");
  }

  @Test
  void balancedAllocationScoresTheConfiguredResourcesGpuIncluded() {
    var profile = SchedulerProfile.of(config(List.of(new ResourceWeightSpec("cpu", 1),
        new ResourceWeightSpec("memory", 1), new ResourceWeightSpec("nvidia.com/gpu", 1)), Set.of(), Set.of()));
    var balanced = (NodeResourcesBalancedAllocation) profile.scores().stream()
        .filter(s -> s.plugin() instanceof NodeResourcesBalancedAllocation).findFirst().orElseThrow().plugin();
    assertThat(balanced.resources()).containsExactly("cpu", "memory", "nvidia.com/gpu");
    // Node: 8 cpu, 32Gi, 4 GPUs; the pod asks 2 cpu, 8Gi, 4 GPUs: fractions 0.25, 0.25, 1.0.
    // mean 0.5, std = sqrt((0.0625 + 0.0625 + 0.25) / 3) = 0.3536 -> (1 - 0.3536) * 100 = 64.
    Node gpu = Node.of("g", Labels.EMPTY, List.of(),
        ResourceList.of("cpu", "8", "memory", "32Gi", "pods", "110", "nvidia.com/gpu", "4"));
    Pod pod = new Pod(ObjectMeta.named("p"), PodSpec.of(Container.of("c", "i",
        ResourceList.of("cpu", "2", "memory", "8Gi", "nvidia.com/gpu", "4"), ResourceList.of("nvidia.com/gpu", "4"))));
    assertThat(balanced.score(PodInfo.of(pod), NodeInfo.of(gpu))).isEqualTo(64);
    // With the default cpu and memory only, the GPU is not looked at: equal fractions score 100.
    assertThat(NodeResourcesBalancedAllocation.INSTANCE.score(PodInfo.of(pod), NodeInfo.of(gpu))).isEqualTo(100);
  }

  /** DynamicResources' score weight as the profile ends up with it after the plugin joins; 0 when it has none. */
  private static long draWeight(SchedulerProfile p) {
    SchedulerProfile withDra = p.withDynamicResources(new io.gpufleet.model.dra.DraObjects(List.of(), List.of(),
        List.of(), List.of()));
    assertThat(withDra.scores()).noneMatch(ws -> ws.plugin().getClass().getSimpleName().equals("DynamicResourcesWeight"));
    return withDra.scores().stream().filter(ws -> ws.plugin().pluginName().equals("DynamicResources"))
        .mapToLong(SchedulerProfile.WeightedScore::weight).sum();
  }

  @Test
  void dynamicResourcesScoresWithTheConfiguredWeightOrOneAndNotWhenDisabled() {
    SchedulerConfiguration d = SchedulerConfiguration.defaults();
    assertThat(draWeight(SchedulerProfile.defaults())).isEqualTo(1);
    assertThat(draWeight(SchedulerProfile.of(d))).isEqualTo(1);
    assertThat(draWeight(SchedulerProfile.of(new SchedulerConfiguration(d.schedulerName(), 0, d.strategy(),
        d.resources(), d.shape(), Map.of("DynamicResources", 5), Set.of(), d.balancedResources(),
        d.ignoredResources(), d.ignoredResourceGroups())))).isEqualTo(5);
    assertThat(draWeight(SchedulerProfile.of(new SchedulerConfiguration(d.schedulerName(), 0, d.strategy(),
        d.resources(), d.shape(), Map.of(), Set.of("DynamicResources"), d.balancedResources(),
        d.ignoredResources(), d.ignoredResourceGroups())))).isZero();
  }
}
