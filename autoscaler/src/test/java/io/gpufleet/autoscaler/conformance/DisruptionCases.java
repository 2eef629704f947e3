package io.gpufleet.autoscaler.conformance;

import static io.gpufleet.autoscaler.conformance.K.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.disruption.DisruptionCommand;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.autoscaler.termination.DoNotDisrupt;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.cloud.Offering;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.model.karpenter.Budget;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.NodeClaimTemplate;
import io.gpufleet.model.karpenter.DisruptionReason;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.workload.IntOrPercent;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Cases from kubernetes-sigs/karpenter's {@code pkg/controllers/disruption/*_test.go}, run through the
 * disruption controller's poll on hand-built clusters: m5 on-demand nodes initialised at T0, looked
 * at an hour later unless the case is about time.
 */
final class DisruptionCases {
  private DisruptionCases() {}

  static final String EMPTINESS = "pkg/controllers/disruption/emptiness_test.go";
  static final String CONSOLIDATION = "pkg/controllers/disruption/consolidation_test.go";
  static final String DRIFT = "pkg/controllers/disruption/drift_test.go";
  static final String SUITE = "pkg/controllers/disruption/suite_test.go";

  static final String POD_UTILS = "pkg/utils/pod/suite_test.go";

  static List<UpstreamCase> all() {
    List<UpstreamCase> c = new ArrayList<>();
    NodePool empty = consolidating(ConsolidationPolicy.WHEN_EMPTY, Duration.ZERO, 100);
    NodePool under = consolidating(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, Duration.ZERO, 100);
    // Emptiness
    c.add(UpstreamCase.of("emptiness", EMPTINESS, "can delete empty nodes", () -> {
      StateNode n = node(empty, "m5.large", 1);
      DisruptionCommand cmd = poll(empty, List.of(n), List.of()).orElseThrow();
      assertThat(cmd.reason()).isEqualTo(DisruptionReason.EMPTY);
      assertThat(cmd.candidates()).containsExactly(n.name());
      assertThat(cmd.isDelete()).isTrue();
    }));
    c.add(UpstreamCase.of("emptiness", EMPTINESS, "can delete multiple empty nodes", () -> {
      StateNode a = node(empty, "m5.large", 1);
      StateNode b = node(empty, "m5.large", 2);
      DisruptionCommand cmd = poll(empty, List.of(a, b), List.of()).orElseThrow();
      assertThat(cmd.candidates()).containsExactlyInAnyOrder(a.name(), b.name());
    }));
    c.add(UpstreamCase.of("emptiness", EMPTINESS, "should ignore nodes with the karpenter.sh/do-not-disrupt "
        + "annotation", () -> {
      StateNode n = annotated(node(empty, "m5.large", 1), "true");
      assertThat(poll(empty, List.of(n), List.of())).isEmpty();
    }));
    c.add(UpstreamCase.of("emptiness", EMPTINESS, "should delete nodes with the karpenter.sh/do-not-disrupt "
        + "annotation set to false", () -> {
      StateNode n = annotated(node(empty, "m5.large", 1), "false");
      assertThat(poll(empty, List.of(n), List.of())).isPresent();
    }));
    c.add(UpstreamCase.of("emptiness", EMPTINESS, "should ignore nodes that have pods", () -> {
      StateNode n = node(empty, "m5.large", 1, owned(pod("a", "cpu", "100m")));
      assertThat(poll(empty, List.of(n), List.of())).isEmpty();
    }));
    c.add(UpstreamCase.of("emptiness", EMPTINESS, "will consider a node with a DaemonSet pod as empty", () -> {
      StateNode n = node(empty, "m5.large", 1, daemonPod("logs-x", false));
      DisruptionCommand cmd = poll(empty, List.of(n), List.of()).orElseThrow();
      assertThat(cmd.reason()).isEqualTo(DisruptionReason.EMPTY);
    }));
    c.add(UpstreamCase.of("emptiness", EMPTINESS, "should wait for the node TTL for empty nodes before consolidating",
        () -> {
          NodePool waiting = consolidating(ConsolidationPolicy.WHEN_EMPTY, Duration.ofSeconds(30), 100);
          StateNode n = node(waiting, "m5.large", 1);
          assertThat(pollAt(T0.plusSeconds(10), waiting, List.of(n), List.of())).isEmpty();
          assertThat(pollAt(T0.plusSeconds(30), waiting, List.of(n), List.of())).isPresent();
        }));
    c.add(UpstreamCase.of("emptiness", EMPTINESS, "should allow no empty nodes to be disrupted", () -> {
      NodePool none = consolidating(ConsolidationPolicy.WHEN_EMPTY, Duration.ZERO, 0);
      assertThat(poll(none, List.of(node(none, "m5.large", 1), node(none, "m5.large", 2)), List.of())).isEmpty();
    }));
    c.add(UpstreamCase.of("emptiness", EMPTINESS, "should only allow 3 empty nodes to be disrupted", () -> {
      NodePool three = budgetedNodes(ConsolidationPolicy.WHEN_EMPTY, 3);
      List<StateNode> nodes = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        nodes.add(node(three, "m5.large", i));
      }
      assertThat(poll(three, nodes, List.of()).orElseThrow().candidates()).hasSize(3);
    }));
    // Consolidation
    c.add(UpstreamCase.of("consolidation", CONSOLIDATION, "can delete nodes", () -> {
      // Upstream: two nodes, three pods; the one on the second node fits beside the first node's two.
      StateNode a = node(under, "m5.large", 1, owned(pod("a", "cpu", "500m")), owned(pod("b", "cpu", "500m")));
      StateNode b = node(under, "m5.large", 2, owned(pod("c", "cpu", "500m")));
      DisruptionCommand cmd = poll(under, List.of(a, b), List.of()).orElseThrow();
      assertThat(cmd.isDelete()).isTrue();
      assertThat(cmd.candidates()).hasSize(1);
    }));
    c.add(UpstreamCase.of("consolidation", CONSOLIDATION, "won't delete nodes if it would make a non-pending pod go "
        + "pending", () -> {
      // Each node's pods select their own node: no pod can move.
      StateNode a = node(under, "m5.large", 1, owned(selecting(pod("a", "cpu", "500m"), "kubernetes.io/hostname",
          "n1")));
      StateNode b = node(under, "m5.large", 2, owned(selecting(pod("b", "cpu", "500m"), "kubernetes.io/hostname",
          "n2")));
      assertThat(poll(under, List.of(a, b), List.of())).isEmpty();
    }));
    c.add(UpstreamCase.of("consolidation", CONSOLIDATION, "can delete nodes with a permanently pending pod", () -> {
      StateNode a = node(under, "m5.large", 1, owned(pod("a", "cpu", "500m")), owned(pod("b", "cpu", "500m")));
      StateNode b = node(under, "m5.large", 2, owned(pod("c", "cpu", "500m")));
      Pod never = selecting(pod("pending", "cpu", "100m"), "non-existent", "node-label");
      DisruptionCommand cmd = poll(under, List.of(a, b), List.of(never)).orElseThrow();
      assertThat(cmd.isDelete()).isTrue();
    }));
    c.add(UpstreamCase.of("consolidation", CONSOLIDATION, "won't delete node if it would require pods to schedule on "
        + "an uninitialized node", () -> {
      // Upstream: the node that would take the pod is not initialised; the other is.
      StateNode serving = node(under, "m5.xlarge", 1, owned(pod("a", "cpu", "500m")));
      StateNode booting = booting(under, "m5.xlarge", 2);
      assertThat(poll(under, List.of(serving, booting), List.of())).isEmpty();
    }));
    c.add(UpstreamCase.of("consolidation", CONSOLIDATION, "can delete nodes, considers karpenter.sh/do-not-disrupt set "
        + "to true on nodes", () -> {
      StateNode a = node(under, "m5.xlarge", 1, owned(pod("a", "cpu", "500m")));
      StateNode b = annotated(node(under, "m5.xlarge", 2, owned(pod("b", "cpu", "500m"))), "true");
      DisruptionCommand cmd = poll(under, List.of(a, b), List.of()).orElseThrow();
      assertThat(cmd.candidates()).containsExactly(a.name());
    }));
    c.add(UpstreamCase.of("consolidation", CONSOLIDATION, "can delete nodes, considers karpenter.sh/do-not-disrupt set "
        + "to true on pods", () -> {
      StateNode a = node(under, "m5.xlarge", 1, owned(pod("a", "cpu", "500m")));
      StateNode b = node(under, "m5.xlarge", 2, owned(doNotDisrupt(pod("b", "cpu", "500m"), "true")));
      DisruptionCommand cmd = poll(under, List.of(a, b), List.of()).orElseThrow();
      assertThat(cmd.candidates()).containsExactly(a.name());
    }));
    c.add(UpstreamCase.of("consolidation", CONSOLIDATION, "does not consolidate nodes with pods that have a "
        + "duration-based do-not-disrupt annotation that is still active", () -> {
      // The pod started at T0 with do-not-disrupt "2h"; an hour later it is still protected.
      StateNode a = node(under, "m5.xlarge", 1, owned(doNotDisrupt(pod("a", "cpu", "500m"), "2h")));
      StateNode b = node(under, "m5.xlarge", 2, owned(doNotDisrupt(pod("b", "cpu", "500m"), "2h")));
      assertThat(poll(under, List.of(a, b), List.of())).isEmpty();
    }));
    c.add(UpstreamCase.of("consolidation", CONSOLIDATION, "can consolidate nodes after duration-based do-not-disrupt "
        + "annotation expires", () -> {
      StateNode a = node(under, "m5.xlarge", 1, owned(doNotDisrupt(pod("a", "cpu", "500m"), "30m")));
      StateNode b = node(under, "m5.xlarge", 2, owned(doNotDisrupt(pod("b", "cpu", "500m"), "30m")));
      assertThat(poll(under, List.of(a, b), List.of())).isPresent();
    }));
    c.add(UpstreamCase.of("consolidation", CONSOLIDATION, "can delete nodes, considers invalid do-not-disrupt "
        + "annotation format as not blocking", () -> {
      StateNode a = node(under, "m5.xlarge", 1, owned(doNotDisrupt(pod("a", "cpu", "500m"), "invalid")));
      StateNode b = node(under, "m5.xlarge", 2, owned(doNotDisrupt(pod("b", "cpu", "500m"), "invalid")));
      assertThat(poll(under, List.of(a, b), List.of())).isPresent();
    }));
    c.add(UpstreamCase.of("consolidation", CONSOLIDATION, "can delete nodes, considers PDB", () -> {
      // The PDB allows no disruption of app=blocked: its node stays, the other goes.
      StateNode a = node(under, "m5.xlarge", 1, owned(labelled(pod("a", "cpu", "500m"), "app", "free")));
      StateNode b = node(under, "m5.xlarge", 2, owned(labelled(pod("b", "cpu", "500m"), "app", "blocked")));
      DisruptionCommand cmd = pollWithPdb(under, List.of(a, b), "blocked").orElseThrow();
      assertThat(cmd.candidates()).containsExactly(a.name());
    }));
    c.add(UpstreamCase.of("consolidation", CONSOLIDATION, "won't replace on-demand node if on-demand replacement is "
        + "more expensive", () -> {
      // m5.large is the cheapest type that holds the pod: no replacement is cheaper.
      StateNode n = node(under, "m5.large", 1, owned(pod("a", "cpu", "1")));
      assertThat(poll(under, List.of(n), List.of())).isEmpty();
    }));
    c.add(UpstreamCase.of("consolidation", CONSOLIDATION, "cannot replace spot with spot if the "
        + "spotToSpotConsolidation is disabled", () -> {
      // The NodePool allows both capacity types, as upstream's default test NodePool does: with the gate off
      // a spot node is not replaced at all, neither by spot nor by on-demand.
      NodePool both = consolidating(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, Duration.ZERO, 100,
          "spot", "on-demand");
      StateNode n = spotNode(both, "m5.2xlarge", 1, owned(pod("a", "cpu", "500m")));
      assertThat(poll(both, List.of(n), List.of())).isEmpty();
    }));
    c.add(UpstreamCase.of("consolidation", CONSOLIDATION, "cannot replace spot with spot if less than minimum "
        + "InstanceTypes flexibility", () -> {
      // Gate on: the m5 family has three types cheaper than m5.4xlarge, fewer than the 15 required.
      NodePool spot = consolidating(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, Duration.ZERO, 100, "spot");
      StateNode n = spotNode(spot, "m5.4xlarge", 1, owned(pod("a", "cpu", "500m")));
      assertThat(pollWith(AutoscalerSettings.DEFAULTS.withSpotToSpotConsolidation(true), spot, List.of(n)))
          .isEmpty();
    }));
    c.add(UpstreamCase.of("consolidation", CONSOLIDATION, "should only allow 3 nodes to be deleted in single node "
        + "consolidation delete", () -> {
      // Context "Budgets": ten nodes of 32 allocatable CPU (here g4dn.8xlarge, 31.85 allocatable: the
      // catalogue's 32-vCPU type), one 15-CPU ReplicaSet pod on each, so two fit a node and each node's pod
      // can move beside another's; budget 30% (3 of 10). Five reconciles, each command's candidates marked
      // for deletion before the next; executing every command leaves exactly 7.
      NodePool pool = NodePool.of("general", NodeClaimTemplate.of(NodePoolRequirement.in(FAMILY, "g4dn"),
          NodePoolRequirement.in(CAPACITY_TYPE, "on-demand")));
      NodePool thirty = pool.withDisruption(pool.disruption()
          .withPolicy(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED).withConsolidateAfter(Optional.of(Duration.ZERO))
          .withBudgets(List.of(Budget.nodes(new IntOrPercent.Percent(30)))));
      List<StateNode> nodes = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        nodes.add(node(thirty, "g4dn.8xlarge", i, owned(pod("p" + i, "cpu", "15"))));
      }
      // Upstream asserts only the count left. Its comments expect single-node commands; on these inputs the
      // twin's first poll is one multi-node delete of three (firstNConsolidationOption: every prefix up to
      // the budget's three deletes), and the budget then allows nothing more.
      List<DisruptionCommand> cmds = pollTimes(5, T0.plus(Duration.ofHours(1)), thirty, nodes, PdbIndex.NONE);
      assertThat(cmds).allMatch(DisruptionCommand::isDelete);
      assertThat(10 - cmds.stream().mapToInt(cmd -> cmd.candidates().size()).sum()).isEqualTo(7);
    }));
    c.add(UpstreamCase.of("consolidation", CONSOLIDATION, "should fire an event for ConsolidationDisabled when the "
        + "NodePool has consolidation set to WhenEmpty", () -> {
      // The event is not modelled; what it reports is: a WhenEmpty NodePool's non-empty nodes are left alone.
      StateNode a = node(empty, "m5.xlarge", 1, owned(pod("a", "cpu", "500m")));
      StateNode b = node(empty, "m5.xlarge", 2, owned(pod("b", "cpu", "500m")));
      assertThat(poll(empty, List.of(a, b), List.of())).isEmpty();
    }));
    // Multi-node consolidation (Context "Multi-NodeClaim"; a DescribeTable's entries are named as Ginkgo
    // joins them, the table's text then the Entry's). Upstream's three nodes are its dearest type with
    // pods that request nothing; here m5.4xlarge with 100m pods.
    AutoscalerSettings spotGate = AutoscalerSettings.DEFAULTS.withSpotToSpotConsolidation(true);
    for (boolean spot : new boolean[] {false, true}) {
      String entry = spot ? "if the candidate is spot node" : "if the candidate is on-demand node";
      c.add(UpstreamCase.of("multi-node consolidation", CONSOLIDATION, "can merge 3 nodes into 1 " + entry, () -> {
        NodePool pool = consolidating(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, Duration.ZERO, 100,
            spot ? "spot" : "on-demand");
        List<StateNode> nodes = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
          Pod p = owned(pod("p" + i, "cpu", "100m"));
          nodes.add(spot ? spotNode(pool, "m5.4xlarge", i, p) : node(pool, "m5.4xlarge", i, p));
        }
        // Deleting two onto the third would do, but the search keeps the longest prefix: all three go.
        DisruptionCommand cmd = pollWith(spotGate, pool, nodes).orElseThrow();
        assertThat(cmd.method()).isEqualTo(DisruptionCommand.Method.MULTI_NODE_CONSOLIDATION);
        assertThat(cmd.candidates()).containsExactlyInAnyOrderElementsOf(nodes.stream().map(StateNode::name).toList());
        assertThat(cmd.replacements()).hasSize(1);
      }));
      c.add(UpstreamCase.of("multi-node consolidation", CONSOLIDATION, "won't merge 2 nodes into 1 of the same type "
          + entry, () -> {
        // Two of the cheapest type, one pod on the first and two on the second: replacing both by one
        // new m5.large is filtered out (filterOutSameInstanceType); the node with fewer pods is deleted.
        NodePool pool = consolidating(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, Duration.ZERO, 100,
            spot ? "spot" : "on-demand");
        Pod[] first = {owned(pod("a", "cpu", "100m"))};
        Pod[] second = {owned(pod("b", "cpu", "100m")), owned(pod("c", "cpu", "100m"))};
        StateNode a = spot ? spotNode(pool, "m5.large", 1, first) : node(pool, "m5.large", 1, first);
        StateNode b = spot ? spotNode(pool, "m5.large", 2, second) : node(pool, "m5.large", 2, second);
        DisruptionCommand cmd = pollWith(spotGate, pool, List.of(a, b)).orElseThrow();
        assertThat(cmd.isDelete()).isTrue();
        assertThat(cmd.candidates()).containsExactly(a.name());
      }));
    }
    c.add(UpstreamCase.of("multi-node consolidation", CONSOLIDATION, "can merge 3 nodes into 1 if the candidates have "
        + "both spot and on-demand", () -> {
      NodePool both = consolidating(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, Duration.ZERO, 100, "spot",
          "on-demand");
      List<StateNode> nodes = List.of(node(both, "m5.4xlarge", 1, owned(pod("a", "cpu", "100m"))),
          node(both, "m5.4xlarge", 2, owned(pod("b", "cpu", "100m"))),
          spotNode(both, "m5.4xlarge", 3, owned(pod("c", "cpu", "100m"))));
      DisruptionCommand cmd = pollWith(spotGate, both, nodes).orElseThrow();
      assertThat(cmd.candidates()).hasSize(3);
      assertThat(cmd.replacements()).hasSize(1);
    }));
    c.add(UpstreamCase.of("multi-node consolidation", CONSOLIDATION, "should handle failing filterOutSameInstanceType "
        + "correctly (without a panic) when minValues isn't satisfied", () -> {
      // Upstream: two on-demand types (current 0.5, other 0.4), instance-type minValues 2; here m5.xlarge
      // and the cheaper c5.xlarge. Merging the first two nodes leaves only c5.xlarge once the type being
      // removed is filtered out: minValues fails, and single-node consolidation deletes one of them.
      NodePool pool = K.bare("general", min(TYPE, 2, "m5.xlarge", "c5.xlarge"), NodePoolRequirement.in(
          CAPACITY_TYPE, "on-demand"));
      pool = pool.withDisruption(pool.disruption().withPolicy(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED)
          .withConsolidateAfter(Optional.of(Duration.ZERO)));
      StateNode a = node(pool, "m5.xlarge", 1, owned(pod("a", "cpu", "1500m")));
      StateNode b = node(pool, "m5.xlarge", 2, owned(pod("b", "cpu", "1500m")));
      StateNode third = node(pool, "m5.xlarge", 3, owned(pod("c", "cpu", "1500m")), owned(pod("d", "cpu", "1500m")));
      DisruptionCommand cmd = poll(pool, List.of(a, b, third), List.of()).orElseThrow();
      assertThat(cmd.method()).isEqualTo(DisruptionCommand.Method.SINGLE_NODE_CONSOLIDATION);
      assertThat(cmd.isDelete()).isTrue();
      assertThat(cmd.candidates()).hasSize(1).isSubsetOf(a.name(), b.name());
    }));
    c.add(UpstreamCase.of("consolidation", CONSOLIDATION, "won't replace node if any spot replacement is more "
        + "expensive", () -> {
      // Upstream's replacement type has spot offerings at 1.0, 0.2 and 0.4 against a 0.5 on-demand node.
      // Here m5.large's spot offerings are 0.5, 0.05 and 0.06 against an m5.xlarge at 0.192: the worst
      // launch price decides (WorstLaunchPrice), so it is no replacement although two zones are cheaper.
      InstanceType large = CATALOG.require("m5.large");
      List<Offering> offerings = new ArrayList<>();
      double[] spot = {0.5, 0.05, 0.06};
      String[] zones = {"us-east-1a", "us-east-1b", "us-east-1c"};
      for (int i = 0; i < 3; i++) {
        offerings.add(new Offering(CapacityType.SPOT, zones[i], spot[i], true));
        offerings.add(new Offering(CapacityType.ON_DEMAND, zones[i], large.offerings().stream()
            .filter(o -> o.capacityType() == CapacityType.ON_DEMAND).findFirst().orElseThrow().pricePerHour(), true));
      }
      // The node's own type is sold on-demand only, as upstream's "current-on-demand".
      InstanceType current = CATALOG.require("m5.xlarge");
      InstanceCatalog catalog = new InstanceCatalog(List.of(large.withOfferings(offerings), current.withOfferings(
          current.offerings().stream().filter(o -> o.capacityType() == CapacityType.ON_DEMAND).toList())));
      NodePool both = consolidating(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, Duration.ZERO, 100, "spot",
          "on-demand");
      StateNode n = node(both, "m5.xlarge", 1, owned(pod("a", "cpu", "500m")));
      assertThat(pollOn(catalog, both, List.of(n))).isEmpty();
    }));
    c.add(UpstreamCase.of("consolidation", CONSOLIDATION, "should consolidate the node with best savings ratio first",
        () -> {
          // Two of the cheapest type; two pods on the first, one on the second: the second goes.
          StateNode a = node(under, "m5.large", 1, owned(pod("a", "cpu", "100m")), owned(pod("b", "cpu", "100m")));
          StateNode b = node(under, "m5.large", 2, owned(pod("c", "cpu", "100m")));
          DisruptionCommand cmd = poll(under, List.of(a, b), List.of()).orElseThrow();
          assertThat(cmd.isDelete()).isTrue();
          assertThat(cmd.candidates()).containsExactly(b.name());
        }));
    // IsDoNotDisruptActive (Describe "IsDoNotDisruptActive"): the pod started ten minutes before now.
    Instant now = T0.plus(Duration.ofMinutes(10));
    Optional<Instant> started = Optional.of(T0);
    c.add(UpstreamCase.of("do-not-disrupt", POD_UTILS, "should return false when no annotation exists",
        () -> assertThat(DoNotDisrupt.active(pod("p"), started, now)).isFalse()));
    c.add(UpstreamCase.of("do-not-disrupt", POD_UTILS, "should return true for 'true' annotation",
        () -> assertThat(DoNotDisrupt.active(doNotDisrupt(pod("p"), "true"), started, now)).isTrue()));
    c.add(UpstreamCase.of("do-not-disrupt", POD_UTILS, "should return false and emit event for invalid duration "
        + "format", () -> assertThat(DoNotDisrupt.active(doNotDisrupt(pod("p"), "invalid-format"), started, now))
            .isFalse()));
    c.add(UpstreamCase.of("do-not-disrupt", POD_UTILS, "should return false and emit event for zero duration",
        () -> assertThat(DoNotDisrupt.active(doNotDisrupt(pod("p"), "0s"), started, now)).isFalse()));
    c.add(UpstreamCase.of("do-not-disrupt", POD_UTILS, "should return false and emit event for negative duration",
        () -> assertThat(DoNotDisrupt.active(doNotDisrupt(pod("p"), "-5m"), started, now)).isFalse()));
    c.add(UpstreamCase.of("do-not-disrupt", POD_UTILS, "should return true and emit disruptable-at event when "
        + "duration has not expired", () -> {
      Pod p = doNotDisrupt(pod("p"), "15m");
      assertThat(DoNotDisrupt.active(p, started, now)).isTrue();
      // The event's "will elapse at" instant: start + 15m.
      assertThat(DoNotDisrupt.until(p, started)).hasValue(T0.plus(Duration.ofMinutes(15)));
    }));
    c.add(UpstreamCase.of("do-not-disrupt", POD_UTILS, "should return false and emit grace period elapsed event "
        + "when duration has expired", () -> assertThat(DoNotDisrupt.active(doNotDisrupt(pod("p"), "5m"), started,
            now)).isFalse()));
    c.add(UpstreamCase.of("do-not-disrupt", POD_UTILS, "should fail safe when start time is nil",
        () -> assertThat(DoNotDisrupt.active(doNotDisrupt(pod("p"), "5m"), Optional.empty(), now)).isTrue()));
    c.add(UpstreamCase.of("do-not-disrupt", POD_UTILS, "should not emit disruptable-at event for indefinite "
        + "protection", () -> {
      Pod p = doNotDisrupt(pod("p"), "true");
      assertThat(DoNotDisrupt.active(p, started, now)).isTrue();
      assertThat(DoNotDisrupt.until(p, started)).isEmpty();
    }));
    // Drift
    NodePool drifting = consolidating(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, Duration.ofDays(1), 100);
    c.add(UpstreamCase.of("drift", DRIFT, "should ignore nodes without the drifted status condition", () -> {
      StateNode n = node(drifting, "m5.large", 1, owned(pod("a", "cpu", "500m")));
      assertThat(poll(drifting, List.of(n), List.of())).isEmpty();
    }));
    c.add(UpstreamCase.of("drift", DRIFT, "should ignore nodes with the karpenter.sh/do-not-disrupt annotation set to "
        + "true", () -> {
      StateNode n = annotated(drifted(node(drifting, "m5.large", 1, owned(pod("a", "cpu", "500m")))), "true");
      assertThat(poll(drifting, List.of(n), List.of())).isEmpty();
    }));
    c.add(UpstreamCase.of("drift", DRIFT, "should replace drifted nodes", () -> {
      StateNode n = drifted(node(drifting, "m5.large", 1, owned(pod("a", "cpu", "500m"))));
      DisruptionCommand cmd = poll(drifting, List.of(n), List.of()).orElseThrow();
      assertThat(cmd.reason()).isEqualTo(DisruptionReason.DRIFTED);
      assertThat(cmd.replacements()).hasSize(1);
    }));
    c.add(UpstreamCase.of("drift", DRIFT, "should delete drifted nodes", () -> {
      // The drifted node's pod fits on the other node: no replacement.
      StateNode d = drifted(node(drifting, "m5.xlarge", 1, owned(pod("a", "cpu", "500m"))));
      StateNode other = node(drifting, "m5.xlarge", 2, owned(pod("b", "cpu", "500m")));
      DisruptionCommand cmd = poll(drifting, List.of(d, other), List.of()).orElseThrow();
      assertThat(cmd.reason()).isEqualTo(DisruptionReason.DRIFTED);
      assertThat(cmd.candidates()).containsExactly(d.name());
      assertThat(cmd.isDelete()).isTrue();
    }));
    c.add(UpstreamCase.of("drift", DRIFT, "should not create replacements for drifted nodes that have pods with the "
        + "karpenter.sh/do-not-disrupt annotation set to true", () -> {
      StateNode n = drifted(node(drifting, "m5.large", 1, owned(doNotDisrupt(pod("a", "cpu", "500m"), "true"))));
      assertThat(poll(drifting, List.of(n), List.of())).isEmpty();
    }));
    // With a terminationGracePeriod the drifted node is a candidate whatever its pods say (eventual
    // disruption), but SimulateScheduling leaves out pods that cannot move yet
    // (K:pkg/controllers/disruption/helpers.go, pdbs.IsCurrentlyReschedulable): the command deletes
    // the node and launches nothing for them. Upstream's claim carries the 300s grace; here its NodePool.
    NodePool graceful = drifting.withTemplate(drifting.template().withTerminationGracePeriod(
        Optional.of(Duration.ofSeconds(300))));
    c.add(UpstreamCase.of("drift", DRIFT, "should not create replacements for drifted nodes that have pods with the "
        + "karpenter.sh/do-not-disrupt annotation when the NodePool's TerminationGracePeriod is not nil", () -> {
      StateNode n = drifted(node(graceful, "m5.large", 1, owned(doNotDisrupt(pod("a", "cpu", "500m"), "true"))));
      DisruptionCommand cmd = poll(graceful, List.of(n), List.of()).orElseThrow();
      assertThat(cmd.reason()).isEqualTo(DisruptionReason.DRIFTED);
      assertThat(cmd.replacements()).isEmpty();
    }));
    c.add(UpstreamCase.of("drift", DRIFT, "should not create replacements for drifted nodes that have pods with the "
        + "blocking PDBs when the NodePool's TerminationGracePeriod is not nil", () -> {
      // Upstream's PDB: maxUnavailable 0 over the pod's labels, fully blocking by its spec.
      StateNode n = drifted(node(graceful, "m5.large", 1, owned(labelled(pod("a", "cpu", "500m"), "test", "value"))));
      DisruptionCommand cmd = pollWithPdb(graceful, List.of(n), "test", "value", new IntOrPercent.Count(0))
          .orElseThrow();
      assertThat(cmd.reason()).isEqualTo(DisruptionReason.DRIFTED);
      assertThat(cmd.replacements()).isEmpty();
    }));
    // Candidate filtering
    c.add(UpstreamCase.of("candidate filtering", SUITE, "should not consider candidates that have do-not-disrupt "
        + "daemonset pods scheduled", () -> {
      StateNode n = node(empty, "m5.large", 1, daemonPod("logs-x", true));
      assertThat(poll(empty, List.of(n), List.of())).isEmpty();
    }));
    c.add(UpstreamCase.of("candidate filtering", SUITE, "should not consider candidates that aren't yet initialized",
        () -> assertThat(poll(empty, List.of(booting(empty, "m5.large", 1)), List.of())).isEmpty()));
    c.add(UpstreamCase.of("candidate filtering", SUITE, "should not consider candidates that have fully blocking PDBs",
        () -> {
          StateNode n = drifted(node(drifting, "m5.large", 1, owned(labelled(pod("a", "cpu", "500m"), "app",
              "blocked"))));
          assertThat(pollWithPdb(drifting, List.of(n), "blocked")).isEmpty();
        }));
    c.add(UpstreamCase.of("candidate filtering", SUITE, "should not consider candidates that have fully blocking PDBs "
        + "on daemonset pods", () -> {
      StateNode n = node(empty, "m5.large", 1, labelled(daemonPod("logs-x", false), "app", "blocked"));
      assertThat(pollWithPdb(empty, List.of(n), "blocked")).isEmpty();
    }));
    c.add(UpstreamCase.of("candidate filtering", SUITE, "should not consider candidates that are MarkedForDeletion",
        () -> {
          StateNode n = node(empty, "m5.large", 1);
          StateNode marked = new StateNode(n.name(), n.claim(), n.node(), n.pods(), n.terminating(), n.lastPodEvent(),
              true);
          assertThat(poll(empty, List.of(marked), List.of())).isEmpty();
        }));
    c.add(UpstreamCase.of("candidate filtering", SUITE, "should not consider candidates that are have a non-existent "
        + "NodePool", () -> {
      StateNode n = node(empty, "m5.large", 1);
      NodePool other = consolidating("other", ConsolidationPolicy.WHEN_EMPTY, Duration.ZERO, 100, "on-demand");
      assertThat(poll(other, List.of(n), List.of())).isEmpty();
    }));
    return c;
  }

  static Optional<DisruptionCommand> poll(NodePool pool, List<StateNode> nodes, List<Pod> pending) {
    return pollAt(T0.plus(Duration.ofHours(1)), pool, nodes, pending);
  }
}
