package io.gpufleet.engine.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.dra.CelDeviceSelector;
import io.gpufleet.engine.dra.DeviceSelector;
import io.gpufleet.engine.dra.DevicesInUse;
import io.gpufleet.engine.dra.DraState;
import io.gpufleet.engine.dra.PodClaims;
import io.gpufleet.engine.scheduler.plugin.DynamicResources;
import io.gpufleet.model.dra.Device;
import io.gpufleet.model.dra.DeviceClass;
import io.gpufleet.model.dra.DeviceRequest;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.PodResourceClaim;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.dra.ResourceClaimSpec;
import io.gpufleet.model.dra.ResourceSlice;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * DynamicResources allocates a pod's claims once per node per cycle: Score reads what Filter found
 * and PreScore reuses the state PreFilter read, as upstream's cycle state carries them.
 */
class DynamicResourcesCycleTest {

  private static final String DRIVER = "gpu.example.com";

  /** Counts the selector evaluations the allocator asks for: each allocation on a node evaluates its devices. */
  private static final class CountingSelector implements DeviceSelector {
    private final CelDeviceSelector cel = new CelDeviceSelector();
    int evaluations;

    @Override
    public CelDeviceSelector.Outcome evaluate(String expression, String driver, Device device) {
      evaluations++;
      return cel.evaluate(expression, driver, device);
    }
  }

  /** The claims of {@link #DRA}, none allocated; counts how often the plugin reads the state. */
  private static final class CountingSource implements DynamicResources.ClaimSource {
    int states;

    @Override
    public PodClaims.Resolution resolve(Pod pod) {
      return PodClaims.resolve(pod, DRA);
    }

    @Override
    public DraState state(ClusterSnapshot snapshot) {
      states++;
      return new DraState(Map.of(), Map.of(), DevicesInUse.NONE);
    }
  }

  private static final List<String> NODES = List.of("n1", "n2", "n3");
  private static final DraObjects DRA = new DraObjects(
      List.of(new DeviceClass("gpu", List.of("device.driver == '" + DRIVER + "'"))),
      List.of(claim("a"), claim("b")), List.of(), NODES.stream().map(DynamicResourcesCycleTest::slice).toList());

  private static ResourceClaim claim(String pod) {
    return new ResourceClaim("default", pod + "-gpu", new ResourceClaimSpec(List.of(
        new DeviceRequest("gpu", "gpu", List.of(), DeviceRequest.AllocationMode.EXACT_COUNT, 1))));
  }

  private static ResourceSlice slice(String node) {
    List<Device> devices = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      devices.add(new Device("gpu-" + i, Map.of(), Map.of()));
    }
    return new ResourceSlice(node + "-slice", DRIVER, node, Optional.of(node), devices);
  }

  private static PodInfo pod(String name) {
    Pod p = Fixtures.pod(name, "1", "1Gi", 0);
    return PodInfo.of(p.withSpec(p.spec().withResourceClaims(
        List.of(new PodResourceClaim.Named("gpu", name + "-gpu")))));
  }

  private static ClusterSnapshot snapshot() {
    return ClusterSnapshot.of(NODES.stream().map(n -> Fixtures.node(n, "4", "16Gi", 0, Labels.EMPTY)).toList());
  }

  @Test
  void aCycleAllocatesEachNodeOnceAndReadsTheStateOnce() {
    ClusterSnapshot snapshot = snapshot();
    PodInfo pod = pod("a");
    // One allocation per node, as Filter alone makes it.
    CountingSelector once = new CountingSelector();
    DynamicResources alone = new DynamicResources(DRA, new CountingSource(), once);
    for (NodeInfo n : snapshot.nodes()) {
      assertThat(alone.filter(pod, n).isSuccess()).isTrue();
    }
    assertThat(once.evaluations).isPositive();

    CountingSelector selector = new CountingSelector();
    CountingSource source = new CountingSource();
    DynamicResources plugin = new DynamicResources(DRA, source, selector);
    Scheduler scheduler = new Scheduler(SchedulerProfile.defaults().withDynamicResources(plugin));
    ScheduleResult result = scheduler.schedule(pod, snapshot, new SplittableRandom(1), 0, true);

    assertThat(result).isInstanceOf(ScheduleResult.Scheduled.class);
    assertThat(((ScheduleResult.Scheduled) result).feasibleNodes()).isEqualTo(NODES.size());
    assertThat(selector.evaluations).isEqualTo(once.evaluations);
    assertThat(source.states).isEqualTo(1);
  }

  @Test
  void aScorerIsTheFilteredCycleOnlyForTheSamePodAndSnapshot() {
    ClusterSnapshot snapshot = snapshot();
    CountingSource source = new CountingSource();
    DynamicResources plugin = new DynamicResources(DRA, source, new CountingSelector());
    PodInfo a = pod("a");

    plugin.forCycle(a, snapshot).orElseThrow();
    plugin.preScore(pod("b"), snapshot).orElseThrow();
    assertThat(source.states).as("another pod reads its own state").isEqualTo(2);
    plugin.preScore(a, snapshot()).orElseThrow();
    assertThat(source.states).as("another snapshot reads its own state").isEqualTo(3);
    plugin.preScore(a, snapshot).orElseThrow();
    assertThat(source.states).as("the filtered cycle is taken back").isEqualTo(3);
    plugin.preScore(a, snapshot).orElseThrow();
    assertThat(source.states).as("a cycle is taken back once").isEqualTo(4);
  }

  @Test
  void aPodWithoutClaimsIsPlacedWithoutReadingTheState() {
    CountingSource source = new CountingSource();
    DynamicResources plugin = new DynamicResources(DRA, source, new CountingSelector());
    Scheduler scheduler = new Scheduler(SchedulerProfile.defaults().withDynamicResources(plugin));
    ScheduleResult result = scheduler.schedule(PodInfo.of(Fixtures.pod("plain", "1", "1Gi", 0)), snapshot(),
        new SplittableRandom(1), 0, true);

    assertThat(result).isInstanceOf(ScheduleResult.Scheduled.class);
    assertThat(((ScheduleResult.Scheduled) result).feasibleNodes()).isEqualTo(NODES.size());
    // Nothing of a pod without claims reads the allocations: not one replay of the bound pods per pod.
    assertThat(source.states).isZero();
  }
}
