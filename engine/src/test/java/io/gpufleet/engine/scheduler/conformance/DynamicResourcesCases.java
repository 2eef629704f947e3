package io.gpufleet.engine.scheduler.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.FitError;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.engine.dra.Allocation;
import io.gpufleet.engine.dra.DeviceAllocator;
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
import io.gpufleet.testing.conformance.UpstreamCase;
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

  /** {@code brokenSelector}: an attribute set on worker-2's device only. */
  private static final String BROKEN = "device.attributes[\"" + DRIVER + "\"].healthy";

  /** {@code workerNodeSlice} (no attributes) or {@code workerNode2Slice} ({@code healthy: true}). */
  private static ResourceSlice slice(String node, boolean healthy) {
    return new ResourceSlice(node + "-slice", DRIVER, node, Optional.of(node), List.of(new Device("instance-1",
        healthy ? Map.of("healthy", new AttributeValue.Bool(true)) : Map.of(), Map.of())));
  }

  /** {@code breakCELInClaim(pendingClaim)}. */
  private static ResourceClaim brokenClaim() {
    return new ResourceClaim("default", "my-pod-my-resource", new ResourceClaimSpec(List.of(
        new DeviceRequest("req-1", CLASS, List.of(BROKEN), DeviceRequest.AllocationMode.EXACT_COUNT, 1))));
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

  /** {@code st.SubRequest(name, class, count)}: one subrequest of the class, {@code count} devices. */
  private static DeviceRequest sub(String name, long count, String... selectors) {
    return new DeviceRequest(name, CLASS, List.of(selectors), DeviceRequest.AllocationMode.EXACT_COUNT, count);
  }

  /** A claim whose requests {@code req-1}, {@code req-2}, ... each list these subrequests. */
  private static ResourceClaim prioritized(String name, List<List<DeviceRequest>> requests) {
    List<DeviceRequest> out = new ArrayList<>();
    for (int i = 0; i < requests.size(); i++) {
      out.add(DeviceRequest.firstAvailable("req-" + (i + 1), requests.get(i)));
    }
    return new ResourceClaim("default", name, new ResourceClaimSpec(out));
  }

  /** {@code st.MakeResourceSlice(node, driver).Device(...)}: devices {@code instance-1..n}, each with these attributes. */
  private static ResourceSlice sliceOf(String node, int devices, Map<String, AttributeValue> attributes) {
    List<Device> out = new ArrayList<>();
    for (int i = 1; i <= devices; i++) {
      out.add(new Device("instance-" + i, attributes, Map.of()));
    }
    return new ResourceSlice(node + "-slice", DRIVER, node, Optional.of(node), out);
  }

  /**
   * As upstream's test loop: Filter every node, then (more than one passing) Score each feasible node
   * and NormalizeScore; returns the raw scores then the normalised ones, by node name.
   */
  private static Map<String, List<Long>> scores(DynamicResources plugin, Pod pod, List<NodeInfo> nodes) {
    ClusterSnapshot snapshot = ClusterSnapshot.ofInfos(nodes);
    PodInfo p = PodInfo.of(pod);
    FilterPlugin filter = plugin.forCycle(p, snapshot).orElseThrow();
    List<NodeInfo> feasible = nodes.stream().filter(n -> filter.filter(p, n).isSuccess()).toList();
    var scorer = plugin.preScore(p, snapshot).orElseThrow();
    long[] raw = new long[feasible.size()];
    for (int i = 0; i < raw.length; i++) {
      raw[i] = scorer.score(p, feasible.get(i));
    }
    long[] normalized = raw.clone();
    scorer.normalize(p, normalized);
    Map<String, List<Long>> out = new java.util.LinkedHashMap<>();
    for (int i = 0; i < raw.length; i++) {
      out.put(feasible.get(i).name(), List.of(raw[i], normalized[i]));
    }
    return out;
  }

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
      assertThat(plugin.preScore(PodInfo.of(pod), K.snapshot(worker))).isEmpty();
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
    c.add(UpstreamCase.of(PLUGIN, FILE, "with-resources", () -> {
      // A pending claim and a node with one device: Filter passes, Reserve allocates instance-1 for req-1.
      DynamicResources plugin = new DynamicResources(objects(List.of(claim(CLASS)), List.of(slice("worker"))));
      FilterPlugin cycle = plugin.forCycle(PodInfo.of(podWithClaimName), K.snapshot(worker)).orElseThrow();
      K.assertFilter(cycle, podWithClaimName, worker, Status.Code.SUCCESS);
      assertThat(plugin.reserve(podWithClaimName, "worker", K.snapshot(worker))).isEqualTo(
          new DeviceAllocator.Outcome.Allocated(List.of(new Allocation("default/my-pod-my-resource", "worker",
              List.of(new Allocation.Result("req-1", DRIVER, "worker", "instance-1"))))));
    }));
    c.add(UpstreamCase.of(PLUGIN, FILE, "exhausted-resources", () -> {
      // otherAllocatedClaim holds the node's only device (allocated for the pod bound there).
      ResourceClaim other = new ResourceClaim("default", "not-my-claim", claim(CLASS).spec());
      DynamicResources plugin = new DynamicResources(objects(List.of(claim(CLASS), other), List.of(slice("worker"))));
      Pod holder = K.pod("holder");
      holder = holder.withSpec(holder.spec().withResourceClaims(List.of(
          new PodResourceClaim.Named("other", "not-my-claim"))));
      NodeInfo busy = K.info(K.node("worker"), holder);
      FilterPlugin cycle = plugin.forCycle(PodInfo.of(podWithClaimName), K.snapshot(busy)).orElseThrow();
      K.assertFilter(cycle, podWithClaimName, busy, Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
          "cannot allocate all claims");
      assertThat(postFilter(plugin, podWithClaimName, K.snapshot(busy)).text()).isEqualTo("still not schedulable");
    }));
    c.add(UpstreamCase.of(PLUGIN, FILE, "claim-parameters-CEL-runtime-error", () -> {
      // breakCELInClaim: the claim's selector reads an attribute worker's device lacks.
      DynamicResources plugin = new DynamicResources(objects(List.of(brokenClaim()), List.of(slice("worker", false))));
      FilterPlugin cycle = plugin.forCycle(PodInfo.of(podWithClaimName), K.snapshot(worker)).orElseThrow();
      assertThat(cycle.filter(PodInfo.of(podWithClaimName), worker).reasons()).containsExactly(
          "claim default/my-pod-my-resource: selector #0: CEL runtime error: no such key: healthy");
    }));
    c.add(UpstreamCase.of(PLUGIN, FILE, "class-parameters-CEL-runtime-error", () -> {
      DynamicResources plugin = new DynamicResources(new DraObjects(List.of(new DeviceClass(CLASS, List.of(BROKEN))),
          List.of(claim(CLASS)), List.of(), List.of(slice("worker", false))));
      FilterPlugin cycle = plugin.forCycle(PodInfo.of(podWithClaimName), K.snapshot(worker)).orElseThrow();
      assertThat(cycle.filter(PodInfo.of(podWithClaimName), worker).reasons()).containsExactly(
          "class my-resource-class: selector #0: CEL runtime error: no such key: healthy");
    }));
    c.add(UpstreamCase.of(PLUGIN, FILE, "CEL-runtime-error-for-one-of-two-nodes", () -> {
      // worker-2's device has the attribute, worker's does not. Upstream's Filter on worker returns an
      // Error, which aborts the cycle: the pod is placed nowhere, worker-2 included.
      DynamicResources plugin = new DynamicResources(objects(List.of(brokenClaim()),
          List.of(slice("worker", false), slice("worker-2", true))));
      NodeInfo worker2 = K.info(K.node("worker-2"));
      FilterPlugin cycle = plugin.forCycle(PodInfo.of(podWithClaimName), K.snapshot(worker, worker2)).orElseThrow();
      assertThat(cycle.filter(PodInfo.of(podWithClaimName), worker).reasons()).containsExactly(
          "claim default/my-pod-my-resource: selector #0: CEL runtime error: no such key: healthy");
      assertThat(cycle.filter(PodInfo.of(podWithClaimName), worker2).isSuccess()).as("placed on worker-2").isFalse();
    }).differs("upstream's Filter returns an Error that aborts the cycle, so the pod stays pending although"
        + " worker-2 fits; the twin has no Error status, reports the error as worker's UnschedulableAndUnresolvable"
        + " reason and places the pod on worker-2"));
    c.add(UpstreamCase.of(PLUGIN, FILE, "claim-with-prioritized-list", () -> {
      DynamicResources plugin = new DynamicResources(objects(
          List.of(prioritized("my-pod-my-resource", List.of(List.of(sub("subreq-1", 1))))), List.of(slice("worker"))));
      assertThat(plugin.reserve(podWithClaimName, "worker", K.snapshot(worker))).isEqualTo(
          new DeviceAllocator.Outcome.Allocated(List.of(new Allocation("default/my-pod-my-resource", "worker",
              List.of(new Allocation.Result("req-1/subreq-1", DRIVER, "worker", "instance-1"))))));
    }));
    c.add(UpstreamCase.of(PLUGIN, FILE, "claim-with-prioritized-list-unknown-device-class", () -> {
      ResourceClaim claim = prioritized("my-pod-my-resource", List.of(List.of(
          new DeviceRequest("subreq-1", "does-not-exist", List.of(), DeviceRequest.AllocationMode.EXACT_COUNT, 1))));
      DynamicResources plugin = new DynamicResources(objects(List.of(claim), List.of(slice("worker"))));
      rejectedWithMessage(plugin.preFilter(PodInfo.of(podWithClaimName)),
          "request req-1/subreq-1: device class does-not-exist does not exist");
      assertThat(postFilter(plugin, podWithClaimName, K.snapshot(worker)).text())
          .isEqualTo("no new claims to deallocate");
    }));
    c.add(UpstreamCase.of(PLUGIN, FILE, "claim-with-request-with-unknown-device-class", () -> {
      DynamicResources plugin = new DynamicResources(
          new DraObjects(List.of(), List.of(claim("does-not-exist")), List.of(), List.of(slice("worker"))));
      rejectedWithMessage(plugin.preFilter(PodInfo.of(podWithClaimName)),
          "request req-1: device class does-not-exist does not exist");
      assertThat(postFilter(plugin, podWithClaimName, K.snapshot(worker)).text())
          .isEqualTo("no new claims to deallocate");
    }));
    c.add(UpstreamCase.of(PLUGIN, FILE, "single-claim-prioritized-list-scoring", () -> {
      // subreq-1 wants a healthy device: met on worker (8), not on worker-2, where subreq-2 is (7).
      ResourceClaim claim = prioritized("my-pod-my-resource", List.of(List.of(
          sub("subreq-1", 1, "device.attributes[\"" + DRIVER + "\"].healthy"), sub("subreq-2", 1))));
      DynamicResources plugin = new DynamicResources(objects(List.of(claim), List.of(
          sliceOf("worker", 1, Map.of("healthy", new AttributeValue.Bool(true))),
          sliceOf("worker-2", 1, Map.of("healthy", new AttributeValue.Bool(false))))));
      assertThat(scores(plugin, podWithClaimName, List.of(worker, K.info(K.node("worker-2")))))
          .containsExactly(Map.entry("worker", List.of(8L, 100L)), Map.entry("worker-2", List.of(7L, 87L)));
    }));
    c.add(UpstreamCase.of(PLUGIN, FILE, "multiple-claims-prioritized-list-scoring", () -> {
      // Claim 1 takes one device (subreq-1, 8); claim 2 then gets 3 of worker's 4 (subreq-2, 7) and 1 of
      // worker-2's 2 (subreq-4, 5); worker-3's one device cannot hold both claims.
      ResourceClaim first = prioritized("my-pod-my-resource", List.of(List.of(sub("subreq-1", 1))));
      ResourceClaim second = prioritized("my-pod-my-resource-2", List.of(List.of(
          sub("subreq-1", 4), sub("subreq-2", 3), sub("subreq-3", 2), sub("subreq-4", 1))));
      DynamicResources plugin = new DynamicResources(objects(List.of(first, second), List.of(
          sliceOf("worker", 4, Map.of()), sliceOf("worker-2", 2, Map.of()), sliceOf("worker-3", 1, Map.of()))));
      Pod pod = K.pod("my-pod");
      pod = pod.withSpec(pod.spec().withResourceClaims(List.of(
          new PodResourceClaim.Named("my-resource", "my-pod-my-resource"),
          new PodResourceClaim.Named("my-resource-2", "my-pod-my-resource-2"))));
      NodeInfo worker3 = K.info(K.node("worker-3"));
      List<NodeInfo> nodes = List.of(worker, K.info(K.node("worker-2")), worker3);
      K.assertFilter(plugin.forCycle(PodInfo.of(pod), ClusterSnapshot.ofInfos(nodes)).orElseThrow(), pod, worker3,
          Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "cannot allocate all claims");
      assertThat(scores(plugin, pod, nodes))
          .containsExactly(Map.entry("worker", List.of(15L, 100L)), Map.entry("worker-2", List.of(13L, 86L)));
    }));
    c.add(UpstreamCase.of(PLUGIN, FILE, "multiple-requests-prioritized-list-scoring", () -> {
      // Two requests, each 2 devices else 1: 4 devices meet both with subreq-1 (16), 3 one of them (15),
      // 2 neither: the allocator backtracks req-1 to subreq-2, and req-2 then fits only subreq-2 (14).
      List<DeviceRequest> twoElseOne = List.of(sub("subreq-1", 2), sub("subreq-2", 1));
      ResourceClaim claim = prioritized("my-pod-my-resource", List.of(twoElseOne, twoElseOne));
      DynamicResources plugin = new DynamicResources(objects(List.of(claim), List.of(
          sliceOf("worker", 4, Map.of()), sliceOf("worker-2", 3, Map.of()), sliceOf("worker-3", 2, Map.of()))));
      assertThat(scores(plugin, podWithClaimName,
          List.of(worker, K.info(K.node("worker-2")), K.info(K.node("worker-3")))))
          .containsExactly(Map.entry("worker", List.of(16L, 100L)), Map.entry("worker-2", List.of(15L, 93L)),
              Map.entry("worker-3", List.of(14L, 87L)));
    }));
    return c;
  }

  /**
   * A PreFilter rejection as upstream's {@code testContext.verify} checks one: an error status is
   * compared by its message only ({@code assert.ErrorContains}), so the {@code Unschedulable} these
   * table entries write is not compared. Upstream's code returns {@code UnschedulableAndUnresolvable}
   * for a missing class ({@code validateDeviceClass} → {@code statusUnschedulable}), as the twin does.
   */
  private static void rejectedWithMessage(PreFilterPlugin.Result result, String message) {
    assertThat(result).isInstanceOfSatisfying(PreFilterPlugin.Result.Rejected.class,
        r -> assertThat(r.status().reasons()).anySatisfy(m -> assertThat(m).contains(message)));
  }
}
