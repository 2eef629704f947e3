package io.gpufleet.autoscaler.conformance;

import static io.gpufleet.autoscaler.conformance.K.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.provisioning.ProvisioningPlan;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.RequirementOperator;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;

/** Cases from {@code pkg/controllers/provisioning/suite_test.go} of kubernetes-sigs/karpenter. */
final class ProvisioningCases {
  private ProvisioningCases() {}

  static final String FILE = "pkg/controllers/provisioning/suite_test.go";
  static final String AREA = "provisioning";

  static List<UpstreamCase> all() {
    List<UpstreamCase> c = new ArrayList<>();
    c.add(UpstreamCase.of(AREA, FILE, "should provision nodes", () -> {
      Pod p = pod("p");
      ProvisioningPlan plan = provision(List.of(pool("default")), List.of(p));
      assertThat(plan.newClaims()).hasSize(1);
      assertThat(scheduled(plan, p)).isTrue();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "Should provision nodes for multiple pods", () -> {
      List<Pod> pods = List.of(pod("a"), pod("b"));
      ProvisioningPlan plan = provision(List.of(pool("default")), pods);
      assertThat(pods).allMatch(p -> scheduled(plan, p));
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should mark pod as unschedulable if there are no valid nodepools", () -> {
      Pod p = pod("p");
      ProvisioningPlan plan = provision(List.of(), List.of(p));
      assertThat(plan.newClaims()).isEmpty();
      assertThat(plan.errors()).containsKey(p.key());
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should provision nodes for accelerators", () -> {
      // Upstream asks for its fake vendor GPUs; here nvidia.com/gpu over the catalogue's GPU families.
      Pod p = pod("p", "nvidia.com/gpu", "1");
      ProvisioningPlan plan = provision(List.of(bare("gpu", req(FAMILY, RequirementOperator.IN, "g6", "g5"))),
          List.of(p));
      assertThat(CATALOG.require(launchedType(plan, p)).gpuCount()).isGreaterThanOrEqualTo(1);
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should schedule based on the max resource requests of containers and "
        + "initContainers", () -> {
      // The init container's 6 cpu dominates the 1 cpu app container: an 8-vCPU type is needed.
      Pod p = withInit(pod("p", "cpu", "1", "memory", "1Gi"), "cpu", "6", "memory", "1Gi");
      ProvisioningPlan plan = provision(List.of(pool("default")), List.of(p));
      assertThat(CATALOG.require(launchedType(plan, p)).vcpu()).isGreaterThanOrEqualTo(8);
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should not schedule if initContainer resources are too large", () -> {
      Pod p = withInit(pod("p", "cpu", "1"), "cpu", "40");
      ProvisioningPlan plan = provision(List.of(pool("default")), List.of(p));
      assertThat(scheduled(plan, p)).isFalse();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should be able to schedule pods if resource requests and limits are not "
        + "defined", () -> {
      Pod p = pod("p");
      assertThat(scheduled(provision(List.of(pool("default")), List.of(p)), p)).isTrue();
    }));
    // Resource Limits
    c.add(UpstreamCase.of(AREA, FILE, "should not schedule when limits are exceeded", () -> {
      // Upstream: a 100-cpu claim against a 20-cpu limit; here a 16-vCPU m5.4xlarge against 10.
      NodePool np = pool("default").withLimits(ResourceList.of("cpu", "10"));
      Pod p = pod("p");
      ProvisioningPlan plan = provision(List.of(np), List.of(p), List.of(inFlight(np, "m5.4xlarge", true)), List.of());
      assertThat(scheduled(plan, p)).isFalse();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should schedule if limits would be met", () -> {
      NodePool np = pool("default").withLimits(ResourceList.of("cpu", "2"));
      Pod p = pod("p", "cpu", "1.75");
      ProvisioningPlan plan = provision(List.of(np), List.of(p));
      assertThat(CATALOG.require(launchedType(plan, p)).vcpu()).isEqualTo(2);
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should not schedule if limits would be exceeded", () -> {
      NodePool np = pool("default").withLimits(ResourceList.of("cpu", "2"));
      Pod p = pod("p", "cpu", "2.1");
      assertThat(scheduled(provision(List.of(np), List.of(p)), p)).isFalse();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should not schedule if limits would be exceeded (GPU)", () -> {
      // Upstream: a pods limit of 1 below the only GPU type's; here an nvidia.com/gpu limit of 2 below the
      // 4-GPU types a 3-GPU pod needs.
      NodePool np = bare("gpu", req(FAMILY, RequirementOperator.IN, "g6")).withLimits(ResourceList.of(
          "nvidia.com/gpu", "2"));
      Pod p = pod("p", "nvidia.com/gpu", "3");
      assertThat(scheduled(provision(List.of(np), List.of(p)), p)).isFalse();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should not schedule to a nodepool after a scheduling round if limits would be "
        + "exceeded", () -> {
      NodePool np = pool("default").withLimits(ResourceList.of("cpu", "2"));
      Pod first = pod("first", "cpu", "1.75");
      ProvisioningPlan round1 = provision(List.of(np), List.of(first));
      assertThat(scheduled(round1, first)).isTrue();
      String type = launchedType(round1, first);
      Pod second = pod("second", "cpu", "1.75");
      ProvisioningPlan round2 = provision(List.of(np), List.of(second), List.of(inFlightFull(np, type)), List.of());
      assertThat(scheduled(round2, second)).isFalse();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should not schedule if limits would be exceeded (node)", () -> {
      NodePool np = pool("default").withLimits(ResourceList.of("nodes", "2"));
      Pod p = pod("p", "cpu", "1.5");
      ProvisioningPlan plan = provision(List.of(np), List.of(p),
          List.of(inFlightFull(np, "m5.large"), inFlightFull(np, "m5.large")), List.of());
      assertThat(scheduled(plan, p)).isFalse();
      ProvisioningPlan one = provision(List.of(np), List.of(p), List.of(inFlightFull(np, "m5.large")), List.of());
      assertThat(scheduled(one, p)).isTrue();
    }));
    // Daemonsets
    c.add(UpstreamCase.of(AREA, FILE, "should account for daemonsets", () -> {
      // Upstream: a 1-cpu/1Gi daemon beside a 1-cpu/1Gi pod needs a node with >= 2 cpu, 2Gi allocatable.
      var ds = daemonSet("logs", "cpu", "1", "memory", "1Gi");
      Pod p = pod("p", "cpu", "1", "memory", "1Gi");
      ProvisioningPlan plan = provision(List.of(pool("default")), List.of(p), List.of(), List.of(ds));
      var type = CATALOG.require(launchedType(plan, p));
      assertThat(type.allocatable().getOrZero(io.gpufleet.model.resource.ResourceName.CPU).milliValue())
          .isGreaterThanOrEqualTo(2000);
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should not schedule if daemonset overhead is too large", () -> {
      var ds = daemonSet("huge", "cpu", "10000", "memory", "10000Gi");
      Pod p = pod("p");
      assertThat(scheduled(provision(List.of(pool("default")), List.of(p), List.of(), List.of(ds)), p)).isFalse();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should ignore daemonsets without matching tolerations", () -> {
      NodePool tainted = pool("default");
      tainted = tainted.withTemplate(tainted.template().withTaints(List.of(Taint.of("foo", "bar",
          TaintEffect.NO_SCHEDULE))));
      var ds = daemonSet("d", "cpu", "1", "memory", "1Gi");
      Pod p = tolerating(pod("p", "cpu", "1", "memory", "1Gi"), Toleration.exists("foo", TaintEffect.NO_SCHEDULE));
      ProvisioningPlan plan = provision(List.of(tainted), List.of(p), List.of(), List.of(ds));
      // Without the daemon's 1 cpu, the pod fits the 2-vCPU c5.large (1930m allocatable).
      assertThat(launchedType(plan, p)).isEqualTo("c5.large");
    }));
    // Taints
    c.add(UpstreamCase.of(AREA, FILE, "should schedule pods that tolerate taints", () -> {
      NodePool np = pool("default");
      np = np.withTemplate(np.template().withTaints(List.of(Taint.of("nvidia.com/gpu", "true",
          TaintEffect.NO_SCHEDULE))));
      Pod tolerates = tolerating(pod("t"), Toleration.exists("nvidia.com/gpu", TaintEffect.NO_SCHEDULE));
      Pod equal = tolerating(pod("e"), Toleration.equal("nvidia.com/gpu", "true", TaintEffect.NO_SCHEDULE));
      Pod wrongValue = tolerating(pod("w"), Toleration.equal("nvidia.com/gpu", "false", TaintEffect.NO_SCHEDULE));
      Pod none = pod("n");
      ProvisioningPlan plan = provision(List.of(np), List.of(tolerates, equal, wrongValue, none));
      assertThat(scheduled(plan, tolerates)).isTrue();
      assertThat(scheduled(plan, equal)).isTrue();
      assertThat(scheduled(plan, wrongValue)).isFalse();
      assertThat(scheduled(plan, none)).isFalse();
    }));
    // Multiple NodePools
    c.add(UpstreamCase.of(AREA, FILE, "should schedule to an explicitly selected NodePool", () -> {
      Pod p = selecting(pod("p"), NODEPOOL, "b");
      ProvisioningPlan plan = provision(List.of(pool("a"), pool("b")), List.of(p));
      assertThat(claimOf(plan, p).nodePool()).isEqualTo("b");
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should schedule to a NodePool by labels", () -> {
      Pod p = selecting(pod("p"), "team", "ml");
      ProvisioningPlan plan = provision(List.of(pool("a"), labelled(pool("b"), "team", "ml")), List.of(p));
      assertThat(claimOf(plan, p).nodePool()).isEqualTo("b");
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should schedule to the nodepool with the highest priority always", () -> {
      List<Pod> pods = List.of(pod("a"), pod("b"), pod("c"));
      ProvisioningPlan plan = provision(List.of(pool("low"), pool("high").withWeight(100), pool("mid")
          .withWeight(20)), pods);
      assertThat(pods).allMatch(p -> claimOf(plan, p).nodePool().equals("high"));
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should schedule to explicitly selected nodepool even if other nodePools are "
        + "higher priority", () -> {
      Pod p = selecting(pod("p"), NODEPOOL, "low");
      ProvisioningPlan plan = provision(List.of(pool("low"), pool("high").withWeight(100)), List.of(p));
      assertThat(claimOf(plan, p).nodePool()).isEqualTo("low");
    }));
    // MinValuesPolicy
    c.add(UpstreamCase.of(AREA, FILE, "should not schedule when minValues requirement is not met", () -> {
      // Strict (the default): a 6-cpu pod leaves only the 8- and 16-vCPU m5/c5 types, four types, fewer
      // than the NodePool's minValues of 5 instance types.
      NodePool np = bare("default", min(TYPE, 5, "m5.large", "m5.xlarge", "m5.2xlarge", "m5.4xlarge", "c5.large",
          "c5.xlarge", "c5.2xlarge", "c5.4xlarge"));
      Pod p = pod("p", "cpu", "6");
      assertThat(scheduled(provision(List.of(np), List.of(p)), p)).isFalse();
    }));
    return c;
  }

  /** An in-flight node of this type whose capacity its own pods already take. */
  private static io.gpufleet.autoscaler.state.StateNode inFlightFull(NodePool np, String type) {
    var n = inFlight(np, type);
    var node = n.claim().orElseThrow();
    Pod filler = pod("filler-" + node.name(), "cpu", node.instanceType().vcpu() + "");
    return new io.gpufleet.autoscaler.state.StateNode(n.name(), n.claim(), n.node(), List.of(filler), n.terminating(),
        n.lastPodEvent(), false);
  }
}
