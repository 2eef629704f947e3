package io.gpufleet.engine.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

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
import io.gpufleet.model.resource.ResourceList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A claim is reserved for at most 256 pods ({@code ResourceClaimReservedForMaxSize}): the 257th pod that
 * shares it is refused in PreFilter with {@code resourceclaim in use} (dynamicresources.go PreFilter,
 * resourceclaim.CanBeReserved) and waits for one of them to leave, as test/e2e/dra "supports sharing a
 * claim sequentially" runs 266 pods on one claim.
 */
class ReservedForLimitTest {

  private static final String DRIVER = "gpu.example.com";
  private static final DraObjects DRA = new DraObjects(
      List.of(new DeviceClass("gpu", List.of("device.driver == '" + DRIVER + "'"))),
      List.of(new ResourceClaim("default", "shared", new ResourceClaimSpec(List.of(
          new DeviceRequest("gpu", "gpu", List.of(), DeviceRequest.AllocationMode.EXACT_COUNT, 1))))),
      List.of(), List.of(new ResourceSlice("n1-slice", DRIVER, "n1", Optional.of("n1"),
          List.of(new Device("gpu-0", Map.of(), Map.of())))));

  private static PodInfo pod(int i) {
    Pod p = Fixtures.pod("p" + i, "1m", "1Mi", 0);
    return PodInfo.of(p.withSpec(p.spec().withResourceClaims(List.of(new PodResourceClaim.Named("gpu", "shared")))));
  }

  @Test
  void theTwoHundredFiftySeventhPodOfOneClaimWaits() {
    // A node that holds 300 pods, so only the claim limits them.
    ClusterSnapshot snapshot = ClusterSnapshot.of(List.of(Node.of("n1", Labels.EMPTY, List.of(),
        ResourceList.of("cpu", "1000", "memory", "1000Gi", "pods", "300"))));
    DynamicResources plugin = new DynamicResources(DRA);
    Scheduler scheduler = new Scheduler(SchedulerProfile.defaults().withDynamicResources(plugin));
    for (int i = 0; i < DynamicResources.RESERVED_FOR_MAX_SIZE; i++) {
      ScheduleResult r = scheduler.schedule(pod(i), snapshot, new SplittableRandom(1), 0, false);
      assertThat(r).as("pod %d", i).isInstanceOf(ScheduleResult.Scheduled.class);
      snapshot = snapshot.bind(pod(i), "n1");
    }
    ScheduleResult last = scheduler.schedule(pod(256), snapshot, new SplittableRandom(1), 0, false);
    assertThat(last).isInstanceOfSatisfying(ScheduleResult.Unschedulable.class,
        u -> assertThat(u.error().message()).contains("resourceclaim in use"));
  }
}
