package io.gpufleet.autoscaler.conformance;

import static io.gpufleet.autoscaler.conformance.K.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.provisioning.ProvisioningPlan;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.RequirementOperator;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Cases from {@code pkg/controllers/provisioning/scheduling/suite_test.go} and {@code
 * instance_selection_test.go} of kubernetes-sigs/karpenter. Upstream's fake zones {@code
 * test-zone-1..3} become us-east-1a..c, its fake instance types the catalogue's m5/c5 types.
 */
final class SchedulingCases {
  private SchedulingCases() {}

  static final String FILE = "pkg/controllers/provisioning/scheduling/suite_test.go";
  static final String SELECTION = "pkg/controllers/provisioning/scheduling/instance_selection_test.go";
  static final String AREA = "scheduling";

  static List<UpstreamCase> all() {
    List<UpstreamCase> c = new ArrayList<>();
    NodePool labelled = labelled(pool("default"), "test-key", "test-value");
    c.add(UpstreamCase.of(AREA, FILE, "should schedule unconstrained pods that don't have matching node selectors", () -> {
      Pod p = pod("p");
      ProvisioningPlan plan = provision(List.of(labelled), List.of(p));
      assertThat(launch(claimOf(plan, p)).labels().get("test-key")).contains("test-value");
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should not schedule pods that have conflicting node selectors", () -> {
      Pod p = selecting(pod("p"), "test-key", "different-value");
      assertThat(scheduled(provision(List.of(labelled), List.of(p)), p)).isFalse();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should not schedule pods that have node selectors with undefined key", () -> {
      Pod p = selecting(pod("p"), "test-key", "test-value");
      assertThat(scheduled(provision(List.of(pool("default")), List.of(p)), p)).isFalse();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should schedule pods that have matching requirements", () -> {
      Pod p = requiring(pod("p"), Requirement.in("test-key", "test-value", "another-value"));
      ProvisioningPlan plan = provision(List.of(labelled), List.of(p));
      assertThat(launch(claimOf(plan, p)).labels().get("test-key")).contains("test-value");
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should not schedule pods that have conflicting requirements", () -> {
      Pod p = requiring(pod("p"), Requirement.in("test-key", "another-value"));
      assertThat(scheduled(provision(List.of(labelled), List.of(p)), p)).isFalse();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should use NodePool constraints", () -> {
      Pod p = pod("p");
      ProvisioningPlan plan = provision(List.of(pool("default", req(ZONE, RequirementOperator.IN, "us-east-1b"))),
          List.of(p));
      assertThat(launch(claimOf(plan, p)).labels().get(ZONE)).contains("us-east-1b");
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should use node selectors", () -> {
      Pod p = selecting(pod("p"), ZONE, "us-east-1b");
      ProvisioningPlan plan = provision(List.of(pool("default", req(ZONE, RequirementOperator.IN, "us-east-1a",
          "us-east-1b"))), List.of(p));
      assertThat(launch(claimOf(plan, p)).labels().get(ZONE)).contains("us-east-1b");
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should not schedule nodes with a hostname selector", () -> {
      Pod p = selecting(pod("p"), "kubernetes.io/hostname", "red-node");
      assertThat(scheduled(provision(List.of(pool("default")), List.of(p)), p)).isFalse();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should not schedule the pod if nodeselector unknown", () -> {
      Pod p = selecting(pod("p"), ZONE, "unknown");
      assertThat(scheduled(provision(List.of(pool("default", req(ZONE, RequirementOperator.IN, "us-east-1a"))),
          List.of(p)), p)).isFalse();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should not schedule if node selector outside of NodePool constraints", () -> {
      Pod p = selecting(pod("p"), ZONE, "us-east-1b");
      assertThat(scheduled(provision(List.of(pool("default", req(ZONE, RequirementOperator.IN, "us-east-1a"))),
          List.of(p)), p)).isFalse();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should schedule compatible requirements with Operator=In", () -> {
      Pod p = requiring(pod("p"), Requirement.in(ZONE, "us-east-1c"));
      ProvisioningPlan plan = provision(List.of(pool("default")), List.of(p));
      assertThat(launch(claimOf(plan, p)).labels().get(ZONE)).contains("us-east-1c");
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should schedule compatible requirements with Operator=NotIn", () -> {
      Pod p = requiring(pod("p"), Requirement.notIn(ZONE, "us-east-1a", "us-east-1b"));
      ProvisioningPlan plan = provision(List.of(pool("default")), List.of(p));
      assertThat(launch(claimOf(plan, p)).labels().get(ZONE)).contains("us-east-1c");
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should schedule compatible requirements with Operator=Gt", () -> {
      // Upstream selects on a fake integer label; here the catalogue's instance-cpu label.
      Pod p = requiring(pod("p"), Requirement.gt("karpenter.k8s.aws/instance-cpu", 8));
      ProvisioningPlan plan = provision(List.of(pool("default")), List.of(p));
      assertThat(CATALOG.require(launchedType(plan, p)).vcpu()).isGreaterThan(8);
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should schedule compatible requirements with Operator=Lt", () -> {
      Pod p = requiring(pod("p", "cpu", "1"), Requirement.lt("karpenter.k8s.aws/instance-cpu", 4));
      ProvisioningPlan plan = provision(List.of(pool("default")), List.of(p));
      assertThat(CATALOG.require(launchedType(plan, p)).vcpu()).isLessThan(4);
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should not schedule pods that have node selectors with In operator and "
        + "undefined key", () -> {
      Pod p = requiring(pod("p"), Requirement.in("test-key", "test-value"));
      assertThat(scheduled(provision(List.of(pool("default")), List.of(p)), p)).isFalse();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should schedule pods that have node selectors with NotIn operator and "
        + "undefined key", () -> {
      Pod p = requiring(pod("p"), Requirement.notIn("test-key", "test-value"));
      ProvisioningPlan plan = provision(List.of(pool("default")), List.of(p));
      assertThat(launch(claimOf(plan, p)).labels().get("test-key")).isEmpty();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should not schedule pods that have node selectors with Exists operator and "
        + "undefined key", () -> {
      Pod p = requiring(pod("p"), Requirement.exists("test-key"));
      assertThat(scheduled(provision(List.of(pool("default")), List.of(p)), p)).isFalse();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should schedule pods that with DoesNotExists operator and undefined key", () -> {
      Pod p = requiring(pod("p"), Requirement.doesNotExist("test-key"));
      ProvisioningPlan plan = provision(List.of(pool("default")), List.of(p));
      assertThat(launch(claimOf(plan, p)).labels().get("test-key")).isEmpty();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should not schedule the pod with DoesNotExists operator and defined key", () -> {
      Pod p = requiring(pod("p"), Requirement.doesNotExist("test-key"));
      assertThat(scheduled(provision(List.of(labelled), List.of(p)), p)).isFalse();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should schedule compatible pods to the same node", () -> {
      NodePool np = pool("default", req("test-key", RequirementOperator.IN, "test-value", "another-value"));
      Pod a = selecting(pod("a"), "test-key", "test-value");
      Pod b = requiring(pod("b"), Requirement.notIn("test-key", "another-value"));
      ProvisioningPlan plan = provision(List.of(np), List.of(a, b));
      assertThat(claimOf(plan, a)).isSameAs(claimOf(plan, b));
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should schedule incompatible pods to the different node", () -> {
      NodePool np = pool("default", req("test-key", RequirementOperator.IN, "test-value", "another-value"));
      Pod a = selecting(pod("a"), "test-key", "test-value");
      Pod b = requiring(pod("b"), Requirement.in("test-key", "another-value"));
      ProvisioningPlan plan = provision(List.of(np), List.of(a, b));
      assertThat(claimOf(plan, a)).isNotSameAs(claimOf(plan, b));
      assertThat(launch(claimOf(plan, b)).labels().get("test-key")).contains("another-value");
    }));
    // Instance Type Compatibility
    c.add(UpstreamCase.of(AREA, FILE, "should not schedule if requesting more resources than any instance type has",
        () -> {
          Pod p = pod("p", "cpu", "512");
          assertThat(scheduled(provision(List.of(pool("default")), List.of(p)), p)).isFalse();
        }));
    c.add(UpstreamCase.of(AREA, FILE, "should launch pods with different zone selectors on different instances", () -> {
      Pod a = selecting(pod("a"), ZONE, "us-east-1a");
      Pod b = selecting(pod("b"), ZONE, "us-east-1b");
      ProvisioningPlan plan = provision(List.of(pool("default")), List.of(a, b));
      assertThat(plan.newClaims()).hasSize(2);
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should launch pods with different instance type node selectors on different "
        + "instances", () -> {
      Pod a = selecting(pod("a"), TYPE, "m5.large");
      Pod b = selecting(pod("b"), TYPE, "c5.large");
      ProvisioningPlan plan = provision(List.of(pool("default")), List.of(a, b));
      assertThat(plan.newClaims()).hasSize(2);
      assertThat(launchedType(plan, a)).isEqualTo("m5.large");
      assertThat(launchedType(plan, b)).isEqualTo("c5.large");
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should launch pods with resources that aren't on any single instance type on "
        + "different instances", () -> {
      // Two pods of 10 cpu each: no m5/c5 type has 20.
      Pod a = pod("a", "cpu", "10");
      Pod b = pod("b", "cpu", "10");
      ProvisioningPlan plan = provision(List.of(pool("default")), List.of(a, b));
      assertThat(scheduled(plan, a) && scheduled(plan, b)).isTrue();
      assertThat(claimOf(plan, a)).isNotSameAs(claimOf(plan, b));
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should fail to schedule a pod with resources requests that aren't on a single "
        + "instance type", () -> {
      // Upstream uses two fake resources; here 8 cpu only m5.4xlarge has and a GPU only g4dn.xlarge has.
      Pod p = pod("p", "cpu", "8", "nvidia.com/gpu", "1");
      ProvisioningPlan plan = provision(List.of(bare("two", req(TYPE, RequirementOperator.IN, "m5.4xlarge",
          "g4dn.xlarge"))), List.of(p));
      assertThat(plan.newClaims()).isEmpty();
      assertThat(scheduled(plan, p)).isFalse();
    }));
    // Binpacking
    c.add(UpstreamCase.of(AREA, FILE, "should schedule a small pod on the smallest instance", () -> {
      Pod p = pod("p", "memory", "100M");
      assertThat(launchedType(provision(List.of(pool("default")), List.of(p)), p)).isEqualTo("c5.large");
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should create new nodes when a node is at capacity", () -> {
      // 1.8G pods on c5.large only (2 per node, as upstream's default type): 40 pods, 20 nodes.
      NodePool np = pool("default", req(TYPE, RequirementOperator.IN, "c5.large"));
      List<Pod> pods = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        pods.add(pod("p" + i, "memory", "1.5G"));
      }
      ProvisioningPlan plan = provision(List.of(np), pods);
      assertThat(pods).allMatch(p -> scheduled(plan, p));
      assertThat(plan.newClaims()).hasSize(20);
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should handle zero-quantity resource requests", () -> {
      Pod p = pod("p", "foo.com/weird-resources", "0");
      assertThat(scheduled(provision(List.of(pool("default")), List.of(p)), p)).isTrue();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should not schedule pods that exceed every instance type's capacity", () -> {
      Pod p = pod("p", "memory", "2Ti");
      assertThat(scheduled(provision(List.of(pool("default")), List.of(p)), p)).isFalse();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should create new nodes when a node is at capacity due to pod limits per node",
        () -> {
          // c5.large takes 29 pods; 58 tiny pods need two of them.
          NodePool np = pool("default", req(TYPE, RequirementOperator.IN, "c5.large"));
          List<Pod> pods = new ArrayList<>();
          for (int i = 0; i < 58; i++) {
            pods.add(pod("p" + i, "cpu", "1m", "memory", "1m"));
          }
          ProvisioningPlan plan = provision(List.of(np), pods);
          assertThat(pods).allMatch(p -> scheduled(plan, p));
          assertThat(plan.newClaims()).hasSize(2);
        }));
    c.add(UpstreamCase.of(AREA, FILE, "should take into account initContainer resource requests when binpacking", () -> {
      Pod p = withInit(pod("p", "cpu", "1"), "cpu", "3");
      assertThat(CATALOG.require(launchedType(provision(List.of(pool("default")), List.of(p)), p)).vcpu())
          .isGreaterThanOrEqualTo(4);
    }));
    // In-Flight Nodes
    NodePool np = pool("default");
    c.add(UpstreamCase.of(AREA, FILE, "should not launch a second node if there is an in-flight node that can support "
        + "the pod", () -> {
      Pod second = pod("second", "cpu", "10m");
      ProvisioningPlan plan = provision(List.of(np), List.of(second), List.of(withPods(inFlight(np, "c5.large"),
          pod("first", "cpu", "10m"))), List.of());
      assertThat(plan.newClaims()).isEmpty();
      assertThat(plan.onExisting()).containsKey(second.key());
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should launch a second node if a pod won't fit on the existingNodes node", () -> {
      // c5.large leaves 1930m; 1001m is there already, 1000m more does not fit.
      Pod second = pod("second", "cpu", "1");
      ProvisioningPlan plan = provision(List.of(np), List.of(second), List.of(withPods(inFlight(np, "c5.large"),
          pod("first", "cpu", "1001m"))), List.of());
      assertThat(plan.newClaims()).hasSize(1);
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should launch a second node if a pod isn't compatible with the existingNodes "
        + "node (node selector)", () -> {
      NodePool both = pool("default", req(ARCH, RequirementOperator.IN, "amd64", "arm64"));
      Pod second = selecting(pod("second"), ZONE, "us-east-1c");
      StateNode inA = withPods(inFlight(both, "c5.large"), pod("first", "cpu", "10m"));
      assertThat(inA.labels().get(ZONE)).isNotEqualTo(java.util.Optional.of("us-east-1c"));
      ProvisioningPlan plan = provision(List.of(both), List.of(second), List.of(inA), List.of());
      assertThat(plan.newClaims()).hasSize(1);
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should launch a second node if an in-flight node is terminating", () -> {
      Pod second = pod("second", "cpu", "10m");
      ProvisioningPlan plan = provision(List.of(np), List.of(second), List.of(inFlight(np, "c5.large", true)),
          List.of());
      assertThat(plan.newClaims()).hasSize(1);
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should pack in-flight nodes before launching new nodes", () -> {
      // Two in-flight nodes with room: eight small pods land on them, none on a new node.
      List<Pod> pods = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        pods.add(pod("p" + i, "cpu", "200m"));
      }
      ProvisioningPlan plan = provision(List.of(np), pods, List.of(inFlight(np, "c5.large"), inFlight(np,
          "m5.large")), List.of());
      assertThat(plan.newClaims()).isEmpty();
      Set<String> used = new HashSet<>(plan.onExisting().values());
      assertThat(used).isNotEmpty();
    }));
    // Instance selection
    c.add(UpstreamCase.of(AREA, SELECTION, "should schedule on one of the cheapest instances", () -> {
      Pod p = pod("p");
      ProvisioningPlan plan = provision(List.of(pool("default")), List.of(p));
      String type = launchedType(plan, p);
      double cheapest = CATALOG.types().stream().filter(t -> t.family().equals("m5") || t.family().equals("c5"))
          .mapToDouble(t -> t.cheapest(o -> true).orElseThrow().pricePerHour()).min().orElseThrow();
      assertThat(CATALOG.require(type).cheapest(o -> true).orElseThrow().pricePerHour()).isEqualTo(cheapest);
    }));
    c.add(UpstreamCase.of(AREA, SELECTION, "should schedule on one of the cheapest instances (pod zone = test-zone-2)",
        () -> {
          Pod p = selecting(pod("p"), ZONE, "us-east-1b");
          var claim = launch(claimOf(provision(List.of(pool("default")), List.of(p)), p));
          assertThat(claim.offering().zone()).isEqualTo("us-east-1b");
          assertThat(claim.instanceType().name()).isEqualTo("c5.large");
        }));
    c.add(UpstreamCase.of(AREA, SELECTION, "should schedule on one of the cheapest instances (prov ct = spot)", () -> {
      Pod p = pod("p");
      var claim = launch(claimOf(provision(List.of(pool("default", req(CAPACITY_TYPE, RequirementOperator.IN,
          "spot"))), List.of(p)), p));
      assertThat(claim.offering().capacityType().wireName()).isEqualTo("spot");
    }));
    c.add(UpstreamCase.of(AREA, SELECTION, "should schedule on one of the cheapest instances (pod ct = spot)", () -> {
      Pod p = selecting(pod("p"), CAPACITY_TYPE, "spot");
      var claim = launch(claimOf(provision(List.of(pool("default")), List.of(p)), p));
      assertThat(claim.offering().capacityType().wireName()).isEqualTo("spot");
    }));
    c.add(UpstreamCase.of(AREA, SELECTION, "should not schedule if no instance type matches selector (pod arch = arm)",
        () -> {
          Pod p = selecting(pod("p"), ARCH, "arm64");
          assertThat(scheduled(provision(List.of(pool("default")), List.of(p)), p)).isFalse();
        }));
    c.add(UpstreamCase.of(AREA, SELECTION, "should schedule on an instance with enough resources", () -> {
      Pod p = pod("p", "cpu", "3", "memory", "20Gi");
      var type = CATALOG.require(launchedType(provision(List.of(pool("default")), List.of(p)), p));
      assertThat(type.vcpu()).isGreaterThanOrEqualTo(4);
      assertThat(type.memoryMib()).isGreaterThan(20 * 1024);
    }));
    c.add(UpstreamCase.of(AREA, SELECTION, "schedule should fail if minimum number of InstanceTypes is not met as per "
        + "the minValues in the requirement", () -> {
      NodePool strict = bare("default", min(TYPE, 3, "m5.large", "m5.xlarge", "c5.large"),
          req(CAPACITY_TYPE, RequirementOperator.IN, "on-demand"));
      // 3 cpu leaves only m5.xlarge of the three: fewer than minValues 3.
      Pod p = pod("p", "cpu", "3");
      assertThat(scheduled(provision(List.of(strict), List.of(p)), p)).isFalse();
    }));
    c.add(UpstreamCase.of(AREA, SELECTION, "should schedule respecting the minValues from instance-type requirements",
        () -> {
          NodePool strict = bare("default", min(TYPE, 2, "m5.large", "m5.xlarge", "c5.large"));
          Pod p = pod("p", "cpu", "1");
          ProvisioningPlan plan = provision(List.of(strict), List.of(p));
          assertThat(claimOf(plan, p).instanceTypes().size()).isGreaterThanOrEqualTo(2);
        }));
    return c;
  }

  private static StateNode withPods(StateNode n, Pod... pods) {
    return new StateNode(n.name(), n.claim(), n.node(), List.of(pods), n.terminating(), n.lastPodEvent(),
        n.markedForDeletion());
  }
}
