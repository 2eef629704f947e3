package io.gpufleet.autoscaler.conformance;

import static io.gpufleet.autoscaler.conformance.K.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.action.Action;
import io.gpufleet.autoscaler.action.RemovalReason;
import io.gpufleet.autoscaler.disruption.DisruptionCommand;
import io.gpufleet.autoscaler.provisioning.ProvisioningPlan;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.autoscaler.termination.Termination;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.InstanceLabels;
import io.gpufleet.model.karpenter.Budget;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.CronSchedule;
import io.gpufleet.model.karpenter.DisruptionReason;
import io.gpufleet.model.karpenter.EC2NodeClass;
import io.gpufleet.model.karpenter.NodeClaimTemplate;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.karpenter.RequirementOperator;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.meta.OwnerReference;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.TopologySpreadConstraint;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.workload.DisruptionBudget;
import io.gpufleet.model.workload.IntOrPercent;
import io.gpufleet.model.workload.PodDisruptionBudget;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Cases from the end-to-end suites: kubernetes-sigs/karpenter's {@code test/suites/regression/} and
 * aws/karpenter-provider-aws's {@code test/suites/} (named {@code aws:}). Upstream runs them on a real
 * (or KWOK) cluster and watches nodes come and go; here the cluster upstream builds is built by hand
 * (its nodes, their pods) and the controllers' decisions are run on it: the disruption controller's
 * polls until it has nothing more to do ({@link #waves}), the NodeClaim lifecycle, the termination
 * controller's drain at the times the e2e waits, and a provisioning round. Upstream's e2e NodePool
 * ({@code test/pkg/environment/common/default_nodepool.yaml}) consolidates WhenEmptyOrUnderutilized
 * after {@code Never}, budget 100%, on-demand; here over the m5 family.
 */
final class E2eCases {
  private E2eCases() {}

  static final String DRIFT = "test/suites/regression/drift_test.go";
  static final String EXPIRATION = "test/suites/regression/expiration_test.go";
  static final String TERMINATION = "test/suites/regression/termination_test.go";
  static final String INTEGRATION = "test/suites/regression/integration_test.go";
  static final String NODECLAIM = "test/suites/regression/nodeclaim_test.go";
  static final String AWS_CONSOLIDATION = "aws:test/suites/consolidation/suite_test.go";
  static final String AWS_DRIFT = "aws:test/suites/drift/suite_test.go";
  static final String AWS_EXTENDED = "aws:test/suites/integration/extended_resources_test.go";
  static final String AWS_SCHEDULING = "aws:test/suites/scheduling/scheduling.go";

  static List<UpstreamCase> all() {
    List<UpstreamCase> c = new ArrayList<>();
    drift(c);
    expiration(c);
    nodeClaims(c);
    termination(c);
    consolidation(c);
    onDemandToSpot(c);
    provisioning(c);
    return c;
  }

  // ---- drift ----

  private static void drift(List<UpstreamCase> c) {
    String area = "drift (e2e)";
    // Context "Budgets": each e2e drifts the nodes by a NodePool template annotation and watches at most
    // so many nodes tainted at once (ConsistentlyExpectDisruptionsUntilNoneLeft).
    c.add(UpstreamCase.of(area, DRIFT, "should respect budgets for empty drift", () -> {
      // Three empty drifted nodes (the deployment deleted), budget 50%: at most 2 at once, all three go.
      NodePool pool = e2ePool(new IntOrPercent.Percent(50));
      List<StateNode> nodes = List.of(drifted(node(pool, "m5.large", 1)), drifted(node(pool, "m5.large", 2)),
          drifted(node(pool, "m5.large", 3)));
      assertThat(rolledOut(pool, nodes, 2)).allMatch(x -> x.reason() == DisruptionReason.DRIFTED);
    }));
    c.add(UpstreamCase.of(area, DRIFT, "should respect budgets for non-empty delete drift", () -> {
      // Nine pods scaled to three, one per node, do-not-disrupt then removed; budget 50%.
      NodePool pool = e2ePool(new IntOrPercent.Percent(50));
      List<StateNode> nodes = new ArrayList<>();
      for (int i = 1; i <= 3; i++) {
        nodes.add(drifted(node(pool, "m5.large", i, owned(labelled(pod("large-app-" + i), "app", "large-app")))));
      }
      assertThat(rolledOut(pool, nodes, 2)).allMatch(x -> x.reason() == DisruptionReason.DRIFTED);
    }));
    c.add(UpstreamCase.of(area, DRIFT, "should respect budgets for non-empty replace drift", () -> {
      // Five pods, one per node: upstream by hostname anti-affinity, which the twin's provisioner does
      // not model, so here by size (1.5 CPU on m5.large's 1.93). Budget "3": every node is replaced,
      // at most three at once.
      NodePool pool = e2ePool(new IntOrPercent.Count(3));
      List<StateNode> nodes = new ArrayList<>();
      for (int i = 1; i <= 5; i++) {
        nodes.add(drifted(node(pool, "m5.large", i, owned(labelled(pod("large-app-" + i, "cpu", "1500m"), "app",
            "large-app")))));
      }
      assertThat(rolledOut(pool, nodes, 3)).allSatisfy(x -> assertThat(x.replacements()).hasSize(1));
    }));
    c.add(UpstreamCase.of(area, DRIFT, "should not allow drift if the budget is fully blocking", () -> {
      NodePool pool = e2ePool(new IntOrPercent.Count(0));
      StateNode n = drifted(node(pool, "m5.large", 1, owned(labelled(pod("large-app"), "app", "large-app"))));
      assertThat(waves(pool, List.of(n), PdbIndex.NONE)).isEmpty();
    }));
    c.add(UpstreamCase.of(area, DRIFT, "should not allow drift if the budget is fully blocking during a scheduled "
        + "time", () -> {
      // nodes: 0 on a 30-minute window that opened 15 minutes before the poll (01:00 UTC).
      NodePool pool = e2ePool(new IntOrPercent.Count(0));
      pool = pool.withDisruption(pool.disruption().withBudgets(List.of(blockingWindow())));
      StateNode n = drifted(node(pool, "m5.large", 1, owned(labelled(pod("large-app"), "app", "large-app"))));
      assertThat(waves(pool, List.of(n), PdbIndex.NONE)).isEmpty();
    }));
    // DescribeTable "NodePool Drift": one node running one pod; the NodePool's template changes; the
    // claim is drifted and, its pod's do-not-disrupt removed, the node is replaced.
    NodePool base = e2ePool(new IntOrPercent.Percent(100));
    List<Map.Entry<String, UnaryOperator<NodeClaimTemplate>>> entries = List.of(
        Map.entry("Annotations", t -> new NodeClaimTemplate(t.labels(), t.annotations().with("keyAnnotationTest",
            "valueAnnotationTest"), t.requirements(), t.taints(), t.startupTaints(), t.nodeClassRef(), t.expireAfter(),
            t.terminationGracePeriod())),
        Map.entry("Labels", t -> t.withLabels(t.labels().with("keyLabelTest", "valueLabelTest"))),
        Map.entry("Taints", t -> t.withTaints(List.of(Taint.of("example.com/another-taint-2", "",
            TaintEffect.PREFER_NO_SCHEDULE)))),
        Map.entry("Start-up Taints", t -> t.withStartupTaints(List.of(Taint.of("example.com/another-taint-2", "",
            TaintEffect.PREFER_NO_SCHEDULE)))),
        // Upstream replaces the requirements with capacity type spot (and the instance family back).
        Map.entry("NodeRequirements", t -> NodeClaimTemplate.of(NodePoolRequirement.in(FAMILY, "m5"),
            NodePoolRequirement.in(CAPACITY_TYPE, "spot"))));
    for (var e : entries) {
      c.add(UpstreamCase.of(area, DRIFT, "NodePool Drift " + e.getKey(), () -> {
        StateNode n = node(base, "m5.large", 1, owned(labelled(pod("my-app"), "app", "large-app")));
        NodePool updated = base.withTemplate(e.getValue().apply(base.template()));
        String reason = e.getKey().equals("NodeRequirements") ? "RequirementsDrifted" : "NodePoolDrifted";
        assertThat(LifecycleCases.drifts(updated, n)).containsExactly(new Action.MarkDrifted(n.name(), reason));
        DisruptionCommand cmd = poll(view(AT, updated, List.of(drifted(n)), PdbIndex.NONE), updated).orElseThrow();
        assertThat(cmd.reason()).isEqualTo(DisruptionReason.DRIFTED);
        assertThat(cmd.candidates()).containsExactly(n.name());
        assertThat(cmd.replacements()).hasSize(1);
        if (e.getKey().equals("NodeRequirements")) {
          assertThat(cmd.replacements().getFirst().offering().capacityType()).isEqualTo(CapacityType.SPOT);
        }
      }));
    }
    // Context "Failure": two nodes, one pod each (anti-affinity; here by size); the NodePool's disruption
    // block at its defaults (consolidateAfter 0s, budget 10%, so one node at a time); the NodePool changed so that
    // the replacement never registers, or registers and never initialises (a startup taint nothing
    // removes). The command is given up (upstream's queue retries for 10 minutes, the twin's replacement
    // timeout is as long), the candidate untainted, and no node that was there before is removed.
    for (boolean registers : new boolean[] {false, true}) {
      String it = registers ? "should not disrupt a drifted node if the replacement node registers but never "
          + "initialized" : "should not disrupt a drifted node if the replacement node never registers";
      c.add(UpstreamCase.of(area, DRIFT, it, () -> {
        NodePool defaults = e2ePool(new IntOrPercent.Percent(10), Optional.of(Duration.ZERO));
        NodePool changed = registers
            ? defaults.withTemplate(defaults.template().withStartupTaints(List.of(Taint.of("example.com/taint", "",
                TaintEffect.PREFER_NO_SCHEDULE))))
            : defaults.withTemplate(defaults.template().withLabels(defaults.template().labels().with("registration",
                "fail")));
        List<StateNode> nodes = List.of(
            drifted(node(changed, "m5.large", 1, owned(labelled(pod("inflate-1", "cpu", "1500m"), "app", "inflate")))),
            drifted(node(changed, "m5.large", 2, owned(labelled(pod("inflate-2", "cpu", "1500m"), "app", "inflate")))));
        DisruptionCommand cmd = poll(view(AT, changed, nodes, PdbIndex.NONE), changed).orElseThrow();
        assertThat(cmd.candidates()).hasSize(1);
        var r = cmd.replacements().getFirst().withLaunched(AT);
        StateNode replacement = registers
            ? new StateNode(r.name(), Optional.of(r.withRegistered(AT.plusSeconds(60), r.name())), Optional.of(
                io.gpufleet.model.node.Node.of(r.name(), r.labels(), r.startupTaints(),
                    CATALOG.require(r.instanceType().name()).allocatable())), List.of(), Set.of(), AT, false)
            : new StateNode(r.name(), Optional.of(r), Optional.empty(), List.of(), Set.of(), AT, false);
        List<StateNode> inFlight = new ArrayList<>(nodes);
        inFlight.replaceAll(n -> cmd.candidates().contains(n.name()) ? marked(n) : n);
        inFlight.add(replacement);
        var controller = controller(changed, AutoscalerSettings.DEFAULTS);
        var executing = new io.gpufleet.autoscaler.disruption.InFlightDisruption(cmd, AT);
        Instant later = AT.plus(Duration.ofMinutes(5));
        assertThat(lifecycle(later, changed, inFlight)).noneMatch(x -> x instanceof Action.MarkInitialized
            && ((Action.MarkInitialized) x).claim().equals(r.name()));
        assertThat(controller.progress(executing, view(later, changed, inFlight, PdbIndex.NONE))).isEmpty();
        List<Action> out = controller.progress(executing, view(AT.plus(Duration.ofMinutes(10)), changed, inFlight,
            PdbIndex.NONE));
        assertThat(out).anyMatch(x -> x instanceof Action.AbandonDisruption);
        assertThat(out).contains(new Action.UntaintNode(cmd.candidates().getFirst(),
            io.gpufleet.model.karpenter.KarpenterLabels.DISRUPTED));
        assertThat(out).noneMatch(x -> x instanceof Action.DeleteNodeClaim);
      }));
    }
    c.add(UpstreamCase.of(area, DRIFT, "should not drift any nodes if their PodDisruptionBudgets are unhealthy", () -> {
      // Two pods, one per node, whose readiness probe never passes, and a PDB minAvailable 1: no pod is
      // healthy, so the PDB allows no disruption (currentHealthy 0 - desiredHealthy 1, floored at 0).
      NodePool pool = e2ePool(new IntOrPercent.Percent(100));
      List<StateNode> nodes = List.of(
          drifted(node(pool, "m5.large", 1, owned(labelled(pod("inflate-1"), "app", "inflate")))),
          drifted(node(pool, "m5.large", 2, owned(labelled(pod("inflate-2"), "app", "inflate")))));
      PodDisruptionBudget pdb = new PodDisruptionBudget(ObjectMeta.named("pdb"), LabelSelector.matching(
          Labels.of("app", "inflate")), Optional.of(new IntOrPercent.Count(1)), Optional.empty());
      assertThat(waves(pool, nodes, new PdbIndex(List.of(new DisruptionBudget(pdb, 0))))).isEmpty();
    }));
    c.add(UpstreamCase.of(area, AWS_DRIFT, "should disrupt nodes that have drifted due to AMIs", () -> {
      // The EC2NodeClass's amiSelectorTerms move from one AL2023 image to another (here two alias versions).
      NodePool pool = e2ePool(new IntOrPercent.Percent(100));
      EC2NodeClass before = LifecycleCases.nodeClass("hash-1", "al2023@v20240807");
      StateNode n = LifecycleCases.claim(node(pool, "m5.large", 1, owned(labelled(pod("my-app"), "app", "my-app"))),
          before::stamp);
      assertThat(LifecycleCases.drifts(pool, n, Map.of("default", LifecycleCases.nodeClass("hash-1",
          "al2023@v20241011")))).containsExactly(new Action.MarkDrifted(n.name(), "AMIDrift"));
      DisruptionCommand cmd = poll(view(AT, pool, List.of(drifted(n)), PdbIndex.NONE), pool).orElseThrow();
      assertThat(cmd.reason()).isEqualTo(DisruptionReason.DRIFTED);
      assertThat(cmd.replacements()).hasSize(1);
    }));
  }

  // ---- expiration ----

  private static void expiration(List<UpstreamCase> c) {
    String area = "expiry (e2e)";
    // Both e2es block drift (budget 0 for Drifted), set expireAfter 30s on the NodePool, then Never, so
    // the claim is expired, not drifted, out of its node.
    NodePool pool = e2ePool(new IntOrPercent.Percent(100));
    pool = pool.withDisruption(pool.disruption().withBudgets(List.of(new Budget(new IntOrPercent.Count(0),
        Optional.empty(), Optional.empty(), Set.of(DisruptionReason.DRIFTED)))));
    NodePool expiring = pool.withTemplate(pool.template().withExpireAfter(Optional.of(Duration.ofSeconds(30))));
    NodePool never = pool.withTemplate(pool.template().withExpireAfter(Optional.empty()));
    c.add(UpstreamCase.of(area, EXPIRATION, "should expire the node after the expiration is reached", () -> {
      StateNode n = node(expiring, "m5.large", 1, owned(labelled(pod("my-app"), "app", "my-app")));
      Instant later = T0.plusSeconds(60);
      assertThat(lifecycle(later, never, List.of(n))).contains(new Action.DeleteNodeClaim(n.name(),
          RemovalReason.EXPIRED));
      // Not by drift: its budget allows none.
      assertThat(poll(view(later, never, List.of(drifted(n)), PdbIndex.NONE), never)).isEmpty();
    }));
    c.add(UpstreamCase.of(area, EXPIRATION, "should replace expired node with a single node and schedule all pods",
        () -> {
          // Five pods behind a PDB minAvailable 4 (one may go at a time); the expired node drains one pod per
          // round, and the five together need one new node.
          List<Pod> pods = new ArrayList<>();
          for (int i = 1; i <= 5; i++) {
            pods.add(owned(labelled(pod("my-app-" + i), "app", "my-app")));
          }
          StateNode n = node(expiring, "m5.large", 1, pods.toArray(Pod[]::new));
          Instant later = T0.plusSeconds(60);
          assertThat(lifecycle(later, never, List.of(n))).contains(new Action.DeleteNodeClaim(n.name(),
              RemovalReason.EXPIRED));
          StateNode deleting = LifecycleCases.claim(n, x -> x.withDeletionRequested(later));
          PodDisruptionBudget pdb = new PodDisruptionBudget(ObjectMeta.named("pdb"), LabelSelector.matching(
              Labels.of("app", "my-app")), Optional.of(new IntOrPercent.Count(4)), Optional.empty());
          List<Action> drain = Termination.reconcile(view(later, never, List.of(deleting), new PdbIndex(List.of(
              new DisruptionBudget(pdb, 1)))), x -> RemovalReason.EXPIRED);
          assertThat(LifecycleCases.evictions(drain)).hasSize(1);
          ProvisioningPlan plan = provision(List.of(never), pods);
          assertThat(plan.newClaims()).hasSize(1);
          assertThat(pods).allMatch(p -> scheduled(plan, p));
        }));
  }

  // ---- NodeClaims ----

  private static void nodeClaims(List<UpstreamCase> c) {
    c.add(UpstreamCase.of("nodeclaim (e2e)", NODECLAIM, "should delete a NodeClaim after the registration timeout "
        + "when the node doesn't register", () -> {
      // Node registration blocked: the claim launches, stays unregistered and uninitialised, and is
      // deleted once the registration timeout passes (15 minutes; the e2e allows 17).
      NodePool pool = e2ePool(new IntOrPercent.Percent(100));
      StateNode n = booting(pool, "m5.large", 1);
      List<Action> early = lifecycle(T0.plus(Duration.ofMinutes(1)), pool, List.of(n));
      assertThat(early).noneMatch(x -> x instanceof Action.DeleteNodeClaim || x instanceof Action.MarkRegistered
          || x instanceof Action.MarkInitialized);
      assertThat(lifecycle(T0.plus(Duration.ofMinutes(17)), pool, List.of(n))).contains(new Action.DeleteNodeClaim(
          n.name(), RemovalReason.REGISTRATION_TIMEOUT));
    }));
  }

  // ---- termination ----

  private static void termination(List<UpstreamCase> c) {
    String area = "termination (e2e)";
    // Context "Emptiness": WhenEmpty after 0s; the deployment's one pod deleted.
    NodePool whenEmpty = consolidating(ConsolidationPolicy.WHEN_EMPTY, Duration.ZERO, 100);
    c.add(UpstreamCase.of(area, TERMINATION, "should not allow emptiness if the budget is fully blocking", () -> {
      NodePool pool = whenEmpty.withDisruption(whenEmpty.disruption().withBudgets(List.of(Budget.nodes(
          new IntOrPercent.Count(0)))));
      assertThat(waves(pool, List.of(node(pool, "m5.large", 1)), PdbIndex.NONE)).isEmpty();
    }));
    c.add(UpstreamCase.of(area, TERMINATION, "should not allow emptiness if the budget is fully blocking during a "
        + "scheduled time", () -> {
      NodePool pool = whenEmpty.withDisruption(whenEmpty.disruption().withBudgets(List.of(blockingWindow())));
      assertThat(waves(pool, List.of(node(pool, "m5.large", 1)), PdbIndex.NONE)).isEmpty();
    }));
    c.add(UpstreamCase.of(area, TERMINATION, "should terminate an empty node", () -> {
      // Emptied, consolidatable once 10s have passed; then consolidateAfter 0s and the node goes.
      NodePool tenSeconds = whenEmpty.withDisruption(whenEmpty.disruption().withConsolidateAfter(Optional.of(
          Duration.ofSeconds(10))));
      StateNode n = node(tenSeconds, "m5.large", 1);
      assertThat(poll(view(T0.plusSeconds(5), tenSeconds, List.of(n), PdbIndex.NONE), tenSeconds)).isEmpty();
      DisruptionCommand cmd = poll(view(T0.plusSeconds(10), whenEmpty, List.of(n), PdbIndex.NONE), whenEmpty)
          .orElseThrow();
      assertThat(cmd.reason()).isEqualTo(DisruptionReason.EMPTY);
      assertThat(cmd.candidates()).containsExactly(n.name());
      StateNode deleting = LifecycleCases.deleting(n, null, T0.plusSeconds(10));
      assertThat(LifecycleCases.terminateAt(T0.plusSeconds(11), deleting)).contains(new Action.TerminateInstance(
          n.name()));
    }));
    c.add(UpstreamCase.of(area, TERMINATION, "should delete pod with do-not-disrupt when it reaches its "
        + "terminationGracePeriodSeconds", () -> {
      // NodePool terminationGracePeriod 60s; the pod do-not-disrupt with a 30s grace; the NodeClaim deleted
      // at T0. The pod stays healthy for its 30s less 5, then is deleted so it gets its 30s.
      Pod p = LifecycleCases.grace(doNotDisrupt(pod("p"), "true"), 30);
      StateNode n = LifecycleCases.deleting(node(whenEmpty, "m5.large", 1, p), Duration.ofSeconds(60), T0);
      assertThat(LifecycleCases.evictions(LifecycleCases.terminateAt(T0.plusSeconds(25), n))).isEmpty();
      assertThat(LifecycleCases.terminateAt(T0.plusSeconds(30), n)).contains(Action.Evict.forced(p.key(), n.name(),
          RemovalReason.DELETED, Duration.ofSeconds(30)));
    }));
    c.add(UpstreamCase.of(area, TERMINATION, "should terminate the node and the instance on deletion", () -> {
      // The pod deleted, then the node: nothing to drain, the instance goes.
      StateNode n = LifecycleCases.deleting(node(whenEmpty, "m5.large", 1), null, T0);
      assertThat(LifecycleCases.terminateAt(T0.plusSeconds(1), n)).contains(new Action.TerminateInstance(n.name()));
    }));
    c.add(UpstreamCase.of(area, TERMINATION, "should drain pods on a node in order", () -> {
      // Six pods: a deployment's, a DaemonSet's, and one of each with priority class system-node-critical
      // and system-cluster-critical. Upstream drains four groups in turn (groupPodsByPriority in
      // K:pkg/controllers/node/termination/terminator/terminator.go): the deployment's pod, the
      // DaemonSet's, the two critical deployments', then the two critical DaemonSets'.
      Pod deployment = owned(pod("deployment"));
      Pod daemon = daemonSetPod("daemonset", Optional.empty());
      Pod nodeCriticalDeployment = LifecycleCases.priorityClass(owned(pod("node-critical-deployment")),
          "system-node-critical");
      Pod clusterCriticalDeployment = LifecycleCases.priorityClass(owned(pod("cluster-critical-deployment")),
          "system-cluster-critical");
      Pod nodeCriticalDaemon = daemonSetPod("node-critical-daemonset", Optional.of("system-node-critical"));
      Pod clusterCriticalDaemon = daemonSetPod("cluster-critical-daemonset", Optional.of("system-cluster-critical"));
      List<Pod> groups = List.of(deployment, daemon, nodeCriticalDeployment, clusterCriticalDeployment,
          nodeCriticalDaemon, clusterCriticalDaemon);
      List<List<String>> expected = List.of(List.of(deployment.key()), List.of(daemon.key()),
          List.of(nodeCriticalDeployment.key(), clusterCriticalDeployment.key()),
          List.of(nodeCriticalDaemon.key(), clusterCriticalDaemon.key()));
      List<Pod> left = new ArrayList<>(groups);
      for (List<String> group : expected) {
        StateNode n = LifecycleCases.deleting(node(whenEmpty, "m5.large", 1, left.toArray(Pod[]::new)), null, T0);
        assertThat(LifecycleCases.evictions(LifecycleCases.terminateAt(T0.plusSeconds(1), n)))
            .containsExactlyInAnyOrderElementsOf(group);
        left.removeIf(p -> group.contains(p.key()));
      }
    }).differs("the twin drains in two tiers, ordinary pods then DaemonSet and critical pods together; upstream "
        + "drains four groups (non-critical non-daemon, non-critical daemon, critical non-daemon, critical "
        + "daemon), so the non-critical DaemonSet pod goes here with the critical pods, not before them"));
    c.add(UpstreamCase.of(area, INTEGRATION, "should drain pods according to their grace period durations and block "
        + "indefinitely for 'true'", () -> {
      // Three pods started at T0 with do-not-disrupt "1m", "2m" and "true"; the NodeClaim deleted at T0,
      // no terminationGracePeriod. Each is evicted once its protection ends; "true" holds until removed.
      Pod shortPod = doNotDisrupt(labelled(pod("short", "cpu", "10m"), "app", "short-grace"), "1m");
      Pod longPod = doNotDisrupt(labelled(pod("long", "cpu", "10m"), "app", "long-grace"), "2m");
      Pod indefinite = doNotDisrupt(labelled(pod("indefinite", "cpu", "10m"), "app", "indefinite-grace"), "true");
      StateNode all = LifecycleCases.deleting(node(whenEmpty, "m5.large", 1, shortPod, longPod, indefinite), null,
          T0);
      assertThat(LifecycleCases.evictions(LifecycleCases.terminateAt(T0.plusSeconds(55), all))).isEmpty();
      assertThat(LifecycleCases.evictions(LifecycleCases.terminateAt(T0.plusSeconds(60), all)))
          .containsExactly(shortPod.key());
      StateNode two = LifecycleCases.deleting(node(whenEmpty, "m5.large", 1, longPod, indefinite), null, T0);
      assertThat(LifecycleCases.evictions(LifecycleCases.terminateAt(T0.plusSeconds(115), two))).isEmpty();
      assertThat(LifecycleCases.evictions(LifecycleCases.terminateAt(T0.plusSeconds(120), two)))
          .containsExactly(longPod.key());
      StateNode one = LifecycleCases.deleting(node(whenEmpty, "m5.large", 1, indefinite), null, T0);
      assertThat(LifecycleCases.evictions(LifecycleCases.terminateAt(T0.plusSeconds(150), one))).isEmpty();
      Pod released = indefinite.withMeta(indefinite.meta().withAnnotations(Labels.EMPTY));
      StateNode unblocked = LifecycleCases.deleting(node(whenEmpty, "m5.large", 1, released), null, T0);
      assertThat(LifecycleCases.evictions(LifecycleCases.terminateAt(T0.plusSeconds(151), unblocked)))
          .containsExactly(released.key());
    }));
  }

  // ---- consolidation ----

  private static void consolidation(List<UpstreamCase> c) {
    String area = "consolidation (e2e)";
    // Context "Budgets": the provider's e2e NodePool consolidating after 0s; a deployment of 1-CPU pods.
    c.add(UpstreamCase.of(area, AWS_CONSOLIDATION, "should respect budgets for empty delete consolidation", () -> {
      // Five nodes, one pod each (hostname anti-affinity); scaled to one replica: four empty; budget 40%.
      NodePool pool = e2ePool(new IntOrPercent.Percent(40), Optional.of(Duration.ZERO));
      List<StateNode> nodes = new ArrayList<>();
      nodes.add(node(pool, "m5.large", 1, owned(labelled(pod("regular-app", "cpu", "1"), "app", "regular-app"))));
      for (int i = 2; i <= 5; i++) {
        nodes.add(node(pool, "m5.large", i));
      }
      List<List<DisruptionCommand>> waves = waves(pool, nodes, PdbIndex.NONE);
      assertAtMostAtOnce(waves, 2);
      assertThat(disrupted(waves)).containsExactlyInAnyOrderElementsOf(names(nodes.subList(1, 5)));
    }));
    c.add(UpstreamCase.of(area, AWS_CONSOLIDATION, "should respect budgets for non-empty delete consolidation", () -> {
      // Three 2xlarge nodes, nine 2100m pods scaled to three, one per node; budget 50%.
      NodePool pool = e2ePool(new IntOrPercent.Percent(50), Optional.of(Duration.ZERO));
      List<StateNode> nodes = new ArrayList<>();
      for (int i = 1; i <= 3; i++) {
        nodes.add(node(pool, "m5.2xlarge", i, owned(labelled(pod("large-app-" + i, "cpu", "2100m"), "app",
            "large-app"))));
      }
      List<List<DisruptionCommand>> waves = waves(pool, nodes, PdbIndex.NONE);
      assertAtMostAtOnce(waves, 2);
      assertThat(disrupted(waves)).isNotEmpty();
    }));
    c.add(UpstreamCase.of(area, AWS_CONSOLIDATION, "should not allow consolidation if the budget is fully blocking",
        () -> {
          NodePool pool = e2ePool(new IntOrPercent.Count(0), Optional.of(Duration.ZERO));
          List<StateNode> nodes = fiveMadeEmpty(pool);
          assertThat(waves(pool, nodes, PdbIndex.NONE)).isEmpty();
        }));
    c.add(UpstreamCase.of(area, AWS_CONSOLIDATION, "should not allow consolidation if the budget is fully blocking "
        + "during a scheduled time", () -> {
      NodePool pool = e2ePool(new IntOrPercent.Count(0), Optional.of(Duration.ZERO));
      pool = pool.withDisruption(pool.disruption().withBudgets(List.of(blockingWindow())));
      assertThat(waves(pool, fiveMadeEmpty(pool), PdbIndex.NONE)).isEmpty();
    }));
    // DescribeTable "should consolidate nodes (replace)": sizes large and 2xlarge, families but the burstable
    // and oldest; three 2xlarge nodes, each with a 4-CPU pod and an 1800m pod (less the DaemonSets'
    // overhead, none here), each deployment spread by hostname (maxSkew 1, DoNotSchedule). The large
    // pods go; the spread keeps one small pod per node, so each node is replaced by a .large: three
    // .large nodes and no other. Played here replacement by replacement, each replacement taking over
    // its candidate's pod.
    for (boolean spot : new boolean[] {false, true}) {
      String entry = spot ? "if the nodes are spot nodes" : "if the nodes are on-demand nodes";
      c.add(UpstreamCase.of(area, AWS_CONSOLIDATION, "should consolidate nodes (replace) " + entry, () -> {
        NodePool np = NodePool.of("replace", NodeClaimTemplate.of(
            NodePoolRequirement.in(CAPACITY_TYPE, spot ? "spot" : "on-demand"),
            NodePoolRequirement.in(InstanceLabels.INSTANCE_SIZE, "large", "2xlarge"),
            NodePoolRequirement.of(FAMILY, RequirementOperator.NOT_IN, "t2", "t3", "c1", "t3a", "t4g", "a1")));
        NodePool pool = np.withDisruption(np.disruption().withPolicy(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED)
            .withConsolidateAfter(Optional.of(Duration.ZERO)).withBudgets(List.of(Budget.nodes(
                new IntOrPercent.Percent(100)))));
        List<StateNode> state = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
          Pod small = owned(spread(labelled(pod("small-app-" + i, "cpu", "1800m"), "app", "small-app"), "small-app"));
          state.add(spot ? spotNode(pool, "m5.2xlarge", i, small) : node(pool, "m5.2xlarge", i, small));
        }
        AutoscalerSettings gate = AutoscalerSettings.DEFAULTS.withSpotToSpotConsolidation(spot);
        List<StateNode> end = replacedOneByOne(pool, state, gate, 3);
        assertThat(end).allSatisfy(n -> assertThat(n.claim().orElseThrow().instanceType().name()).endsWith(".large"));
      }).differs("the twin's provisioner does not model topology spread: its first answer replaces all three "
          + "nodes by one node holding the three 1800m pods, where upstream's hostname spread keeps one pod per "
          + "node and so replaces each node by a .large"));
    }
  }

  private static void onDemandToSpot(List<UpstreamCase> c) {
    c.add(UpstreamCase.of("consolidation (e2e)", AWS_CONSOLIDATION, "should consolidate on-demand nodes to spot "
        + "(replace)", () -> {
      // Two on-demand .large nodes (here c5.large, the catalogue's cheapest), one 1800m pod each, spread by
      // hostname; the NodePool then allows any capacity type, size large: both nodes become spot.
      NodePool np = NodePool.of("to-spot", NodeClaimTemplate.of(
          NodePoolRequirement.of(CAPACITY_TYPE, RequirementOperator.EXISTS),
          NodePoolRequirement.in(InstanceLabels.INSTANCE_SIZE, "large")));
      NodePool pool = np.withDisruption(np.disruption().withPolicy(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED)
          .withConsolidateAfter(Optional.of(Duration.ZERO)).withBudgets(List.of(Budget.nodes(
              new IntOrPercent.Percent(100)))));
      List<StateNode> start = new ArrayList<>();
      for (int i = 1; i <= 2; i++) {
        start.add(node(pool, "c5.large", i, owned(spread(labelled(pod("small-app-" + i, "cpu", "1800m"), "app",
            "small-app"), "small-app"))));
      }
      List<StateNode> end = replacedOneByOne(pool, start, AutoscalerSettings.DEFAULTS, 2);
      assertThat(end).hasSize(2).allSatisfy(n -> assertThat(n.claim().orElseThrow().offering().capacityType())
          .isEqualTo(CapacityType.SPOT));
    }));
  }

  // ---- provisioning ----

  private static void provisioning(List<UpstreamCase> c) {
    String area = "provisioning (e2e)";
    c.add(UpstreamCase.of(area, AWS_EXTENDED, "should provision nodes for a deployment that requests nvidia.com/gpu",
        () -> {
          // The NodePool: any instance category, family not g6f, on-demand (the e2e default).
          NodePool pool = bare("default", req(InstanceLabels.INSTANCE_CATEGORY, RequirementOperator.EXISTS),
              req(FAMILY, RequirementOperator.NOT_IN, "g6f"), req(CAPACITY_TYPE, RequirementOperator.IN, "on-demand"));
          Pod p = labelled(pod("large-app", "nvidia.com/gpu", "1"), "app", "large-app");
          ProvisioningPlan plan = provision(List.of(pool), List.of(p));
          assertThat(plan.newClaims()).hasSize(1);
          var type = CATALOG.require(launchedType(plan, p));
          assertThat(type.gpuCount()).isGreaterThanOrEqualTo(1);
          assertThat(type.labels().get(FAMILY).orElseThrow()).isNotEqualTo("g6f");
        }));
    c.add(UpstreamCase.of(area, AWS_SCHEDULING, "should support well-known labels for a gpu (nvidia)", () -> {
      // nodeSelector (and required node affinity) on the GPU's name, memory, manufacturer and count.
      Pod p = selecting(pod("gpu-labels"), InstanceLabels.INSTANCE_GPU_NAME, "t4", InstanceLabels.INSTANCE_GPU_MEMORY,
          "16384", InstanceLabels.INSTANCE_GPU_MANUFACTURER, "nvidia", InstanceLabels.INSTANCE_GPU_COUNT, "1");
      NodePool pool = bare("default", req(CAPACITY_TYPE, RequirementOperator.IN, "on-demand"));
      ProvisioningPlan plan = provision(List.of(pool), List.of(p));
      assertThat(plan.newClaims()).hasSize(1);
      Labels labels = CATALOG.require(launchedType(plan, p)).labels();
      assertThat(labels.get(InstanceLabels.INSTANCE_GPU_NAME)).hasValue("t4");
      assertThat(labels.get(InstanceLabels.INSTANCE_GPU_COUNT)).hasValue("1");
    }));
    c.add(UpstreamCase.of(area, AWS_SCHEDULING, "should provision a node using a NodePool with higher priority", () -> {
      // Weight 10 over t3.nano (not in the catalogue; here m5.large), weight 100 over c5.large.
      NodePool low = bare("low", req(TYPE, RequirementOperator.IN, "m5.large")).withWeight(10);
      NodePool high = bare("high", req(TYPE, RequirementOperator.IN, "c5.large")).withWeight(100);
      Pod p = pod("p");
      ProvisioningPlan plan = provision(List.of(low, high), List.of(p));
      assertThat(plan.newClaims()).hasSize(1);
      assertThat(claimOf(plan, p).nodePool()).isEqualTo("high");
      assertThat(launchedType(plan, p)).isEqualTo("c5.large");
    }));
  }

  // ---- helpers ----

  /** The pod spread by hostname over the pods labelled {@code app=<app>}, maxSkew 1, DoNotSchedule. */
  private static Pod spread(Pod p, String app) {
    return p.withSpec(p.spec().withTopologySpreadConstraints(List.of(TopologySpreadConstraint.of(1,
        "kubernetes.io/hostname", TopologySpreadConstraint.WhenUnsatisfiable.DO_NOT_SCHEDULE, LabelSelector.matching(
            Labels.of("app", app))))));
  }

  /**
   * {@code rounds} consolidation commands, each checked to replace one node by one, played out: the
   * candidate leaves and its replacement, initialised, takes over its pods. Then nothing more is to
   * be done. Returns the nodes at the end.
   */
  private static List<StateNode> replacedOneByOne(NodePool pool, List<StateNode> start, AutoscalerSettings gate,
      int rounds) {
    List<StateNode> state = new ArrayList<>(start);
    for (int round = 1; round <= rounds; round++) {
      DisruptionCommand cmd = pollWith(gate, pool, state).orElseThrow();
      assertThat(cmd.candidates()).hasSize(1);
      assertThat(cmd.replacements()).hasSize(1);
      StateNode gone = state.stream().filter(n -> cmd.candidates().contains(n.name())).findFirst().orElseThrow();
      state.remove(gone);
      var r = cmd.replacements().getFirst();
      Pod[] pods = gone.pods().toArray(Pod[]::new);
      String type = r.instanceType().name();
      state.add(r.offering().capacityType() == CapacityType.SPOT ? spotNode(pool, type, 10 + round, pods)
          : node(pool, type, 10 + round, pods));
    }
    assertThat(pollWith(gate, pool, state)).isEmpty();
    return state;
  }

  /** The e2e NodePool: WhenEmptyOrUnderutilized after Never, on-demand m5, with this one budget. */
  static NodePool e2ePool(IntOrPercent budget) {
    NodePool p = consolidating(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, Duration.ZERO, 100);
    return p.withDisruption(p.disruption().withConsolidateAfter(Optional.empty()).withBudgets(List.of(
        Budget.nodes(budget))));
  }

  /** As {@link #e2ePool(IntOrPercent)}, consolidating after {@code after}. */
  private static NodePool e2ePool(IntOrPercent budget, Optional<Duration> after) {
    NodePool p = e2ePool(budget);
    return p.withDisruption(p.disruption().withConsolidateAfter(after));
  }

  /** {@code nodes: 0} from 00:45 for 30 minutes: the e2e's window opened 15 minutes before it looks (01:00). */
  static Budget blockingWindow() {
    return new Budget(new IntOrPercent.Count(0), Optional.of(CronSchedule.parse("45 0 * * *")),
        Optional.of(Duration.ofMinutes(30)), Set.of());
  }

  /** Five nodes, one 1-CPU pod each, the deployment scaled to one replica: four are empty. */
  private static List<StateNode> fiveMadeEmpty(NodePool pool) {
    List<StateNode> nodes = new ArrayList<>();
    nodes.add(node(pool, "m5.large", 1, owned(labelled(pod("regular-app", "cpu", "1"), "app", "regular-app"))));
    for (int i = 2; i <= 5; i++) {
      nodes.add(node(pool, "m5.large", i));
    }
    return nodes;
  }

  private static Pod daemonSetPod(String name, Optional<String> priorityClass) {
    Pod p = pod(name).withMeta(pod(name).meta().withOwner(new OwnerReference("DaemonSet", name)));
    return priorityClass.map(pc -> LifecycleCases.priorityClass(p, pc)).orElse(p);
  }

  /**
   * What upstream's {@code ConsistentlyExpectDisruptionsUntilNoneLeft} watches, at {@link #AT}: the
   * controller polls until it has nothing more to start (each command's candidates marked for
   * deletion, its replacements launched: {@link K#pollTimes}); those disruptions then finish (the
   * candidates leave, their pods with them onto the replacements or the other nodes); again, until a
   * poll starts nothing. Each element is one wave: the commands in flight at once.
   */
  static List<List<DisruptionCommand>> waves(NodePool pool, List<StateNode> nodes, PdbIndex pdbs) {
    List<StateNode> state = new ArrayList<>(nodes);
    List<List<DisruptionCommand>> out = new ArrayList<>();
    while (out.size() <= nodes.size()) {
      List<DisruptionCommand> wave = pollTimes(nodes.size() + 1, AT, pool, state, pdbs);
      if (wave.isEmpty()) {
        break;
      }
      out.add(wave);
      Set<String> gone = new HashSet<>(disrupted(List.of(wave)));
      state.removeIf(n -> gone.contains(n.name()));
    }
    return out;
  }

  /** The rollout's commands, once checked that every node was disrupted and never more than {@code max} at once. */
  private static List<DisruptionCommand> rolledOut(NodePool pool, List<StateNode> nodes, int max) {
    List<List<DisruptionCommand>> waves = waves(pool, nodes, PdbIndex.NONE);
    assertAtMostAtOnce(waves, max);
    assertThat(disrupted(waves)).containsExactlyInAnyOrderElementsOf(names(nodes));
    return commands(waves);
  }

  private static void assertAtMostAtOnce(List<List<DisruptionCommand>> waves, int max) {
    assertThat(waves).isNotEmpty().allSatisfy(w -> assertThat(disrupted(List.of(w))).hasSizeLessThanOrEqualTo(max));
  }

  static List<String> disrupted(List<List<DisruptionCommand>> waves) {
    return commands(waves).stream().flatMap(x -> x.candidates().stream()).toList();
  }

  static List<DisruptionCommand> commands(List<List<DisruptionCommand>> waves) {
    return waves.stream().flatMap(List::stream).toList();
  }

  static List<String> names(List<StateNode> nodes) {
    return nodes.stream().map(StateNode::name).toList();
  }
}
