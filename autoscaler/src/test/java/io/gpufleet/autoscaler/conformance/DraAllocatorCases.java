package io.gpufleet.autoscaler.conformance;

import static io.gpufleet.autoscaler.conformance.K.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings.DraRequests;
import io.gpufleet.autoscaler.AutoscalerSettings.GpuSizing;
import io.gpufleet.autoscaler.gpu.NvidiaDevicePlugin;
import io.gpufleet.autoscaler.provisioning.ClusterClaims;
import io.gpufleet.autoscaler.provisioning.DraProvisioning;
import io.gpufleet.autoscaler.provisioning.InstanceTypeDevices;
import io.gpufleet.autoscaler.provisioning.NodeOverlays;
import io.gpufleet.autoscaler.provisioning.Provisioner;
import io.gpufleet.autoscaler.provisioning.ProvisioningModel;
import io.gpufleet.autoscaler.provisioning.ProvisioningPlan;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.dra.Device;
import io.gpufleet.model.dra.DeviceClass;
import io.gpufleet.model.dra.DeviceRequest;
import io.gpufleet.model.dra.DraObject;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.PodResourceClaim;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.dra.ResourceClaimSpec;
import io.gpufleet.model.dra.ResourceSlice;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * The "Dynamic Resource Allocation" Describe of {@code pkg/controllers/provisioning/dra_test.go}: Karpenter
 * with {@code IgnoreDRARequests: false}, its allocator placing claims on devices that existing nodes publish
 * and that the cloud provider declares per instance type. Upstream's fake provider declares template devices
 * ({@code fake.GPUInstanceType("gpu-it", n)}: n devices {@code gpu-it-gpu-<i>} of driver {@code gpu.example.com}
 * in pool {@code gpu-it-pool}); the translations give the same devices to catalogue types through
 * {@link InstanceTypeDevices} ({@code gpu-it} is c5.large, {@code no-gpu-it} m5.large), since the AWS
 * provider the twin follows declares none. The DeviceClass is upstream's {@code test.DeviceClassWithSelector}.
 */
final class DraAllocatorCases {
  private DraAllocatorCases() {}

  static final String AREA = "DRA allocator (flag off)";
  static final String FILE = "pkg/controllers/provisioning/dra_test.go";
  static final String DRIVER = "gpu.example.com";
  static final String NIC_DRIVER = "nic.example.com";
  static final String GPU_IT = "c5.large";
  static final String NO_GPU_IT = "m5.large";
  static final DeviceClass GPU_CLASS = new DeviceClass("gpu", List.of("device.driver == \"" + DRIVER + "\""));

  static List<UpstreamCase> all() {
    List<UpstreamCase> c = new ArrayList<>();
    c.add(UpstreamCase.of(AREA, FILE, "should provision a new NodeClaim, allocate the claim, and annotate the drivers "
        + "(A1)", () -> {
          Pod p = draPod("p", "gpu-claim");
          ProvisioningPlan plan = provision(devices(GPU_IT, 2), gpuPool(), List.of(p), List.of(claim("gpu-claim")),
              List.of());
          assertThat(launchedType(plan, p)).isEqualTo(GPU_IT);
          assertThat(plan.newClaims()).hasSize(1);
          assertThat(draDrivers(plan)).containsExactly(DRIVER);
        }));
    c.add(UpstreamCase.of(AREA, FILE, "should restrict instance types to those providing the requested device (A2)",
        () -> {
          Pod p = draPod("p", "gpu-claim");
          ProvisioningPlan plan = provision(devices(GPU_IT, 1), pool(GPU_IT, NO_GPU_IT), List.of(p),
              List.of(claim("gpu-claim")), List.of());
          assertThat(plan.newClaims()).singleElement().satisfies(nc ->
              assertThat(nc.instanceTypes()).extracting(t -> t.name()).containsExactly(GPU_IT));
        }));
    c.add(UpstreamCase.of(AREA, FILE, "should not annotate or allocate for a non-DRA pod (A3)", () -> {
      Pod p = pod("p");
      ProvisioningPlan plan = provision(devices(GPU_IT, 1), gpuPool(), List.of(p), List.of(), List.of());
      assertThat(scheduled(plan, p)).isTrue();
      assertThat(plan.newClaims()).hasSize(1);
      assertThat(launch(plan.newClaims().getFirst()).annotations().get("karpenter.sh/requested-dra-drivers"))
          .isEmpty();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should pack multiple pods onto one NodeClaim using distinct devices (B1)",
        () -> {
          Pod a = draPod("a", "claim-a");
          Pod b = draPod("b", "claim-b");
          ProvisioningPlan plan = twoClaims(2, a, b);
          assertThat(plan.newClaims()).singleElement().satisfies(nc -> assertThat(nc.pods()).containsExactlyInAnyOrder(
              a, b));
        }));
    c.add(UpstreamCase.of(AREA, FILE, "should create a second NodeClaim when per-node device capacity is exhausted (B2)",
        () -> {
          Pod a = draPod("a", "claim-a");
          Pod b = draPod("b", "claim-b");
          ProvisioningPlan plan = twoClaims(1, a, b);
          assertThat(plan.errors()).isEmpty();
          assertThat(plan.newClaims()).hasSize(2);
          assertThat(claimOf(plan, a)).isNotSameAs(claimOf(plan, b));
        }));
    c.add(UpstreamCase.of(AREA, FILE, "should allocate every matching device in All mode (F1)", () -> {
      Pod p = draPod("p", "gpu-claim");
      ResourceClaim all = new ResourceClaim("default", "gpu-claim", new ResourceClaimSpec(List.of(new DeviceRequest(
          "req", "gpu", List.of(), DeviceRequest.AllocationMode.ALL, 0))));
      ProvisioningPlan plan = provision(devices(GPU_IT, 3), gpuPool(), List.of(p), List.of(all), List.of());
      assertThat(scheduled(plan, p)).isTrue();
      assertThat(plan.errors()).isEmpty();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should list every driver whose devices were allocated (G1)", () -> {
      // fake.GPUAndNICInstanceType("multi-it"): one GPU device and one NIC device, each in its own pool.
      InstanceTypeDevices multi = (node, labels, t) -> !t.name().equals(GPU_IT) ? List.of() : List.of(
          new ResourceSlice(node + "-gpu", DRIVER, GPU_IT + "-gpu-pool", Optional.of(node),
              List.of(new Device(GPU_IT + "-gpu-0", Map.of(), Map.of()))),
          new ResourceSlice(node + "-nic", NIC_DRIVER, GPU_IT + "-nic-pool", Optional.of(node),
              List.of(new Device(GPU_IT + "-nic-0", Map.of(), Map.of()))));
      Pod p = pod("p");
      p = p.withSpec(p.spec().withResourceClaims(List.of(new PodResourceClaim.Named("gpu", "gpu-claim"),
          new PodResourceClaim.Named("nic", "nic-claim"))));
      ResourceClaim nic = new ResourceClaim("default", "nic-claim", new ResourceClaimSpec(List.of(new DeviceRequest(
          "req", "nic", List.of(), DeviceRequest.AllocationMode.EXACT_COUNT, 1))));
      ProvisioningPlan plan = provision(multi, gpuPool(), List.of(p), List.of(claim("gpu-claim"), nic,
          new DeviceClass("nic", List.of("device.driver == \"" + NIC_DRIVER + "\""))), List.of());
      assertThat(scheduled(plan, p)).isTrue();
      assertThat(plan.newClaims()).hasSize(1);
      assertThat(draDrivers(plan)).containsExactlyInAnyOrder(DRIVER, NIC_DRIVER);
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should reject DRA pods with a DRAError when IgnoreDRARequests is enabled (N1)",
        () -> {
          Pod p = draPod("p", "gpu-claim");
          DraProvisioning ignore = new DraProvisioning(DraRequests.IGNORE, objects(List.of(claim("gpu-claim"))),
              GpuCatalog.builtIn(), ClusterClaims.REPLAYED, devices(GPU_IT, 1));
          ProvisioningPlan plan = solve(ignore, gpuPool(), List.of(p), List.of());
          assertThat(plan.newClaims()).isEmpty();
          assertThat(plan.errors()).containsExactly(Map.entry(p.key(), DraProvisioning.NOT_SUPPORTED));
        }));
    c.add(UpstreamCase.of(AREA, FILE, "should defer a pod whose ResourceClaim does not exist yet (U1)", () -> {
      Pod p = draPod("p", "missing-claim");
      ProvisioningPlan plan = provision(devices(GPU_IT, 1), gpuPool(), List.of(p), List.of(), List.of());
      assertThat(scheduled(plan, p)).isFalse();
      assertThat(plan.newClaims()).isEmpty();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should fail to schedule when no instance type provides the requested device "
        + "(U2)", () -> {
          Pod p = draPod("p", "gpu-claim");
          ProvisioningPlan plan = provision(InstanceTypeDevices.AWS, pool(NO_GPU_IT), List.of(p),
              List.of(claim("gpu-claim")), List.of());
          assertThat(scheduled(plan, p)).isFalse();
          assertThat(plan.newClaims()).isEmpty();
        }));
    c.add(UpstreamCase.of(AREA, FILE, "should fail to schedule when the DeviceClass is missing (U3)", () -> {
      Pod p = draPod("p", "gpu-claim");
      DraProvisioning noClass = new DraProvisioning(DraRequests.KARPENTER, new DraObjects(List.of(),
          List.of(claim("gpu-claim")), List.of(), List.of()), GpuCatalog.builtIn(), ClusterClaims.REPLAYED,
          devices(GPU_IT, 1));
      ProvisioningPlan plan = solve(noClass, gpuPool(), List.of(p), List.of());
      assertThat(scheduled(plan, p)).isFalse();
      assertThat(plan.newClaims()).isEmpty();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should fail when DRA prunes all instance types that otherwise fit (X3)", () -> {
      // Upstream's types differ by architecture (the device on arm64 only, the pod requiring amd64); the catalogue
      // has no arm64 types, so the device is on c5.large only and the pod requires the m5 family.
      Pod p = requiring(draPod("p", "gpu-claim"), Requirement.in(FAMILY, "m5"));
      ProvisioningPlan plan = provision(devices(GPU_IT, 1), pool(GPU_IT, NO_GPU_IT), List.of(p),
          List.of(claim("gpu-claim")), List.of());
      assertThat(scheduled(plan, p)).isFalse();
      assertThat(plan.newClaims()).isEmpty();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should handle a mixed batch of DRA and non-DRA pods (R1)", () -> {
      Pod dra = draPod("dra", "gpu-claim");
      Pod plain = pod("plain");
      ProvisioningPlan plan = provision(devices(GPU_IT, 1), gpuPool(), List.of(dra, plain),
          List.of(claim("gpu-claim")), List.of());
      assertThat(scheduled(plan, dra)).isTrue();
      assertThat(scheduled(plan, plain)).isTrue();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should bind to an existing initialized node whose published device satisfies "
        + "the claim (C1)", () -> {
          StateNode n = node(gpuPool(), GPU_IT, 1);
          Pod p = draPod("p", "gpu-claim");
          ProvisioningPlan plan = onPublished(n, p);
          assertThat(plan.onExisting()).containsExactly(Map.entry(p.key(), n.name()));
          assertThat(plan.newClaims()).isEmpty();
        }));
    c.add(UpstreamCase.of(AREA, FILE, "should prefer an existing node's published device over launching a new node "
        + "(C2)", () -> {
          // Upstream's C2 has C1's inputs: a new NodeClaim's template device could take the claim too.
          StateNode n = node(gpuPool(), GPU_IT, 1);
          Pod p = draPod("p", "gpu-claim");
          ProvisioningPlan plan = onPublished(n, p);
          assertThat(plan.onExisting()).containsKey(p.key());
          assertThat(plan.newClaims()).isEmpty();
        }));
    c.add(UpstreamCase.of(AREA, FILE, "should land a second pod on the same NodeClaim for a template-allocated shared "
        + "claim (E2)", () -> {
          Pod a = draPod("a", "shared-claim");
          Pod b = draPod("b", "shared-claim");
          ProvisioningPlan plan = provision(devices(GPU_IT, 2), gpuPool(), List.of(a, b), List.of(claim("shared-claim")),
              List.of());
          assertThat(plan.newClaims()).singleElement().satisfies(nc -> assertThat(nc.pods()).containsExactlyInAnyOrder(
              a, b));
        }));
    c.add(UpstreamCase.of(AREA, FILE, "should satisfy a pod via template devices for a pre-initialized node (I1)",
        () -> {
          // The node not initialised yet is in flight here (its NodeClaim launched, not registered); its published
          // slice must not be used, and the pod is still satisfied by a template device.
          NodePool np = gpuPool();
          StateNode n = inFlight(np, GPU_IT);
          Pod p = draPod("p", "gpu-claim");
          ProvisioningPlan plan = provision(devices(GPU_IT, 1), np, List.of(p), List.of(claim("gpu-claim"),
              published(n, "incluster-gpu-0")), List.of(n));
          assertThat(scheduled(plan, p)).isTrue();
        }));
    return c;
  }

  /** Upstream's {@code ExpectNodeClaimDRADrivers}: the launched NodeClaim's annotation, split at commas. */
  static List<String> draDrivers(ProvisioningPlan plan) {
    return launch(plan.newClaims().getFirst()).annotations().get("karpenter.sh/requested-dra-drivers")
        .map(a -> List.of(a.split(","))).orElse(List.of());
  }

  /** Upstream's fake provider for this test: {@code count} template devices on {@code type}, none elsewhere. */
  static InstanceTypeDevices devices(String type, int count) {
    return (node, labels, t) -> !t.name().equals(type) ? List.of() : List.of(new ResourceSlice(node + "-" + type,
        DRIVER, type + "-pool", Optional.of(node), IntStream.range(0, count)
        .mapToObj(i -> new Device(type + "-gpu-" + i, Map.of(), Map.of())).toList()));
  }

  /** Upstream's B1/B2 inputs: {@code gpu-it} with {@code devices} template devices; a and b claim one each. */
  static ProvisioningPlan twoClaims(int devices, Pod a, Pod b) {
    return provision(devices(GPU_IT, devices), gpuPool(), List.of(a, b), List.of(claim("claim-a"), claim("claim-b")),
        List.of());
  }

  /**
   * Upstream's C1/C2 inputs: {@code n} publishes device {@code incluster-gpu-0}, {@code gpu-it} declares one
   * template device, and {@code p}'s claim {@code gpu-claim} asks for one.
   */
  static ProvisioningPlan onPublished(StateNode n, Pod p) {
    return provision(devices(GPU_IT, 1), gpuPool(), List.of(p), List.of(claim("gpu-claim"),
        published(n, "incluster-gpu-0")), List.of(n));
  }

  /** Upstream's {@code test.NodeLocalSlice}: the devices a driver published for an existing node. */
  static ResourceSlice published(StateNode n, String... devices) {
    return new ResourceSlice(n.name() + "-slice", DRIVER, DRIVER + "/" + n.name(), Optional.of(n.name()),
        List.of(devices).stream().map(d -> new Device(d, Map.of(), Map.of())).toList());
  }

  /** Upstream's {@code test.ResourceClaimForRequests(name, test.ExactDeviceRequest("req", "gpu", 1))}. */
  static ResourceClaim claim(String name) {
    return new ResourceClaim("default", name, new ResourceClaimSpec(List.of(new DeviceRequest("req", "gpu",
        List.of(), DeviceRequest.AllocationMode.EXACT_COUNT, 1))));
  }

  /** Upstream's {@code draPod(ref, claimName)}: an unschedulable pod naming the claim. */
  static Pod draPod(String name, String claimName) {
    Pod p = pod(name);
    return p.withSpec(p.spec().withResourceClaims(List.of(new PodResourceClaim.Named("gpu", claimName))));
  }

  /** Upstream's {@code test.NodePool()} over the GPU type, as its fake provider offers only {@code gpu-it}. */
  static NodePool gpuPool() {
    return pool(GPU_IT);
  }

  static NodePool pool(String... types) {
    return bare("default", NodePoolRequirement.in(TYPE, types));
  }

  static DraObjects objects(List<DraObject> more) {
    List<DraObject> all = new ArrayList<>(more);
    all.add(GPU_CLASS);
    return DraObjects.of(all);
  }

  static ProvisioningPlan provision(InstanceTypeDevices devices, NodePool np, List<Pod> pods, List<DraObject> objects,
      List<StateNode> nodes) {
    return solve(new DraProvisioning(DraRequests.KARPENTER, objects(objects), GpuCatalog.builtIn(),
        ClusterClaims.REPLAYED, devices), np, pods, nodes);
  }

  static ProvisioningPlan solve(DraProvisioning dra, NodePool np, List<Pod> pods, List<StateNode> nodes) {
    Provisioner p = new Provisioner(ProvisioningModel.of(List.of(np), CATALOG, List.of(), NvidiaDevicePlugin.DEFAULTS,
        GpuSizing.PHYSICAL, NodeOverlays.NONE, Map.of(), dra));
    return p.solve(pods, nodes, List.of(), OfferingAvailability.ALL, T0);
  }
}
