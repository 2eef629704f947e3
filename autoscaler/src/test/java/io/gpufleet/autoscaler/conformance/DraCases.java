package io.gpufleet.autoscaler.conformance;

import static io.gpufleet.autoscaler.conformance.K.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings.DraRequests;
import io.gpufleet.autoscaler.AutoscalerSettings.GpuSizing;
import io.gpufleet.autoscaler.gpu.NvidiaDevicePlugin;
import io.gpufleet.autoscaler.provisioning.DraProvisioning;
import io.gpufleet.autoscaler.provisioning.Provisioner;
import io.gpufleet.autoscaler.provisioning.ProvisioningModel;
import io.gpufleet.autoscaler.provisioning.ProvisioningPlan;
import io.gpufleet.autoscaler.provisioning.NodeOverlays;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.PodResourceClaim;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The "Dynamic Resource Allocation (DRA)" Describe of {@code
 * pkg/controllers/provisioning/scheduling/suite_test.go}: with {@code IgnoreDRARequests} at its
 * default (true) a pod with claims gets a DRA error and no NodeClaim, and a DaemonSet pod with claims
 * is not counted as overhead. The twin's pods keep claims in {@code spec.resourceClaims} only (a
 * container's or init container's {@code resources.claims} must name one of those, which the manifest
 * reader checks, and which container names which claim is not kept), so each of the three DescribeTable
 * entries with claims is upstream's pod, init container and requests included, listing its claims there.
 */
final class DraCases {
  private DraCases() {}

  static final String AREA = "DRA";

  static List<UpstreamCase> all() {
    List<UpstreamCase> c = new ArrayList<>();
    String table = "should handle DRA pods correctly: ";
    // The three entries with claims, each with upstream's own pod: its requests, its init container and
    // the claim each container names (ContainerResourceClaims, InitContainerResourceClaims).
    Pod requested = pod("p", "cpu", "1", "memory", "1Gi");
    Map<String, Pod> entries = new java.util.LinkedHashMap<>();
    entries.put("container with resource claims", claiming(requested, List.of("gpu-claim")));
    entries.put("init container with resource claims", claiming(withInit(requested, "cpu", "500m", "memory", "512Mi"),
        List.of("gpu-init-claim")));
    entries.put("pod with both container and init container resource claims", claiming(withInit(requested, "cpu",
        "250m", "memory", "256Mi"), List.of("gpu-claim", "storage-init-claim")));
    for (var e : entries.entrySet()) {
      c.add(UpstreamCase.of(AREA, SchedulingCases.FILE, table + e.getKey(), () -> {
        Pod p = e.getValue();
        ProvisioningPlan plan = provision(List.of(pool("default")), List.of(p));
        assertThat(plan.newClaims()).isEmpty();
        assertThat(plan.errors()).containsExactly(Map.entry(p.key(), DraProvisioning.NOT_SUPPORTED));
      }));
    }
    c.add(UpstreamCase.of(AREA, SchedulingCases.FILE, table + "non-DRA pod without resource claims", () -> {
      Pod p = pod("p", "cpu", "1", "memory", "1Gi");
      ProvisioningPlan plan = provision(List.of(pool("default")), List.of(p));
      assertThat(plan.newClaims()).hasSize(1);
      assertThat(plan.errors()).isEmpty();
    }));
    c.add(UpstreamCase.of(AREA, SchedulingCases.FILE,
        "should handle DaemonSet pods with DRA requirements based on IgnoreDRARequests flag value", () -> {
          // IgnoreDRARequests=false: Karpenter's allocator (ignoreDRARequests: false) counts the DaemonSet's pods.
          NodePool np = pool("default");
          Workload.DaemonSet draDaemon = daemonSet("dra-daemon", claimingSpec(PodSpec.of(Container.of("d", "daemon",
              ResourceList.of("cpu", "3"), ResourceList.EMPTY)), List.of("gpu-claim")));
          Pod app = pod("app", "cpu", "1");
          long ignored = cheapestCpu(solve(np, draDaemon, app, DraRequests.IGNORE));
          long counted = cheapestCpu(solve(np, draDaemon, app, DraRequests.KARPENTER));
          assertThat(ignored).isLessThan(counted);
        }));
    return c;
  }

  /** The pod naming one template claim per entry (the templates need not exist: the pod is refused first). */
  static Pod claiming(Pod p, List<String> names) {
    return p.withSpec(claimingSpec(p.spec(), names));
  }

  static PodSpec claimingSpec(PodSpec s, List<String> names) {
    return s.withResourceClaims(names.stream()
        .<PodResourceClaim>map(n -> new PodResourceClaim.FromTemplate(n, n + "-template")).toList());
  }

  private static ProvisioningPlan solve(NodePool np, Workload.DaemonSet ds, Pod pod, DraRequests mode) {
    DraProvisioning dra = new DraProvisioning(mode, DraObjects.NONE, GpuCatalog.builtIn());
    Provisioner p = new Provisioner(ProvisioningModel.of(List.of(np), CATALOG, List.of(ds), NvidiaDevicePlugin.DEFAULTS,
        GpuSizing.PHYSICAL, NodeOverlays.NONE, Map.of(), dra));
    return p.solve(List.of(pod), List.of(), List.of(ds), OfferingAvailability.ALL, T0);
  }

  private static long cheapestCpu(ProvisioningPlan plan) {
    assertThat(plan.newClaims()).hasSize(1);
    return plan.newClaims().getFirst().instanceTypes().getFirst().vcpu();
  }
}
