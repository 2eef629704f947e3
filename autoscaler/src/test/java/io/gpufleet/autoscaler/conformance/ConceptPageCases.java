package io.gpufleet.autoscaler.conformance;

import static io.gpufleet.autoscaler.conformance.K.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.action.Action;
import io.gpufleet.autoscaler.action.RemovalReason;
import io.gpufleet.autoscaler.disruption.DisruptionBudgets;
import io.gpufleet.autoscaler.disruption.DisruptionCommand;
import io.gpufleet.autoscaler.provisioning.ProvisioningPlan;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
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
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.model.workload.DisruptionBudget;
import io.gpufleet.model.workload.IntOrPercent;
import io.gpufleet.model.workload.PodDisruptionBudget;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * The worked examples and stated rules of the karpenter.sh concept pages (their source lives in
 * aws/karpenter-provider-aws, {@code website/content/en/docs/concepts/}): each case names the page,
 * {@code docs:<url path>}, and the example or sentence it checks, and runs the twin on the page's own
 * figures (a NodePool's budgets, a node's pods and PDBs, a pod's grace) with the outcome the page states.
 */
final class ConceptPageCases {
  private ConceptPageCases() {}

  static final String DISRUPTION = "docs:/docs/concepts/disruption/";
  static final String NODEPOOLS = "docs:/docs/concepts/nodepools/";
  static final String SCHEDULING = "docs:/docs/concepts/scheduling/";

  static List<UpstreamCase> all() {
    List<UpstreamCase> c = new ArrayList<>();
    budgets(c);
    controls(c);
    drift(c);
    termination(c);
    consolidation(c);
    scheduling(c);
    startupTaints(c);
    return c;
  }

  // ---- NodePool Disruption Budgets ----

  private static void budgets(List<UpstreamCase> c) {
    String area = "budgets (docs)";
    // The page's NodePool with three budgets: 20% for Empty and Drifted; 5; 0 for Underutilized for ten
    // minutes from @daily.
    NodePool under = consolidating(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, Duration.ZERO, 100);
    NodePool example = under.withDisruption(under.disruption().withBudgets(List.of(
        new Budget(new IntOrPercent.Percent(20), Optional.empty(), Optional.empty(), Set.of(DisruptionReason.EMPTY,
            DisruptionReason.DRIFTED)),
        Budget.nodes(new IntOrPercent.Count(5)),
        new Budget(new IntOrPercent.Count(0), Optional.of(CronSchedule.parse("@daily")), Optional.of(
            Duration.ofMinutes(10)), Set.of(DisruptionReason.UNDERUTILIZED)))));
    Instant afterTen = T0.plus(Duration.ofMinutes(15));
    c.add(UpstreamCase.of(area, DISRUPTION, "NodePool Disruption Budgets: with 19 nodes, the 20% budget lets 4 empty "
        + "or drifted nodes be disrupted", () -> {
      assertThat(allowed(example, 19, 0, afterTen, DisruptionReason.EMPTY)).isEqualTo(4);
      assertThat(allowed(example, 19, 0, afterTen, DisruptionReason.DRIFTED)).isEqualTo(4);
    }));
    c.add(UpstreamCase.of(area, DISRUPTION, "NodePool Disruption Budgets: the second budget allows only 5 disruptions "
        + "when there are more than 25 nodes", () -> {
      assertThat(allowed(example, 30, 0, afterTen, DisruptionReason.EMPTY)).isEqualTo(5);
      assertThat(allowed(example, 30, 0, afterTen, DisruptionReason.UNDERUTILIZED)).isEqualTo(5);
    }));
    c.add(UpstreamCase.of(area, DISRUPTION, "NodePool Disruption Budgets: the last budget allows 0 underutilized "
        + "disruptions during the first 10 minutes of the day", () -> {
      Instant inWindow = T0.plus(Duration.ofMinutes(5));
      assertThat(allowed(example, 19, 0, inWindow, DisruptionReason.UNDERUTILIZED)).isZero();
      assertThat(allowed(example, 19, 0, inWindow, DisruptionReason.EMPTY)).isEqualTo(4);
      assertThat(allowed(example, 19, 0, afterTen, DisruptionReason.UNDERUTILIZED)).isEqualTo(5);
    }));
    c.add(UpstreamCase.of(area, DISRUPTION, "NodePool Disruption Budgets: allowed_disruptions = roundup(total * "
        + "percentage) - total_deleting", () -> {
      NodePool twenty = under.withDisruption(under.disruption().withBudgets(List.of(Budget.nodes(
          new IntOrPercent.Percent(20)))));
      assertThat(allowed(twenty, 11, 0, AT, DisruptionReason.UNDERUTILIZED)).isEqualTo(3); // roundup(2.2)
      assertThat(allowed(twenty, 11, 1, AT, DisruptionReason.UNDERUTILIZED)).isEqualTo(2);
      assertThat(allowed(twenty, 11, 3, AT, DisruptionReason.UNDERUTILIZED)).isZero();
    }));
    c.add(UpstreamCase.of(area, DISRUPTION, "NodePool Disruption Budgets: budgets do not prevent Karpenter from "
        + "terminating expired nodes", () -> {
      NodePool none = under.withDisruption(under.disruption().withBudgets(List.of(Budget.nodes(
          new IntOrPercent.Count(0)))));
      StateNode n = LifecycleCases.claim(node(none, "m5.large", 1, owned(pod("p", "cpu", "500m"))),
          x -> x.withExpiry(Optional.of(Duration.ofMinutes(30)), Optional.empty()));
      assertThat(lifecycle(AT, none, List.of(n))).contains(new Action.DeleteNodeClaim(n.name(),
          RemovalReason.EXPIRED));
    }));
    c.add(UpstreamCase.of(area, DISRUPTION, "Example: Disable Disruption on a NodePool: a budget of zero nodes "
        + "prevents voluntary disruption", () -> {
      // An empty node, a drifted node and an underutilized one: nothing is disrupted under nodes: "0"; the
      // same nodes under the default budget are.
      NodePool none = under.withDisruption(under.disruption().withBudgets(List.of(Budget.nodes(
          new IntOrPercent.Count(0)))));
      BiFunction<NodePool, Integer, List<StateNode>> nodes = (p, k) -> List.of(node(p, "m5.large", k),
          drifted(node(p, "m5.large", k + 1, owned(pod("a", "cpu", "500m")))),
          node(p, "m5.xlarge", k + 2, owned(pod("b", "cpu", "500m"))));
      assertThat(poll(view(AT, none, nodes.apply(none, 1), PdbIndex.NONE), none)).isEmpty();
      NodePool byDefault = under.withDisruption(under.disruption().withBudgets(List.of(Budget.DEFAULT)));
      assertThat(poll(view(AT, byDefault, nodes.apply(byDefault, 1), PdbIndex.NONE), byDefault)).isPresent();
    }));
  }

  // ---- Pod-level and node-level controls ----

  private static void controls(List<UpstreamCase> c) {
    String area = "disruption controls (docs)";
    NodePool drifting = consolidating(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, Duration.ofDays(1), 100);
    // The page's node: pod A under PDB-1 (maxUnavailable 0) and PDB-2 (maxUnavailable 1); pod B under
    // PDB-3 (minAvailable 100%); pod C under none. The PDBs' allowed disruptions follow from their
    // specs over one healthy pod each: 0, 1 and 0.
    Pod a = owned(labelled(labelled(pod("a", "cpu", "100m"), "pdb-1", "a"), "pdb-2", "a"));
    Pod b = owned(labelled(pod("b", "cpu", "100m"), "pdb-3", "b"));
    Pod podC = owned(pod("c", "cpu", "100m"));
    PdbIndex pdbs = new PdbIndex(List.of(
        new DisruptionBudget(pdb("pdb-1", Optional.empty(), Optional.of(new IntOrPercent.Count(0))), 0),
        new DisruptionBudget(pdb("pdb-2", Optional.empty(), Optional.of(new IntOrPercent.Count(1))), 1),
        new DisruptionBudget(pdb("pdb-3", Optional.of(new IntOrPercent.Percent(100)), Optional.empty()), 0)));
    c.add(UpstreamCase.of(area, DISRUPTION, "Pod-Level Controls: Pod A is blocked by PDB-1 even though PDB-2 would "
        + "allow disruption", () -> {
      StateNode n = drifted(node(drifting, "m5.large", 1, a));
      assertThat(poll(view(AT, drifting, List.of(n), pdbs), drifting)).isEmpty();
    }));
    c.add(UpstreamCase.of(area, DISRUPTION, "Pod-Level Controls: Pod B is blocked by PDB-3's requirement for 100% "
        + "availability", () -> {
      StateNode n = drifted(node(drifting, "m5.large", 1, b));
      assertThat(poll(view(AT, drifting, List.of(n), pdbs), drifting)).isEmpty();
    }));
    c.add(UpstreamCase.of(area, DISRUPTION, "Pod-Level Controls: Karpenter cannot voluntary disrupt the node with pods "
        + "A, B and C", () -> {
      StateNode n = drifted(node(drifting, "m5.large", 1, a, b, podC));
      assertThat(poll(view(AT, drifting, List.of(n), pdbs), drifting)).isEmpty();
      // Pod C alone, under no PDB, does not hold its node.
      StateNode alone = drifted(node(drifting, "m5.large", 2, podC));
      assertThat(poll(view(AT, drifting, List.of(alone), pdbs), drifting)).isPresent();
    }));
    c.add(UpstreamCase.of(area, DISRUPTION, "karpenter.sh/do-not-disrupt: \"30m\" provides time-based protection for "
        + "the specified duration after the pod starts running", () -> {
      StateNode n = drifted(node(drifting, "m5.large", 1, doNotDisrupt(owned(pod("job", "cpu", "100m")), "30m")));
      assertThat(poll(view(T0.plus(Duration.ofMinutes(20)), drifting, List.of(n), PdbIndex.NONE), drifting))
          .isEmpty();
      DisruptionCommand cmd = poll(view(T0.plus(Duration.ofMinutes(31)), drifting, List.of(n), PdbIndex.NONE),
          drifting).orElseThrow();
      assertThat(cmd.reason()).isEqualTo(DisruptionReason.DRIFTED);
    }));
    c.add(UpstreamCase.of(area, DISRUPTION, "karpenter.sh/do-not-disrupt: if an invalid duration is specified, the "
        + "annotation will be ignored", () -> {
      StateNode n = drifted(node(drifting, "m5.large", 1, doNotDisrupt(owned(pod("job", "cpu", "100m")), "forever")));
      assertThat(poll(view(AT, drifting, List.of(n), PdbIndex.NONE), drifting)).isPresent();
    }));
    c.add(UpstreamCase.of(area, DISRUPTION, "Node-Level Controls: karpenter.sh/do-not-disrupt: \"true\" on the node "
        + "prevents voluntary disruption actions against the node", () -> {
      NodePool whenEmpty = consolidating(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, Duration.ZERO, 100);
      StateNode empty = annotated(node(whenEmpty, "m5.large", 1), "true");
      StateNode drifted = annotated(drifted(node(whenEmpty, "m5.large", 2, owned(pod("p", "cpu", "100m")))), "true");
      assertThat(poll(view(AT, whenEmpty, List.of(empty, drifted), PdbIndex.NONE), whenEmpty)).isEmpty();
    }));
    c.add(UpstreamCase.of(area, DISRUPTION, "karpenter.sh/do-not-disrupt does not exclude nodes from the forceful "
        + "disruption methods: Expiration", () -> {
      StateNode n = LifecycleCases.claim(node(drifting, "m5.large", 1, doNotDisrupt(owned(pod("p")), "true")),
          x -> x.withExpiry(Optional.of(Duration.ofMinutes(30)), Optional.empty()));
      assertThat(lifecycle(AT, drifting, List.of(n))).contains(new Action.DeleteNodeClaim(n.name(),
          RemovalReason.EXPIRED));
    }));
    // terminationGracePeriod makes drift eventual: the page's rule, on the NodePool's template.
    NodePool graceful = drifting.withTemplate(drifting.template().withTerminationGracePeriod(Optional.of(
        Duration.ofHours(1))));
    c.add(UpstreamCase.of(area, DISRUPTION, "terminationGracePeriod: a node may be disrupted via drift even if there "
        + "are pods with the karpenter.sh/do-not-disrupt annotation", () -> {
      StateNode n = drifted(node(graceful, "m5.large", 1, doNotDisrupt(owned(pod("p", "cpu", "100m")), "true")));
      assertThat(poll(view(AT, graceful, List.of(n), PdbIndex.NONE), graceful).orElseThrow().reason())
          .isEqualTo(DisruptionReason.DRIFTED);
      assertThat(poll(view(AT, drifting, List.of(drifted(node(drifting, "m5.large", 1, doNotDisrupt(owned(pod("p",
          "cpu", "100m")), "true")))), PdbIndex.NONE), drifting)).isEmpty();
    }));
    c.add(UpstreamCase.of(area, DISRUPTION, "terminationGracePeriod: a node may be disrupted via drift even if there "
        + "are pods with blocking PDBs", () -> {
      StateNode n = drifted(node(graceful, "m5.large", 1, b));
      assertThat(poll(view(AT, graceful, List.of(n), pdbs), graceful).orElseThrow().reason())
          .isEqualTo(DisruptionReason.DRIFTED);
    }));
  }

  // ---- Drift ----

  private static void drift(List<UpstreamCase> c) {
    String area = "drift (docs)";
    NodePool base = consolidating(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, Duration.ZERO, 100);
    NodePool large = base.withTemplate(NodeClaimTemplate.of(NodePoolRequirement.in(TYPE, "m5.large"),
        NodePoolRequirement.in(CAPACITY_TYPE, "on-demand")));
    c.add(UpstreamCase.of(area, DISRUPTION, "Special Cases on Drift: requirements changed from instance-type In "
        + "[m5.large] to In [m5.large, m5.2xlarge] do not drift a NodeClaim of m5.large", () -> {
      StateNode n = node(large, "m5.large", 1);
      NodePool wider = large.withTemplate(NodeClaimTemplate.of(NodePoolRequirement.in(TYPE, "m5.large", "m5.2xlarge"),
          NodePoolRequirement.in(CAPACITY_TYPE, "on-demand")));
      assertThat(LifecycleCases.drifts(wider, n)).isEmpty();
    }));
    c.add(UpstreamCase.of(area, DISRUPTION, "Special Cases on Drift: a NodeClaim whose instance type the requirements "
        + "no longer allow is drifted", () -> {
      StateNode n = node(large, "m5.large", 1);
      NodePool other = large.withTemplate(NodeClaimTemplate.of(NodePoolRequirement.in(TYPE, "m5.2xlarge"),
          NodePoolRequirement.in(CAPACITY_TYPE, "on-demand")));
      assertThat(LifecycleCases.drifts(other, n)).containsExactly(new Action.MarkDrifted(n.name(),
          "RequirementsDrifted"));
    }));
    List<Map.Entry<String, java.util.function.UnaryOperator<NodePool>>> behavioural = List.of(
        Map.entry("spec.weight", p -> p.withWeight(50)),
        Map.entry("spec.limits", p -> p.withLimits(ResourceList.of("cpu", "1000", "nvidia.com/gpu", "8"))),
        Map.entry("spec.disruption.*", p -> p.withDisruption(p.disruption().withPolicy(ConsolidationPolicy.WHEN_EMPTY)
            .withConsolidateAfter(Optional.of(Duration.ofMinutes(10))).withBudgets(List.of(Budget.nodes(
                new IntOrPercent.Count(0)))))));
    for (var e : behavioural) {
      c.add(UpstreamCase.of(area, DISRUPTION, "Behavioral Fields: NodePool " + e.getKey() + " is not considered for "
          + "Drift", () -> {
        StateNode n = node(base, "m5.large", 1);
        assertThat(LifecycleCases.drifts(e.getValue().apply(base), n)).isEmpty();
      }));
    }
    c.add(UpstreamCase.of(area, DISRUPTION, "Expiration: changes to spec.template.spec.expireAfter on the owning "
        + "NodePool will induce NodeClaim drift", () -> {
      StateNode n = node(base, "m5.large", 1);
      NodePool changed = base.withTemplate(base.template().withExpireAfter(Optional.of(Duration.ofHours(24 * 7))));
      assertThat(LifecycleCases.drifts(changed, n)).containsExactly(new Action.MarkDrifted(n.name(),
          "NodePoolDrifted"));
    }));
    c.add(UpstreamCase.of(area, DISRUPTION, "Expiration: a NodePool with expireAfter: 720h can still have nodes "
        + "terminated earlier if the node becomes drifted due to an AMI update", () -> {
      // A day old, 29 days before expiry; the EC2NodeClass's AMI moves on; the budget permits drift.
      Instant dayOne = T0.plus(Duration.ofDays(1));
      EC2NodeClass before = LifecycleCases.nodeClass("hash-1", "al2023@v20240807");
      StateNode n = LifecycleCases.claim(node(base, "m5.large", 1, owned(pod("p", "cpu", "500m"))),
          x -> before.stamp(x).withExpiry(Optional.of(Duration.ofHours(720)), Optional.empty()));
      assertThat(LifecycleCases.drifts(base, n, Map.of("default", LifecycleCases.nodeClass("hash-1",
          "al2023@v20241011")))).containsExactly(new Action.MarkDrifted(n.name(), "AMIDrift"));
      assertThat(lifecycle(dayOne, base, List.of(n))).noneMatch(x -> x instanceof Action.DeleteNodeClaim);
      DisruptionCommand cmd = poll(view(dayOne, base, List.of(drifted(n)), PdbIndex.NONE), base).orElseThrow();
      assertThat(cmd.reason()).isEqualTo(DisruptionReason.DRIFTED);
    }));
  }

  // ---- terminationGracePeriod ----

  private static void termination(List<UpstreamCase> c) {
    String area = "termination (docs)";
    NodePool pool = LifecycleCases.POOL;
    c.add(UpstreamCase.of(area, DISRUPTION, "terminationGracePeriod: a do-not-disrupt pod with a 300 second "
        + "terminationGracePeriodSeconds is deleted 55 minutes after a Node with a 1 hour terminationGracePeriod "
        + "begins to drain", () -> {
      Pod p = LifecycleCases.grace(doNotDisrupt(owned(pod("p", "cpu", "100m")), "true"), 300);
      StateNode n = LifecycleCases.deleting(node(pool, "m5.large", 1, p), Duration.ofHours(1), T0);
      assertThat(LifecycleCases.evictions(LifecycleCases.terminateAt(T0.plus(Duration.ofMinutes(54)), n))).isEmpty();
      assertThat(LifecycleCases.terminateAt(T0.plus(Duration.ofMinutes(55)), n)).contains(Action.Evict.forced(p.key(),
          n.name(), RemovalReason.DELETED, Duration.ofSeconds(300)));
    }));
    c.add(UpstreamCase.of(area, DISRUPTION, "terminationGracePeriod: a pod whose terminationGracePeriodSeconds "
        + "exceeds the Node's is deleted as soon as the Node begins to drain", () -> {
      Pod p = LifecycleCases.grace(doNotDisrupt(owned(pod("p", "cpu", "100m")), "true"), 7200);
      StateNode n = LifecycleCases.deleting(node(pool, "m5.large", 1, p), Duration.ofHours(1), T0);
      assertThat(LifecycleCases.terminateAt(T0, n)).contains(Action.Evict.forced(p.key(), n.name(),
          RemovalReason.DELETED, Duration.ofHours(1)));
    }));
    c.add(UpstreamCase.of(area, DISRUPTION, "terminationGracePeriod: the maximum node lifetime is the sum of "
        + "expireAfter and terminationGracePeriod", () -> {
      // expireAfter 1h, terminationGracePeriod 1h; a do-not-disrupt pod that never leaves by itself.
      Pod p = doNotDisrupt(owned(pod("p", "cpu", "100m")), "true");
      StateNode n = LifecycleCases.claim(node(pool, "m5.large", 1, p), x -> x.withExpiry(Optional.of(
          Duration.ofHours(1)), Optional.of(Duration.ofHours(1))));
      assertThat(lifecycle(T0.plus(Duration.ofHours(1)), pool, List.of(n))).contains(new Action.DeleteNodeClaim(
          n.name(), RemovalReason.EXPIRED));
      StateNode draining = LifecycleCases.claim(n, x -> x.withDeletionRequested(T0.plus(Duration.ofHours(1))));
      assertThat(LifecycleCases.terminateAt(T0.plus(Duration.ofMinutes(90)), draining))
          .noneMatch(x -> x instanceof Action.TerminateInstance);
      assertThat(LifecycleCases.terminateAt(T0.plus(Duration.ofHours(2)), draining))
          .contains(new Action.TerminateInstance(n.name()));
    }));
  }

  // ---- Consolidation ----

  private static void consolidation(List<UpstreamCase> c) {
    String area = "consolidation (docs)";
    NodePool under = consolidating(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, Duration.ZERO, 100);
    c.add(UpstreamCase.of(area, DISRUPTION, "consolidateAfter: setting it to Never disables consolidation for the "
        + "NodePool entirely", () -> {
      NodePool never = under.withDisruption(under.disruption().withConsolidateAfter(Optional.empty()));
      List<StateNode> nodes = List.of(node(never, "m5.large", 1), node(never, "m5.4xlarge", 2, owned(pod("p", "cpu",
          "500m"))));
      assertThat(poll(view(AT, never, nodes, PdbIndex.NONE), never)).isEmpty();
    }));
    c.add(UpstreamCase.of(area, DISRUPTION, "consolidateAfter: Karpenter resets this timer whenever a pod is added to "
        + "or removed from the node", () -> {
      // consolidateAfter 30m; the node's last pod left at T0+50m: not a candidate at T0+60m, one at T0+80m.
      NodePool thirty = under.withDisruption(under.disruption().withConsolidateAfter(Optional.of(
          Duration.ofMinutes(30))));
      StateNode n = node(thirty, "m5.large", 1);
      StateNode touched = new StateNode(n.name(), n.claim(), n.node(), n.pods(), n.terminating(),
          T0.plus(Duration.ofMinutes(50)), false, n.podStarts());
      assertThat(poll(view(T0.plus(Duration.ofMinutes(60)), thirty, List.of(touched), PdbIndex.NONE), thirty))
          .isEmpty();
      assertThat(poll(view(T0.plus(Duration.ofMinutes(80)), thirty, List.of(touched), PdbIndex.NONE), thirty)
          .orElseThrow().reason()).isEqualTo(DisruptionReason.EMPTY);
    }));
    c.add(UpstreamCase.of(area, DISRUPTION, "Deletion: a node is eligible for deletion if all of its pods can run on "
        + "free capacity of other nodes in the cluster", () -> {
      StateNode busy = node(under, "m5.xlarge", 1, owned(pod("a", "cpu", "2")));
      StateNode light = node(under, "m5.xlarge", 2, owned(pod("b", "cpu", "1")));
      DisruptionCommand cmd = poll(view(AT, under, List.of(busy, light), PdbIndex.NONE), under).orElseThrow();
      assertThat(cmd.isDelete()).isTrue();
      assertThat(cmd.candidates()).containsExactly(light.name());
    }));
    c.add(UpstreamCase.of(area, DISRUPTION, "Replace: a node can be replaced if all of its pods can run on a single "
        + "lower price replacement node", () -> {
      StateNode big = node(under, "m5.4xlarge", 1, owned(pod("a", "cpu", "1")));
      DisruptionCommand cmd = poll(view(AT, under, List.of(big), PdbIndex.NONE), under).orElseThrow();
      assertThat(cmd.replacements()).singleElement().satisfies(r -> assertThat(r.offering().pricePerHour())
          .isLessThan(big.claim().orElseThrow().offering().pricePerHour()));
    }));
    // Which of two nodes consolidation removes when either could go: two m5.large nodes whose pods all fit
    // on one (merging both into a new m5.large is no cheaper). Each is checked both ways round, so the
    // nodes' names cannot decide it.
    c.add(UpstreamCase.of(area, DISRUPTION, "Consolidation prefers to terminate nodes running fewer pods", () -> {
      for (boolean swap : new boolean[] {false, true}) {
        StateNode few = node(under, "m5.large", swap ? 2 : 1, owned(pod("a", "cpu", "500m")));
        StateNode many = node(under, "m5.large", swap ? 1 : 2, owned(pod("b", "cpu", "300m")),
            owned(pod("c", "cpu", "300m")));
        assertThat(poll(view(AT, under, List.of(few, many), PdbIndex.NONE), under).orElseThrow().candidates())
            .containsExactly(few.name());
      }
    }));
    c.add(UpstreamCase.of(area, DISRUPTION, "Consolidation prefers to terminate nodes that will expire soon", () -> {
      for (boolean swap : new boolean[] {false, true}) {
        StateNode soon = LifecycleCases.claim(node(under, "m5.large", swap ? 2 : 1, owned(pod("a", "cpu", "500m"))),
            x -> x.withExpiry(Optional.of(Duration.ofHours(2)), Optional.empty()));
        StateNode late = LifecycleCases.claim(node(under, "m5.large", swap ? 1 : 2, owned(pod("b", "cpu", "500m"))),
            x -> x.withExpiry(Optional.of(Duration.ofHours(720)), Optional.empty()));
        assertThat(poll(view(AT, under, List.of(soon, late), PdbIndex.NONE), under).orElseThrow().candidates())
            .containsExactly(soon.name());
      }
    }).differs("the twin orders candidates by price over disruption cost, 1 plus 1 per pod, as upstream's code "
        + "does (SavingsRatio, K:pkg/controllers/disruption/types.go: price / RescheduleDisruptionCost, which has "
        + "no lifetime term; LifetimeRemaining only scales the DisruptionCost field, which no ordering reads); the "
        + "page's rule is older than that code, so two nodes alike but for their expiry tie in both"));
    c.add(UpstreamCase.of(area, DISRUPTION, "Consolidation prefers to terminate nodes with lower priority pods", () -> {
      for (boolean swap : new boolean[] {false, true}) {
        Pod high = owned(pod("a", "cpu", "500m"));
        high = high.withSpec(high.spec().withPriority(1_000_000));
        StateNode important = node(under, "m5.large", swap ? 2 : 1, high);
        StateNode ordinary = node(under, "m5.large", swap ? 1 : 2, owned(pod("b", "cpu", "500m")));
        assertThat(poll(view(AT, under, List.of(important, ordinary), PdbIndex.NONE), under).orElseThrow()
            .candidates()).containsExactly(ordinary.name());
      }
      // Agrees since eviction costs follow upstream's 1 + priority / 2^25 (EvictionCost in
      // K:pkg/utils/disruption/disruption.go, summed into RescheduleDisruptionCost).
    }));
  }

  // ---- Scheduling and NodePools ----

  private static void scheduling(List<UpstreamCase> c) {
    String area = "scheduling (docs)";
    c.add(UpstreamCase.of(area, SCHEDULING, "Accelerators/GPU Resources: without the device plugin daemonset, "
        + "Karpenter will not see those nodes as initialized", () -> {
      NodePool gpu = bare("gpu", req(FAMILY, RequirementOperator.IN, "g5"));
      StateNode waiting = awaitingDevicePlugin(gpu, "g5.xlarge", 1);
      assertThat(lifecycle(AT, gpu, List.of(waiting))).noneMatch(x -> x instanceof Action.MarkInitialized);
      // Once the plugin registers the GPU, it is.
      StateNode registered = new StateNode(waiting.name(), waiting.claim(), waiting.node().map(nd -> nd.withResources(
          nd.capacity(), CATALOG.require("g5.xlarge").allocatable())), List.of(), Set.of(), T0, false);
      assertThat(lifecycle(AT, gpu, List.of(registered))).contains(new Action.MarkInitialized(waiting.name()));
    }));
    c.add(UpstreamCase.of(area, SCHEDULING, "Taints and tolerations: a NodePool tainted nvidia.com/gpu runs only pods "
        + "that tolerate the taint", () -> {
      // The page's NodePool "gpu" over the p3 family (not in the catalogue; here p5) tainted
      // nvidia.com/gpu=true:NoSchedule, and its pod mygpupod asking one GPU and tolerating the key (Exists).
      NodePool gpu = bare("gpu", req(FAMILY, RequirementOperator.IN, "p5"));
      gpu = gpu.withTemplate(gpu.template().withTaints(List.of(Taint.of("nvidia.com/gpu", "true",
          TaintEffect.NO_SCHEDULE))));
      Pod tolerating = tolerating(pod("mygpupod", "nvidia.com/gpu", "1"), Toleration.exists("nvidia.com/gpu",
          TaintEffect.NO_SCHEDULE));
      Pod plain = pod("plain", "cpu", "100m");
      ProvisioningPlan plan = provision(List.of(gpu), List.of(tolerating, plain));
      assertThat(scheduled(plan, tolerating)).isTrue();
      assertThat(CATALOG.require(launchedType(plan, tolerating)).gpuCount()).isGreaterThanOrEqualTo(1);
      assertThat(scheduled(plan, plain)).isFalse();
    }));
    c.add(UpstreamCase.of(area, SCHEDULING, "if the NodePool allows only a particular zone and a pod asks for a "
        + "different zone, it will not be scheduled", () -> {
      NodePool zonal = pool("zonal", req(ZONE, RequirementOperator.IN, "us-east-1a"));
      Pod p = selecting(pod("p"), ZONE, "us-east-1b");
      assertThat(scheduled(provision(List.of(zonal), List.of(p)), p)).isFalse();
    }));
    c.add(UpstreamCase.of(area, SCHEDULING, "Savings Plans and Reserved Instances: the weighted NodePool is used "
        + "until its limits are reached, then the default one", () -> {
      // weight 50, limits cpu 100, instance type c4.large (not in the catalogue; here c5.large, 2 vCPU), and
      // the default NodePool. With 98 vCPU of c5.large running the next 2-vCPU node still fits; at 100 it
      // does not.
      NodePool reserved = bare("reserved-instance", req(TYPE, RequirementOperator.IN, "c5.large")).withWeight(50)
          .withLimits(ResourceList.of("cpu", "100"));
      NodePool fallback = bare("default", req(CAPACITY_TYPE, RequirementOperator.IN, "spot", "on-demand"),
          req(ARCH, RequirementOperator.IN, "amd64"));
      Pod p = pod("p", "cpu", "500m");
      List<StateNode> running = new ArrayList<>();
      for (int i = 0; i < 49; i++) {
        running.add(inFlight(reserved, "c5.large", true));
      }
      ProvisioningPlan first = provision(List.of(reserved, fallback), List.of(p), running, List.of());
      assertThat(claimOf(first, p).nodePool()).isEqualTo("reserved-instance");
      running.add(inFlight(reserved, "c5.large", true));
      ProvisioningPlan then = provision(List.of(reserved, fallback), List.of(p), running, List.of());
      assertThat(claimOf(then, p).nodePool()).isEqualTo("default");
    }));
    c.add(UpstreamCase.of(area, NODEPOOLS, "if the instance type requested by a nodeSelector is not included in the "
        + "NodePool's instance type requirements, Karpenter will not create a node", () -> {
      NodePool np = bare("default", req(TYPE, RequirementOperator.IN, "m5.large", "m5.xlarge"));
      Pod p = selecting(pod("p"), TYPE, "m5.2xlarge");
      ProvisioningPlan plan = provision(List.of(np), List.of(p));
      assertThat(plan.newClaims()).isEmpty();
      assertThat(scheduled(plan, p)).isFalse();
    }));
    c.add(UpstreamCase.of(area, NODEPOOLS, "spec.limits: if a limit has been exceeded, nodes provisioning is prevented "
        + "until some nodes have been terminated", () -> {
      // A GPU NodePool limited to one nvidia.com/gpu; one g5.xlarge (one A10G) is running.
      NodePool gpu = bare("gpu", req(FAMILY, RequirementOperator.IN, "g5")).withLimits(ResourceList.of(
          "nvidia.com/gpu", "1"));
      Pod p = pod("p", "nvidia.com/gpu", "1");
      assertThat(scheduled(provision(List.of(gpu), List.of(p), List.of(inFlight(gpu, "g5.xlarge", true)), List.of()),
          p)).isFalse();
      assertThat(scheduled(provision(List.of(gpu), List.of(p)), p)).isTrue();
    }));
    c.add(UpstreamCase.of(area, NODEPOOLS, "spec.weight: specifying no weight is equivalent to specifying a weight "
        + "of 0", () -> {
          // Against a NodePool of weight 1, an unweighted one loses as one of weight 0 does.
          NodePool one = bare("one", req(TYPE, RequirementOperator.IN, "c5.large")).withWeight(1);
          for (NodePool other : List.of(bare("other", req(TYPE, RequirementOperator.IN, "m5.large")),
              bare("other", req(TYPE, RequirementOperator.IN, "m5.large")).withWeight(0))) {
            Pod p = pod("p");
            assertThat(claimOf(provision(List.of(other, one), List.of(p)), p).nodePool()).isEqualTo("one");
          }
        }));
  }

  /**
   * {@code spec.template.spec.startupTaints} on the NodePools page: "Taints that are added to nodes to
   * indicate that a certain condition must be met ... before the node is can be initialized. These
   * taints must be cleared before pods can be deployed to a node"; and its "Cilium Startup Taint"
   * example (node.cilium.io/agent-not-ready=true:NoExecute).
   */
  private static void startupTaints(List<UpstreamCase> c) {
    String area = "scheduling (docs)";
    Taint cilium = Taint.of("node.cilium.io/agent-not-ready", "true", TaintEffect.NO_EXECUTE);
    NodePool base = pool("cilium-startup");
    NodePool declared = base.withTemplate(base.template().withStartupTaints(List.of(cilium)));
    c.add(UpstreamCase.of(area, NODEPOOLS, "Cilium Startup Taint: pods aren't required to tolerate these taints to be "
        + "considered for provisioning", () -> {
      Pod p = pod("p", "cpu", "1");
      ProvisioningPlan plan = provision(List.of(declared), List.of(p));
      assertThat(scheduled(plan, p)).isTrue();
    }));
    c.add(UpstreamCase.of(area, NODEPOOLS, "spec.template.spec.startupTaints: these taints must be cleared before the "
        + "node can be initialized", () -> {
      StateNode tainted = joined(declared, List.of(cilium));
      assertThat(lifecycle(AT, declared, List.of(tainted))).noneMatch(x -> x instanceof Action.MarkInitialized);
      StateNode cleared = joined(declared, List.of());
      assertThat(lifecycle(AT, declared, List.of(cleared))).contains(new Action.MarkInitialized(cleared.name()));
    }));
    c.add(UpstreamCase.of(area, NODEPOOLS, "Cilium Startup Taint: failure to provide accurate startupTaints can result "
        + "in Karpenter continually provisioning new nodes", () -> {
      // A node joins, not yet initialised, with the Cilium taint. Declared as a startup taint, the pending
      // pod is planned onto it; not declared, the pod is unschedulable there and another node is launched.
      Pod p = pod("p", "cpu", "1");
      ProvisioningPlan expected = provision(List.of(declared), List.of(p), List.of(joined(declared, List.of(cilium))),
          List.of());
      assertThat(expected.newClaims()).isEmpty();
      assertThat(scheduled(expected, p)).isTrue();
      ProvisioningPlan unaware = provision(List.of(base), List.of(p), List.of(joined(base, List.of(cilium))),
          List.of());
      assertThat(unaware.newClaims()).hasSize(1);
    }));
  }

  // ---- helpers ----

  /** An m5.xlarge of the pool's that joined at T0 with these taints, not initialised yet. */
  private static StateNode joined(NodePool pool, List<Taint> taints) {
    var c = booting(pool, "m5.xlarge", 1).claim().orElseThrow();
    c = c.withRegistered(T0, c.name());
    return new StateNode(c.name(), Optional.of(c), Optional.of(io.gpufleet.model.node.Node.of(c.name(), c.labels(),
        taints, CATALOG.require("m5.xlarge").allocatable())), List.of(), Set.of(), T0, false);
  }

  /** DisruptionBudgets.allowed for a NodePool of {@code total} m5.large nodes, {@code deleting} of them deleting. */
  private static int allowed(NodePool pool, int total, int deleting, Instant now, DisruptionReason reason) {
    List<StateNode> nodes = new ArrayList<>();
    for (int i = 0; i < total; i++) {
      StateNode n = node(pool, "m5.large", i);
      nodes.add(i < deleting ? marked(n) : n);
    }
    return DisruptionBudgets.allowed(view(now, pool, nodes, PdbIndex.NONE), reason).get(pool.name());
  }

  private static PodDisruptionBudget pdb(String label, Optional<IntOrPercent> minAvailable,
      Optional<IntOrPercent> maxUnavailable) {
    return new PodDisruptionBudget(ObjectMeta.named(label), LabelSelector.matching(Labels.of(label, label.equals(
        "pdb-3") ? "b" : "a")), minAvailable, maxUnavailable);
  }
}
