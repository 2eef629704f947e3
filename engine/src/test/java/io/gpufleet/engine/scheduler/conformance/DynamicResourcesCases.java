package io.gpufleet.engine.scheduler.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.FitError;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.engine.scheduler.plugin.DynamicResources;
import io.gpufleet.engine.scheduler.plugin.FilterPlugin;
import io.gpufleet.engine.scheduler.plugin.PreFilterPlugin;
import io.gpufleet.model.dra.AttributeValue;
import io.gpufleet.model.dra.Device;
import io.gpufleet.model.dra.DeviceClass;
import io.gpufleet.model.dra.DeviceRequest;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.PodResourceClaim;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.dra.ResourceClaimSpec;
import io.gpufleet.model.dra.ResourceSlice;
import io.gpufleet.model.pod.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code pkg/scheduler/framework/plugins/dynamicresources/dynamicresources_test.go}, TestPlugin:
 * the cases whose objects the twin reads, with upstream's fixtures ({@code my-pod}, claim
 * {@code my-resource}, request {@code req-1}, class {@code my-resource-class}, node {@code worker}).
 */
final class DynamicResourcesCases {
  private DynamicResourcesCases() {}

  static final String FILE = "pkg/scheduler/framework/plugins/dynamicresources/dynamicresources_test.go";
  private static final String PLUGIN = "DynamicResources";
  private static final String DRIVER = "some-driver";
  private static final String CLASS = "my-resource-class";

  private static Pod podWith(PodResourceClaim claim) {
    Pod p = K.pod("my-pod");
    return p.withSpec(p.spec().withResourceClaims(List.of(claim)));
  }

  private static ResourceClaim claim(String className) {
    return new ResourceClaim("default", "my-pod-my-resource", new ResourceClaimSpec(List.of(
        new DeviceRequest("req-1", className, List.of(), DeviceRequest.AllocationMode.EXACT_COUNT, 1))));
  }

  private static ResourceSlice slice(String node) {
    return new ResourceSlice(node + "-slice", DRIVER, node, Optional.of(node),
        List.of(new Device("instance-1", Map.of("healthy", new AttributeValue.Bool(true)), Map.of())));
  }

  private static DraObjects objects(List<ResourceClaim> claims, List<ResourceSlice> slices) {
    return new DraObjects(List.of(new DeviceClass(CLASS, List.of("device.driver == '" + DRIVER + "'"))), claims,
        List.of(), slices);
  }

  private static PostFilterMessage postFilter(DynamicResources plugin, Pod pod, ClusterSnapshot snapshot) {
    return new PostFilterMessage(plugin.postFilter(PodInfo.of(pod), snapshot,
        FitError.ofCounts(snapshot.size(), Map.of(), "")).message());
  }

  private record PostFilterMessage(String text) {}

  static List<UpstreamCase> cases() {
    List<UpstreamCase> c = new ArrayList<>();
    Pod podWithClaimName = podWith(new PodResourceClaim.Named("my-resource", "my-pod-my-resource"));
    Pod podWithClaimTemplate = podWith(new PodResourceClaim.FromTemplate("my-resource", "my-template"));
    NodeInfo worker = K.info(K.node("worker"));

    c.add(UpstreamCase.of(PLUGIN, FILE, "empty", () -> {
      DynamicResources plugin = new DynamicResources(objects(List.of(), List.of(slice("worker"))));
      Pod pod = K.pod("foo");
      // PreFilter Skip: the plugin takes no part in the pod's cycle.
      assertThat(plugin.preFilter(PodInfo.of(pod))).isEqualTo(PreFilterPlugin.Result.ALL);
      assertThat(plugin.forCycle(PodInfo.of(pod), K.snapshot(worker))).isEmpty();
      // PostFilter's fast path: Unschedulable with no reason, so nothing is added to the message.
      assertThat(postFilter(plugin, pod, K.snapshot(worker)).text()).isEmpty();
    }));
    c.add(UpstreamCase.of(PLUGIN, FILE, "missing-claim", () -> {
      DynamicResources plugin = new DynamicResources(objects(List.of(), List.of(slice("worker"))));
      // The template's claim was never created (no status entry in upstream's pod).
      assertThat(plugin.preFilter(PodInfo.of(podWithClaimTemplate))).isEqualTo(new PreFilterPlugin.Result.Rejected(
          Status.unresolvable(PLUGIN, "pod \"default/my-pod\": ResourceClaim not created yet")));
    }));
    c.add(UpstreamCase.of(PLUGIN, FILE, "missing-class", () -> {
      DynamicResources plugin = new DynamicResources(
          new DraObjects(List.of(), List.of(claim(CLASS)), List.of(), List.of(slice("worker"))));
      assertThat(plugin.preFilter(PodInfo.of(podWithClaimName))).isEqualTo(new PreFilterPlugin.Result.Rejected(
          Status.unresolvable(PLUGIN, "request req-1: device class " + CLASS + " does not exist")));
      assertThat(postFilter(plugin, podWithClaimName, K.snapshot(worker)).text())
          .isEqualTo("no new claims to deallocate");
    }));
    c.add(UpstreamCase.of(PLUGIN, FILE, "wrong-topology", () -> {
      // The claim is allocated on another node (by the pod there that shares it).
      DynamicResources plugin = new DynamicResources(objects(List.of(claim(CLASS)),
          List.of(slice("worker"), slice("worker-2"))));
      Pod holder = podWithClaimName.withMeta(podWithClaimName.meta().withName("holder"));
      ClusterSnapshot snapshot = K.snapshot(worker, K.info(K.node("worker-2"), holder));
      FilterPlugin cycle = plugin.forCycle(PodInfo.of(podWithClaimName), snapshot).orElseThrow();
      K.assertFilter(cycle, podWithClaimName, worker, Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
          "resourceclaim not available on the node");
      assertThat(postFilter(plugin, podWithClaimName, snapshot).text()).isEqualTo("still not schedulable");
    }));
    c.add(UpstreamCase.of(PLUGIN, FILE, "no-resources", () -> {
      // The claim's request matches no device of the node: the allocator finds nothing.
      DynamicResources plugin = new DynamicResources(objects(List.of(claim(CLASS)), List.of()));
      FilterPlugin cycle = plugin.forCycle(PodInfo.of(podWithClaimName), K.snapshot(worker)).orElseThrow();
      K.assertFilter(cycle, podWithClaimName, worker, Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
          "cannot allocate all claims");
      assertThat(postFilter(plugin, podWithClaimName, K.snapshot(worker)).text()).isEqualTo("still not schedulable");
    }));
    c.add(UpstreamCase.of(PLUGIN, FILE, "claim-reference", () -> {
      // allocatedClaim: allocated on worker (by the pod there sharing it); the pod may join it there.
      DynamicResources plugin = new DynamicResources(objects(List.of(claim(CLASS)), List.of(slice("worker"))));
      Pod holder = podWithClaimName.withMeta(podWithClaimName.meta().withName("holder"));
      NodeInfo busyWorker = K.info(K.node("worker"), holder);
      FilterPlugin cycle = plugin.forCycle(PodInfo.of(podWithClaimName), K.snapshot(busyWorker)).orElseThrow();
      K.assertFilter(cycle, podWithClaimName, busyWorker, Status.Code.SUCCESS);
    }));
    return c;
  }
}
