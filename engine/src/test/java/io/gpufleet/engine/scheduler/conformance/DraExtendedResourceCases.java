package io.gpufleet.engine.scheduler.conformance;

import static io.gpufleet.engine.scheduler.conformance.K.assertFilterReasons;
import static io.gpufleet.engine.scheduler.conformance.K.info;
import static io.gpufleet.engine.scheduler.conformance.K.pod;
import static io.gpufleet.engine.scheduler.conformance.K.res;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.dra.Allocation;
import io.gpufleet.engine.dra.DeviceAllocator;
import io.gpufleet.engine.dra.ExtendedResourceClaims;
import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.FitError;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.engine.scheduler.plugin.DynamicResources;
import io.gpufleet.engine.scheduler.plugin.FilterPlugin;
import io.gpufleet.engine.scheduler.plugin.NodeResourcesFit;
import io.gpufleet.engine.scheduler.plugin.PreFilterPlugin;
import io.gpufleet.model.dra.Device;
import io.gpufleet.model.dra.DeviceClass;
import io.gpufleet.model.dra.DeviceRequest;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.dra.ResourceSlice;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * DRA-backed extended resources (KEP-5004, DRAExtendedResource, on by default in the Kubernetes the
 * twin follows): NodeResourcesFit's TestEnoughRequests cases with the feature on
 * ({@code pkg/scheduler/framework/plugins/noderesources/fit_test.go}, stored copy) and the
 * DynamicResources TestPlugin cases whose objects the twin reads
 * ({@code dynamicresources_test.go}, stored copy), with upstream's fixtures. Not translated: the
 * cases with the feature off or without a DRA manager (the twin cannot turn it off), and those about
 * API failures and a claim already in the pod's status ("-fail-patch", "-has-claim",
 * "-delete-claim", "-bind-failure", "-skip-bind", "-claim-creation-failure").
 */
final class DraExtendedResourceCases {
  private DraExtendedResourceCases() {}

  private static final String PLUGIN = "DRA extended resources";
  private static final String FIT_FILE = NodeResourcesFitCases.FILE;
  private static final String DRA_FILE = DynamicResourcesCases.FILE;

  // fit_test.go's fixtures.
  private static final String A = "example.com/aaa";
  private static final String B = "example.com/bbb";
  private static final String FIT_DRA = "extended.resource.dra.io/something";
  private static final DraObjects FIT_CLASSES = new DraObjects(List.of(new DeviceClass("device-class-name",
      List.of(), Optional.of(FIT_DRA))), List.of(), List.of(), List.of());

  // dynamicresources_test.go's fixtures.
  private static final String DRIVER = "some-driver";
  private static final String CLASS = "my-resource-class";
  private static final String GPU = "example.com/gpu";
  private static final String GPU2 = "example.com/gpu2";
  private static final String IMPLICIT = "deviceclass.resource.kubernetes.io/my-resource-class";
  private static final DeviceClass WITH_NAME = new DeviceClass(CLASS, List.of(), Optional.of(GPU));
  private static final DeviceClass WITH_NAME_2 = new DeviceClass(CLASS + "2", List.of(), Optional.of(GPU2));

  /** {@code makeAllocatableResources(10, 20, 32, 5, 20, 5)}. */
  private static Node fitNode() {
    return Node.of("n", Labels.EMPTY, List.of(), ResourceList.of("cpu", "10m", "memory", "20", "pods", "32", A, "5",
        "ephemeral-storage", "20", "hugepages-2Mi", "5"));
  }

  private static UpstreamCase fit(String name, Pod pod, Pod used, String... reasons) {
    NodeResourcesFit plugin = NodeResourcesFit.leastAllocated()
        .withDraBackedResources(new ExtendedResourceClaims(FIT_CLASSES)::backed);
    return UpstreamCase.of(PLUGIN, FIT_FILE, name, () -> assertFilterReasons(plugin, pod, info(fitNode(), used),
        reasons));
  }

  /** {@code st.MakeResourceSlice("worker", driver).Device("instance-1")...}. */
  private static ResourceSlice slice(int devices) {
    List<Device> out = new ArrayList<>();
    for (int i = 1; i <= devices; i++) {
      out.add(new Device("instance-" + i, Map.of(), Map.of()));
    }
    return new ResourceSlice("worker-slice", DRIVER, "worker", Optional.of("worker"), out);
  }

  /** {@code workerNode}, or with {@code Capacity(example.com/gpu: n)}. */
  private static NodeInfo worker(String... capacity) {
    List<String> kv = new ArrayList<>(List.of("pods", "110"));
    kv.addAll(List.of(capacity));
    return info(Node.of("worker", Labels.of("kubernetes.io/hostname", "worker"), List.of(),
        ResourceList.of(kv.toArray(String[]::new))));
  }

  /** {@code st.MakePod().Name("my-pod").Req(...)...}: one container per request list. */
  private static Pod myPod(ResourceList... containers) {
    return pod("my-pod", containers);
  }

  private static DynamicResources plugin(List<DeviceClass> classes, List<ResourceSlice> slices) {
    return new DynamicResources(new DraObjects(classes, List.of(), List.of(), slices));
  }

  /** Reserve's allocation of the claim the scheduler makes ({@code extendedResourceClaimNoName}): its results. */
  private static List<String> reserved(DynamicResources plugin, Pod pod, NodeInfo node) {
    ClusterSnapshot snapshot = ClusterSnapshot.ofInfos(List.of(node));
    FilterPlugin cycle = plugin.forCycle(PodInfo.of(pod), snapshot).orElseThrow();
    assertThat(cycle.filter(PodInfo.of(pod), node).isSuccess()).isTrue();
    DeviceAllocator.Outcome o = plugin.reserve(pod, node.name(), snapshot);
    assertThat(o).isInstanceOf(DeviceAllocator.Outcome.Allocated.class);
    List<Allocation> allocations = ((DeviceAllocator.Outcome.Allocated) o).allocations();
    assertThat(allocations).hasSize(1);
    assertThat(allocations.getFirst().claimKey()).isEqualTo("default/my-pod-extended-resources");
    return allocations.getFirst().results().stream().map(r -> r.request() + " " + r.deviceId()).toList();
  }

  /** The requests of the claim made for the pod on the node: name, class, count. */
  private static List<String> requests(DynamicResources plugin, Pod pod, NodeInfo node) {
    return plugin.extendedClaim(pod, node).map(ResourceClaim::spec).map(s -> s.requests().stream()
        .map((DeviceRequest r) -> r.name() + " " + r.deviceClassName() + " " + r.count()).toList()).orElse(List.of());
  }

  static List<UpstreamCase> cases() {
    List<UpstreamCase> c = new ArrayList<>();
    c.add(fit("extended resource backed by device plugin", pod("p", res(A, "1")), pod("u")));
    c.add(fit("extended resource backed by DRA", pod("p", res("cpu", "1m", "memory", "1", FIT_DRA, "1")),
        pod("u", res("cpu", "0m", "memory", "0"))));
    c.add(fit("extended resource NOT backed by DRA", pod("p", res("cpu", "1m", "memory", "1", B, "1")),
        pod("u", res("cpu", "0m", "memory", "0")), "Insufficient " + B));
    c.add(fit("extended resource was backed by Device Plugin (Allocatable: 0)", pod("p", res(FIT_DRA, "1")),
        pod("u", res(FIT_DRA, "0"))));

    Pod gpuPod = myPod(res(GPU, "1"));
    c.add(UpstreamCase.of(PLUGIN, DRA_FILE, "extended-resource-name-with-node-resource", () -> {
      // The node's device plugin advertises example.com/gpu: no claim, nothing for the plugin to allocate.
      DynamicResources p = plugin(List.of(WITH_NAME), List.of());
      NodeInfo node = worker(GPU, "1");
      assertThat(p.preFilter(PodInfo.of(gpuPod))).isEqualTo(PreFilterPlugin.Result.ALL);
      assertThat(p.extendedClaim(gpuPod, node)).isEmpty();
      assertThat(p.reserve(gpuPod, "worker", ClusterSnapshot.ofInfos(List.of(node))))
          .isEqualTo(new DeviceAllocator.Outcome.Allocated(List.of()));
    }));
    c.add(UpstreamCase.of(PLUGIN, DRA_FILE, "extended-resource-one-device-plugin-one-dra", () -> {
      Pod pod = myPod(res(GPU, "1", GPU2, "1"));
      DynamicResources p = plugin(List.of(WITH_NAME, WITH_NAME_2), List.of(slice(1)));
      NodeInfo node = worker(GPU, "1");
      assertThat(requests(p, pod, node)).containsExactly("container-0-request-1 my-resource-class2 1");
      assertThat(reserved(p, pod, node)).containsExactly("container-0-request-1 some-driver/worker/instance-1");
    }));
    c.add(UpstreamCase.of(PLUGIN, DRA_FILE, "extended-resource-name-with-zero-allocatable", () -> {
      DynamicResources p = plugin(List.of(WITH_NAME), List.of(slice(1)));
      assertThat(reserved(p, gpuPod, worker(GPU, "0")))
          .containsExactly("container-0-request-0 some-driver/worker/instance-1");
    }));
    c.add(UpstreamCase.of(PLUGIN, DRA_FILE, "non-DRA-extended-resource-name-with-zero-allocatable", () -> {
      // deviceClass has no extendedResourceName: PreFilter Skip, the plugin takes no part.
      DynamicResources p = plugin(List.of(new DeviceClass(CLASS, List.of())), List.of(slice(1)));
      NodeInfo node = worker(GPU, "0");
      assertThat(p.preFilter(PodInfo.of(gpuPod))).isEqualTo(PreFilterPlugin.Result.ALL);
      assertThat(p.forCycle(PodInfo.of(gpuPod), ClusterSnapshot.ofInfos(List.of(node)))).isEmpty();
    }));
    c.add(UpstreamCase.of(PLUGIN, DRA_FILE, "extended-resource-name-no-resource", () -> {
      DynamicResources p = plugin(List.of(WITH_NAME), List.of());
      NodeInfo node = worker();
      ClusterSnapshot snapshot = ClusterSnapshot.ofInfos(List.of(node));
      FilterPlugin cycle = p.forCycle(PodInfo.of(gpuPod), snapshot).orElseThrow();
      K.assertFilter(cycle, gpuPod, node, Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "cannot allocate all claims");
      assertThat(p.postFilter(PodInfo.of(gpuPod), snapshot, FitError.ofCounts(1, Map.of(), "")).message())
          .isEqualTo("still not schedulable");
    }));
    c.add(UpstreamCase.of(PLUGIN, DRA_FILE, "extended-resource-name-with-resources", () -> {
      DynamicResources p = plugin(List.of(WITH_NAME), List.of(slice(1)));
      assertThat(reserved(p, gpuPod, worker())).containsExactly("container-0-request-0 some-driver/worker/instance-1");
    }));
    c.add(UpstreamCase.of(PLUGIN, DRA_FILE, "implicit-extended-resource-name-with-resources", () -> {
      Pod pod = myPod(res(IMPLICIT, "1", GPU, "2"));
      DynamicResources p = plugin(List.of(WITH_NAME), List.of(slice(4)));
      assertThat(requests(p, pod, worker())).containsExactly("container-0-request-0 my-resource-class 1",
          "container-0-request-1 my-resource-class 2");
      assertThat(reserved(p, pod, worker())).containsExactly("container-0-request-0 some-driver/worker/instance-1",
          "container-0-request-1 some-driver/worker/instance-2", "container-0-request-1 some-driver/worker/instance-3");
    }));
    c.add(UpstreamCase.of(PLUGIN, DRA_FILE, "implicit-extended-resource-name-two-containers-with-resources", () -> {
      Pod pod = myPod(res(IMPLICIT, "1"), res(GPU, "2"));
      DynamicResources p = plugin(List.of(WITH_NAME), List.of(slice(4)));
      assertThat(reserved(p, pod, worker())).containsExactly("container-0-request-0 some-driver/worker/instance-1",
          "container-1-request-0 some-driver/worker/instance-2", "container-1-request-0 some-driver/worker/instance-3");
    }));
    return c;
  }
}
