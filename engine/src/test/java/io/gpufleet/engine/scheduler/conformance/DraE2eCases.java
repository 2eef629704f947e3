package io.gpufleet.engine.scheduler.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.dra.DraState;
import io.gpufleet.engine.scheduler.BatchPlacement;
import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.Scheduler;
import io.gpufleet.engine.scheduler.SchedulerProfile;
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
import io.gpufleet.model.validation.ResourceClaimValidation;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Cases of DRA's end-to-end suite ({@code test/e2e/dra/dra.go}, stored copy) that are decided by the
 * scheduler and the kubelet alone, run through the one-shot placement every command uses: pods placed
 * with DynamicResources, then the kubelets start those bound by name ({@link BatchPlacement#preparingClaims}).
 * The test driver's fixtures become one node with one device of the test class; {@code b.externalClaim()}
 * is a claim for one device, {@code b.podExternal()} a pod using it.
 */
final class DraE2eCases {
  private DraE2eCases() {}

  static final String FILE = "test/e2e/dra/dra.go";
  private static final String PLUGIN = "DRA end-to-end";
  private static final String DRIVER = "dra.example.com";
  private static final String NODE = "node-1";

  private static final DraObjects DRA = new DraObjects(
      List.of(new DeviceClass("example", List.of("device.driver == '" + DRIVER + "'"))),
      List.of(new ResourceClaim("default", "external-claim", new ResourceClaimSpec(List.of(
          new DeviceRequest("my-request", "example", List.of(), DeviceRequest.AllocationMode.EXACT_COUNT, 1))))),
      List.of(), List.of(new ResourceSlice(NODE + "-slice", DRIVER, NODE, Optional.of(NODE),
          List.of(new Device("device-00", Map.of(), Map.of())))));

  /** {@code b.podExternal()}: a pod whose container uses the external claim. */
  private static Pod podExternal(String name) {
    Pod p = K.pod(name, K.cpuMem(1, 1));
    return p.withSpec(p.spec().withResourceClaims(List.of(new PodResourceClaim.Named("my-inline-claim",
        "external-claim"))));
  }

  /** A node that holds 300 pods, so only the claim limits them. */
  private static ClusterSnapshot node() {
    return ClusterSnapshot.of(List.of(Node.of(NODE, Labels.EMPTY, List.of(),
        ResourceList.of("cpu", "1000", "memory", "1000Gi", "pods", "300"))));
  }

  /** Placement as {@code Cluster.place} does it: the queue, then the kubelets' start of pods bound by name. */
  private static BatchPlacement.Result place(DynamicResources plugin, List<Pod> pods, ClusterSnapshot snapshot) {
    Scheduler scheduler = new Scheduler(SchedulerProfile.defaults().withDynamicResources(plugin));
    BatchPlacement.Result placed = BatchPlacement.place(pods, snapshot, scheduler, new SplittableRandom(1), false);
    DraState state = plugin.state(placed.snapshot());
    return BatchPlacement.preparingClaims(placed, pod -> plugin.kubeletRefusal(pod, state));
  }

  static List<UpstreamCase> cases() {
    List<UpstreamCase> c = new ArrayList<>();
    // The pod bypasses scheduling (spec.nodeName): nothing allocates its claim, and it stays Pending.
    c.add(UpstreamCase.of(PLUGIN, FILE, "must not run a pod if a claim is not ready", () -> {
      Pod pod = podExternal("tester-1");
      pod = pod.withSpec(pod.spec().withNodeName(NODE));
      DynamicResources plugin = new DynamicResources(DRA);
      BatchPlacement.Result r = place(plugin, List.of(pod), node());
      assertThat(r.outcomes()).singleElement().isInstanceOfSatisfying(BatchPlacement.Outcome.Unprepared.class,
          u -> assertThat(u.message()).contains("is not allowed to use ResourceClaim external-claim"));
      assertThat(plugin.state(r.snapshot()).allocations()).isEmpty();
    }));
    // ResourceClaimReservedForMaxSize + 10 pods share one claim: the scheduler reserves it for 256 at a
    // time, the others wait, and each runs once running pods are deleted ("all of them get scheduled eventually").
    c.add(UpstreamCase.of(PLUGIN, FILE, "supports sharing a claim sequentially", () -> {
      int max = ResourceClaimValidation.RESERVED_FOR_MAX_SIZE;
      List<Pod> pods = new ArrayList<>();
      for (int i = 0; i < max + 10; i++) {
        pods.add(podExternal("tester-" + i));
      }
      DynamicResources plugin = new DynamicResources(DRA);
      BatchPlacement.Result first = place(plugin, pods, node());
      List<Pod> waiting = new ArrayList<>();
      for (BatchPlacement.Outcome o : first.outcomes()) {
        if (o instanceof BatchPlacement.Outcome.Pending p) {
          assertThat(p.error().message()).contains("resourceclaim in use");
          waiting.add(p.pod());
        }
      }
      assertThat(first.outcomes()).filteredOn(o -> o instanceof BatchPlacement.Outcome.Bound).hasSize(max);
      assertThat(waiting).hasSize(10);
      // The test deletes each pod once it ran: ten leave, and the ten waiting take their places.
      ClusterSnapshot after = first.snapshot();
      for (int i = 0; i < 10; i++) {
        after = after.unbind("default/tester-" + i, NODE);
      }
      BatchPlacement.Result second = place(plugin, waiting, after);
      assertThat(second.outcomes()).hasSize(10).allMatch(o -> o instanceof BatchPlacement.Outcome.Bound);
      assertThat(plugin.state(second.snapshot()).reservedFor().get("default/external-claim")).hasSize(max);
    }));
    return c;
  }
}
