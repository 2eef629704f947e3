package io.gpufleet.autoscaler.conformance;

import static io.gpufleet.autoscaler.conformance.K.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.action.Action;
import io.gpufleet.autoscaler.action.RemovalReason;
import io.gpufleet.autoscaler.interruption.InterruptionHandler;
import io.gpufleet.autoscaler.interruption.InterruptionMessage;
import io.gpufleet.autoscaler.lifecycle.NodeClaimLifecycle;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.autoscaler.termination.Termination;
import io.gpufleet.model.cloud.AllocatableEstimate;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.EC2NodeClass;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodeClaimTemplate;
import io.gpufleet.model.karpenter.NodeClassRef;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
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
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Cases for what happens to a NodeClaim after it is made: expiry
 * ({@code pkg/controllers/nodeclaim/expiration/suite_test.go}), the termination controller's drain
 * under a {@code terminationGracePeriod} ({@code pkg/controllers/node/termination/suite_test.go}) and
 * the AWS provider's interruption controller ({@code aws:pkg/controllers/interruption/suite_test.go}),
 * run through the twin's lifecycle, termination and interruption decisions on hand-built nodes.
 */
final class LifecycleCases {
  private LifecycleCases() {}

  static final String NODECLAIM_DRIFT = "pkg/controllers/nodeclaim/disruption/drift_test.go";
  static final String PROVIDER_DRIFT = "aws:pkg/cloudprovider/suite_test.go";
  static final String EXPIRATION = "pkg/controllers/nodeclaim/expiration/suite_test.go";
  static final String TERMINATION = "pkg/controllers/node/termination/suite_test.go";
  static final String INTERRUPTION = "aws:pkg/controllers/interruption/suite_test.go";

  static final NodePool POOL = consolidating(ConsolidationPolicy.WHEN_EMPTY, Duration.ofDays(1), 100,
      "spot", "on-demand");

  static List<UpstreamCase> all() {
    List<UpstreamCase> c = new ArrayList<>();
    driftDetection(c);
    providerDrift(c);
    expiry(c);
    termination(c);
    interruption(c);
    return c;
  }

  // ---- drift detection: the NodePool hash ----

  /**
   * Context "NodePool Static Drift", DescribeTable "should detect drift on changes to the static
   * fields": a claim launched under the pool is not drifted; after one template field changes it is
   * ({@code NodePoolDrifted}, {@code K:pkg/controllers/nodeclaim/disruption/drift.go}). The pool's
   * {@code expireAfter} and {@code terminationGracePeriod} count, as they are in the hash.
   */
  private static void driftDetection(List<UpstreamCase> c) {
    String table = "should detect drift on changes to the static fields ";
    List<java.util.Map.Entry<String, UnaryOperator<NodeClaimTemplate>>> entries = List.of(
        java.util.Map.entry("Annoations", t -> new NodeClaimTemplate(t.labels(), t.annotations().with(
            "keyAnnotationTest", "valueAnnotationTest"), t.requirements(), t.taints(), t.startupTaints(),
            t.nodeClassRef(), t.expireAfter(), t.terminationGracePeriod())),
        java.util.Map.entry("Labels", t -> t.withLabels(t.labels().with("keyLabelTest", "valueLabelTest"))),
        java.util.Map.entry("Taints", t -> t.withTaints(List.of(Taint.of("keytest2taint", "", TaintEffect.NO_EXECUTE)))),
        java.util.Map.entry("StartupTaints", t -> t.withStartupTaints(List.of(Taint.of("keytest2taint", "",
            TaintEffect.NO_EXECUTE)))),
        java.util.Map.entry("NodeClassRef Name", t -> new NodeClaimTemplate(t.labels(), t.annotations(),
            t.requirements(), t.taints(), t.startupTaints(), new NodeClassRef(t.nodeClassRef().group(),
            t.nodeClassRef().kind(), "testName"), t.expireAfter(), t.terminationGracePeriod())),
        java.util.Map.entry("ExpireAfter", t -> t.withExpireAfter(Optional.of(Duration.ofMinutes(100)))),
        java.util.Map.entry("TerminationGracePeriod", t -> t.withTerminationGracePeriod(Optional.of(
            Duration.ofMinutes(100)))));
    for (var e : entries) {
      c.add(UpstreamCase.of("drift detection", NODECLAIM_DRIFT, table + e.getKey(), () -> {
        StateNode n = node(POOL, "m5.large", 1);
        assertThat(drifts(POOL, n)).isEmpty();
        NodePool changed = POOL.withTemplate(e.getValue().apply(POOL.template()));
        assertThat(drifts(changed, n)).containsExactly(new Action.MarkDrifted(n.name(), "NodePoolDrifted"));
      }));
    }
  }

  /**
   * The AWS provider's Context "Drift" ({@code aws:pkg/cloudprovider/suite_test.go}): the claim is
   * stamped at launch with its EC2NodeClass's hash and the AMI it booted ({@code EC2NodeClass.stamp});
   * the class as it is now decides {@code NodeClassDrift} and {@code AMIDrift} (subnets and security
   * groups: {@link NetworkDriftCases}; capacity reservations are not modelled).
   */
  private static void providerDrift(List<UpstreamCase> c) {
    EC2NodeClass launchedWith = nodeClass("hash-1", "al2023@v20240807");
    c.add(UpstreamCase.of("drift detection", PROVIDER_DRIFT, "should not return drifted if the NodeClaim is valid", () ->
        assertThat(drifts(POOL, stamped(launchedWith), Map.of("default", launchedWith))).isEmpty()));
    c.add(UpstreamCase.of("drift detection", PROVIDER_DRIFT, "should not fail if NodeClass does not exist", () ->
        assertThat(drifts(POOL, stamped(launchedWith), Map.of())).isEmpty()));
    c.add(UpstreamCase.of("drift detection", PROVIDER_DRIFT, "should return drifted if the AMI is not valid", () -> {
      // Upstream gives the claim another image id; here the class moves to another alias version.
      StateNode n = stamped(launchedWith);
      assertThat(drifts(POOL, n, Map.of("default", nodeClass("hash-1", "al2023@v20241011"))))
          .containsExactly(new Action.MarkDrifted(n.name(), "AMIDrift"));
    }));
    c.add(UpstreamCase.of("drift detection", PROVIDER_DRIFT, "should return drifted if there are multiple drift "
        + "reasons", () -> {
      // A new hash and a new AMI at once: the static check comes first (isNodeClassDrifted).
      StateNode n = stamped(launchedWith);
      assertThat(drifts(POOL, n, Map.of("default", nodeClass("abcdefghijkl", "al2023@latest"))))
          .containsExactly(new Action.MarkDrifted(n.name(), "NodeClassDrift"));
    }));
  }

  static EC2NodeClass nodeClass(String hash, String alias) {
    return new EC2NodeClass("default", OptionalInt.empty(), OptionalInt.empty(),
        AllocatableEstimate.Reservations.DEFAULTS, Optional.empty(), hash, EC2NodeClass.imageIdOf(alias));
  }

  static StateNode stamped(EC2NodeClass launchedWith) {
    return claim(node(POOL, "m5.large", 1), launchedWith::stamp);
  }

  static List<Action> drifts(NodePool pool, StateNode n) {
    return drifts(pool, n, Map.of());
  }

  static List<Action> drifts(NodePool pool, StateNode n, Map<String, EC2NodeClass> nodeClasses) {
    ClusterView v = new ClusterView(T0.plus(Duration.ofHours(1)), List.of(pool), CATALOG, OfferingAvailability.ALL,
        List.of(n), List.of(), List.of(), PdbIndex.NONE);
    return new NodeClaimLifecycle(AutoscalerSettings.DEFAULTS).reconcile(v, true, nodeClasses).stream()
        .filter(a -> a instanceof Action.MarkDrifted).toList();
  }

  // ---- expiry ----

  private static void expiry(List<UpstreamCase> c) {
    // Upstream's claim expires after 30s and is looked at a minute later.
    c.add(UpstreamCase.of("expiry", EXPIRATION, "Expiration should remove nodeclaims that are expired", () -> {
      StateNode n = claim(node(POOL, "m5.large", 1), x -> x.withExpiry(Optional.of(Duration.ofSeconds(30)),
          Optional.empty()));
      assertThat(lifecycleAt(T0.plusSeconds(60), n)).contains(new Action.DeleteNodeClaim(n.name(),
          RemovalReason.EXPIRED));
    }));
    c.add(UpstreamCase.of("expiry", EXPIRATION, "should not remove the NodeClaims when expiration is disabled", () -> {
      // expireAfter: Never
      StateNode n = claim(node(POOL, "m5.large", 1), x -> x.withExpiry(Optional.empty(), Optional.empty()));
      assertThat(deletions(lifecycleAt(T0.plus(Duration.ofDays(3650)), n))).isEmpty();
    }));
    c.add(UpstreamCase.of("expiry", EXPIRATION, "should not remove non-expired NodeClaims", () -> {
      StateNode n = claim(node(POOL, "m5.large", 1), x -> x.withExpiry(Optional.of(Duration.ofSeconds(200)),
          Optional.empty()));
      assertThat(deletions(lifecycleAt(T0, n))).isEmpty();
    }));
    c.add(UpstreamCase.of("expiry", EXPIRATION, "should delete NodeClaims if the nodeClaim is expired but the node "
        + "isn't", () -> {
      // Expiry counts from the NodeClaim's creation; a node that joined later changes nothing.
      StateNode n = claim(node(POOL, "m5.large", 1), x -> x.withExpiry(Optional.of(Duration.ofSeconds(30)),
          Optional.empty()).withRegistered(T0.plusSeconds(50), x.name()));
      assertThat(lifecycleAt(T0.plusSeconds(60), n)).contains(new Action.DeleteNodeClaim(n.name(),
          RemovalReason.EXPIRED));
    }));
    c.add(UpstreamCase.of("expiry", EXPIRATION, "should return the requeue interval for the time between now and when "
        + "the nodeClaim expires", () -> {
      NodeClaim x = node(POOL, "m5.large", 1).claim().orElseThrow().withExpiry(Optional.of(Duration.ofSeconds(200)),
          Optional.empty());
      Instant now = x.created().plusSeconds(100);
      assertThat(Duration.between(now, x.expiresAt().orElseThrow())).isEqualTo(Duration.ofSeconds(100));
    }));
    c.add(UpstreamCase.of("expiry", EXPIRATION, "shouldn't expire the same NodeClaim multiple times", () -> {
      // Once deleting (a finalizer holds it), the claim is not expired again.
      StateNode n = claim(node(POOL, "m5.large", 1), x -> x.withExpiry(Optional.of(Duration.ofSeconds(30)),
          Optional.empty()).withDeletionRequested(T0.plusSeconds(60)));
      assertThat(deletions(lifecycleAt(T0.plusSeconds(90), n))).isEmpty();
    }));
  }

  // ---- termination under a terminationGracePeriod ----

  private static void termination(List<UpstreamCase> c) {
    c.add(UpstreamCase.of("termination", TERMINATION, "should preemptively delete pods to satisfy their "
        + "terminationGracePeriodSeconds", () -> {
      // TGP 300s; a do-not-disrupt pod whose own grace is 300s is deleted at once, forcibly, granted
      // the node's remaining 300s (forceDelete, terminator/eviction.go).
      Pod p = grace(doNotDisrupt(owned(pod("p", "cpu", "100m")), "true"), 300);
      StateNode n = deleting(node(POOL, "m5.large", 1, p), Duration.ofSeconds(300), T0);
      assertThat(terminateAt(T0, n)).contains(Action.Evict.forced(p.key(), n.name(), RemovalReason.DELETED,
          Duration.ofSeconds(300)));
    }));
    c.add(UpstreamCase.of("termination", TERMINATION, "should only delete pods when their terminationGracePeriodSeconds "
        + "is less than the the node's remaining terminationGracePeriod", () -> {
      Pod p = grace(doNotDisrupt(owned(pod("p", "cpu", "100m")), "true"), 60);
      StateNode n = deleting(node(POOL, "m5.large", 1, p), Duration.ofSeconds(300), T0);
      // 90s in: 210s remain, more than its 60s: left alone (do-not-disrupt).
      assertThat(evictions(terminateAt(T0.plusSeconds(90), n))).isEmpty();
      // 265s in: 35s remain, less than its 60s: deleted so it still gets its grace.
      assertThat(terminateAt(T0.plusSeconds(265), n)).contains(Action.Evict.forced(p.key(), n.name(),
          RemovalReason.DELETED, Duration.ofSeconds(35)));
    }));
    c.add(UpstreamCase.of("termination", TERMINATION, "should not gate past-deadline pods behind graceful eviction of "
        + "earlier tiers", () -> {
      Pod ordinary = grace(owned(pod("ordinary", "cpu", "100m")), 30);
      Pod critical = grace(priorityClass(owned(pod("critical", "cpu", "100m")), "system-node-critical"), 600);
      StateNode n = deleting(node(POOL, "m5.large", 1, ordinary, critical), Duration.ofSeconds(300), T0);
      List<Action> out = terminateAt(T0, n);
      // The critical pod's 600s outlast the node's 300s: deleted at once with the 300s left.
      assertThat(out).contains(Action.Evict.forced(critical.key(), n.name(), RemovalReason.DELETED,
          Duration.ofSeconds(300)));
      assertThat(out).contains(Action.Evict.viaApi(ordinary.key(), n.name(), RemovalReason.DELETED));
    }));
    c.add(UpstreamCase.of("termination", TERMINATION, "should fail to evict pods that violate a PDB", () -> {
      Pod p = labelled(owned(pod("p", "cpu", "100m")), "app", "guarded");
      StateNode n = deleting(node(POOL, "m5.large", 1, p), null, T0);
      PodDisruptionBudget pdb = new PodDisruptionBudget(ObjectMeta.named("pdb"), LabelSelector.matching(
          Labels.of("app", "guarded")), Optional.of(new IntOrPercent.Count(1)), Optional.empty());
      List<Action> out = Termination.reconcile(view(T0.plusSeconds(30), List.of(n), new PdbIndex(List.of(
          new DisruptionBudget(pdb, 0)))), x -> RemovalReason.DELETED);
      assertThat(evictions(out)).isEmpty();
      assertThat(out).noneMatch(a -> a instanceof Action.TerminateInstance);
    }));
    c.add(UpstreamCase.of("termination", TERMINATION, "should not evict pods that tolerate karpenter disruption taint "
        + "with exists operator", () -> {
      Pod p = tolerating(owned(pod("p", "cpu", "100m")), Toleration.exists(KarpenterLabels.DISRUPTED.key(),
          TaintEffect.NO_SCHEDULE));
      StateNode n = deleting(node(POOL, "m5.large", 1, p), null, T0);
      List<Action> out = terminateAt(T0, n);
      assertThat(evictions(out)).isEmpty();
      assertThat(out).contains(new Action.TerminateInstance(n.name()));
    }));
    c.add(UpstreamCase.of("termination", TERMINATION, "should not evict pods that tolerate karpenter disruption taint "
        + "with equal operator", () -> {
      Pod p = tolerating(owned(pod("p", "cpu", "100m")), Toleration.equal(KarpenterLabels.DISRUPTED.key(),
          KarpenterLabels.DISRUPTED.value(), TaintEffect.NO_SCHEDULE));
      StateNode n = deleting(node(POOL, "m5.large", 1, p), null, T0);
      assertThat(evictions(terminateAt(T0, n))).isEmpty();
    }));
    c.add(UpstreamCase.of("termination", TERMINATION, "should evict pods that tolerate the "
        + "node.kubernetes.io/unschedulable taint", () -> {
      Pod p = tolerating(owned(pod("p", "cpu", "100m")), Toleration.exists("node.kubernetes.io/unschedulable",
          TaintEffect.NO_SCHEDULE));
      StateNode n = deleting(node(POOL, "m5.large", 1, p), null, T0);
      assertThat(terminateAt(T0, n)).contains(Action.Evict.viaApi(p.key(), n.name(), RemovalReason.DELETED));
    }));
    c.add(UpstreamCase.of("termination", TERMINATION, "should evict non-critical pods first", () -> {
      Pod ordinary = owned(pod("ordinary", "cpu", "100m"));
      Pod critical = priorityClass(owned(pod("critical", "cpu", "100m")), "system-cluster-critical");
      StateNode n = deleting(node(POOL, "m5.large", 1, ordinary, critical), null, T0);
      assertThat(evictions(terminateAt(T0, n))).containsExactly(ordinary.key());
      // Once the ordinary pod is gone, the critical one is evicted.
      StateNode later = deleting(node(POOL, "m5.large", 1, critical), null, T0);
      assertThat(evictions(terminateAt(T0.plusSeconds(5), later))).containsExactly(critical.key());
    }));
    c.add(UpstreamCase.of("termination", TERMINATION, "should not delete nodes until all pods are deleted", () -> {
      Pod p = owned(pod("p", "cpu", "100m"));
      StateNode n = deleting(node(POOL, "m5.large", 1, p), null, T0);
      StateNode terminating = new StateNode(n.name(), n.claim(), n.node(), n.pods(), Set.of(p.key()),
          n.lastPodEvent(), n.markedForDeletion());
      assertThat(terminateAt(T0.plusSeconds(5), terminating)).noneMatch(a -> a instanceof Action.TerminateInstance);
      StateNode drained = deleting(node(POOL, "m5.large", 1), null, T0);
      assertThat(terminateAt(T0.plusSeconds(10), drained)).contains(new Action.TerminateInstance(n.name()));
    }));
  }

  // ---- interruption ----

  private static void interruption(List<UpstreamCase> c) {
    c.add(UpstreamCase.of("interruption", INTERRUPTION, "should delete the NodeClaim when receiving a spot "
        + "interruption warning", () -> {
      StateNode n = spotNode(POOL, "m5.large", 1);
      List<Action> out = interrupt(InterruptionMessage.Kind.SPOT_INTERRUPTED, n);
      assertThat(out).contains(new Action.DeleteNodeClaim(n.name(), RemovalReason.INTERRUPTED));
      assertThat(out).noneMatch(a -> a instanceof Action.TerminateInstance); // drained, not forced
    }));
    c.add(UpstreamCase.of("interruption", INTERRUPTION, "should delete the NodeClaim when receiving a scheduled change "
        + "message", () -> {
      StateNode n = node(POOL, "m5.large", 1);
      assertThat(interrupt(InterruptionMessage.Kind.SCHEDULED_CHANGE, n)).contains(new Action.DeleteNodeClaim(n.name(),
          RemovalReason.INTERRUPTED));
    }));
    c.add(UpstreamCase.of("interruption", INTERRUPTION, "should delete the NodeClaim when receiving a state change "
        + "message", () -> {
      // Upstream sends terminated, stopped, stopping and shutting-down, one per claim: two
      // instance_stopped and two instance_terminated messages (statechange/model.go), each deleting its claim.
      List<InterruptionMessage.Kind> kinds = List.of(InterruptionMessage.Kind.INSTANCE_TERMINATED,
          InterruptionMessage.Kind.INSTANCE_STOPPED, InterruptionMessage.Kind.INSTANCE_STOPPED,
          InterruptionMessage.Kind.INSTANCE_TERMINATED);
      for (int i = 1; i <= 4; i++) {
        StateNode n = node(POOL, "m5.large", i);
        assertThat(interrupt(kinds.get(i - 1), n)).contains(new Action.DeleteNodeClaim(
            n.name(), RemovalReason.INTERRUPTED));
      }
    }));
    c.add(UpstreamCase.of("interruption", INTERRUPTION, "should mark the ICE cache for the offering when getting a spot "
        + "interruption warning", () -> {
      StateNode n = spotNode(POOL, "m5.large", 1);
      NodeClaim claim = n.claim().orElseThrow();
      assertThat(interrupt(InterruptionMessage.Kind.SPOT_INTERRUPTED, n)).contains(new Action.MarkOfferingUnavailable(
          "m5.large", CapacityType.SPOT, claim.offering().zone(), T0.plus(Duration.ofHours(1))
              .plus(OfferingAvailability.TTL)));
    }));
    c.add(UpstreamCase.of("interruption", INTERRUPTION, "should forcefully terminate the NodeClaim when an instance has "
        + "InstanceStatus check failure", () -> {
      StateNode n = node(POOL, "m5.large", 1);
      List<Action> out = interrupt(InterruptionMessage.Kind.INSTANCE_STATUS, n);
      assertThat(out).contains(new Action.DeleteNodeClaim(n.name(), RemovalReason.INTERRUPTED),
          new Action.TerminateInstance(n.name()));
    }));
    c.add(UpstreamCase.of("interruption", INTERRUPTION, "should NOT annotate the NodeClaim with a termination timestamp "
        + "for scheduled maintenance events", () -> {
      // Upstream: the scheduled event (instance retirement) deletes the NodeClaim (its deletion
      // timestamp is set; a finalizer keeps it) and sets no termination timestamp, so the drain is the
      // graceful one. Here: the claim is deleted, nothing is forced, and the drain that follows evicts
      // through the Eviction API with no deadline: a day later it still only evicts, never force-deletes
      // or terminates while the pod is there (a termination timestamp would force both).
      Pod p = owned(pod("p", "cpu", "100m"));
      StateNode n = node(POOL, "m5.large", 1, p);
      Instant now = T0.plus(Duration.ofHours(1));
      List<Action> out = interrupt(InterruptionMessage.Kind.SCHEDULED_CHANGE, n);
      assertThat(deletions(out)).containsExactly(new Action.DeleteNodeClaim(n.name(), RemovalReason.INTERRUPTED));
      assertThat(out).noneMatch(a -> a instanceof Action.TerminateInstance);
      StateNode deleting = claim(n, x -> x.withDeletionRequested(now));
      for (Instant t : List.of(now, now.plus(Duration.ofDays(1)))) {
        List<Action> drain = terminateAt(t, deleting);
        assertThat(drain).contains(Action.Evict.viaApi(p.key(), n.name(), RemovalReason.DELETED));
        assertThat(drain).noneMatch(a -> a instanceof Action.Evict e && e.forced());
        assertThat(drain).noneMatch(a -> a instanceof Action.TerminateInstance);
      }
      // The forceful kind, for contrast, does not wait for the drain.
      assertThat(interrupt(InterruptionMessage.Kind.INSTANCE_STATUS, n)).contains(new Action.TerminateInstance(
          n.name()));
    }));
  }

  // ---- helpers ----

  static StateNode claim(StateNode n, UnaryOperator<NodeClaim> change) {
    return new StateNode(n.name(), Optional.of(change.apply(n.claim().orElseThrow())), n.node(), n.pods(),
        n.terminating(), n.lastPodEvent(), n.markedForDeletion(), n.podStarts());
  }

  /** The node's claim deleting since {@code since}, with this terminationGracePeriod (null: none). */
  static StateNode deleting(StateNode n, Duration tgp, Instant since) {
    return claim(n, x -> x.withExpiry(x.expireAfter(), Optional.ofNullable(tgp)).withDeletionRequested(since));
  }

  static Pod grace(Pod p, long seconds) {
    return p.withSpec(p.spec().withTerminationGracePeriodSeconds(seconds));
  }

  static Pod priorityClass(Pod p, String name) {
    PodSpec s = p.spec();
    return p.withSpec(new PodSpec(s.containers(), s.initContainers(), s.overhead(), s.nodeSelector(), s.nodeAffinity(),
        s.tolerations(), s.nodeName(), s.priority(), Optional.of(name), s.preemptionPolicy(),
        s.terminationGracePeriodSeconds(), s.schedulerName()));
  }

  static ClusterView view(Instant now, List<StateNode> nodes, PdbIndex pdbs) {
    return new ClusterView(now, List.of(POOL), CATALOG, OfferingAvailability.ALL, nodes, List.of(), List.of(), pdbs);
  }

  static List<Action> lifecycleAt(Instant now, StateNode n) {
    return new NodeClaimLifecycle(AutoscalerSettings.DEFAULTS).reconcile(view(now, List.of(n), PdbIndex.NONE));
  }

  static List<Action> terminateAt(Instant now, StateNode n) {
    return Termination.reconcile(view(now, List.of(n), PdbIndex.NONE), x -> RemovalReason.DELETED);
  }

  static List<Action> interrupt(InterruptionMessage.Kind kind, StateNode n) {
    return InterruptionHandler.handle(new InterruptionMessage(kind, n.name()), view(T0.plus(Duration.ofHours(1)),
        List.of(n), PdbIndex.NONE));
  }

  static List<Action> deletions(List<Action> actions) {
    return actions.stream().filter(a -> a instanceof Action.DeleteNodeClaim).toList();
  }

  static List<String> evictions(List<Action> actions) {
    return actions.stream().filter(a -> a instanceof Action.Evict).map(a -> ((Action.Evict) a).pod()).toList();
  }
}
