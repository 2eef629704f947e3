package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.gpu.Advertised;
import io.gpufleet.autoscaler.provisioning.Launcher;
import io.gpufleet.autoscaler.provisioning.Provisioner;
import io.gpufleet.autoscaler.provisioning.ProvisioningModel;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.autoscaler.testing.Fixtures;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.cloud.Offering;
import io.gpufleet.model.karpenter.Budget;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodeClaimTemplate;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.workload.IntOrPercent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Small hand-built clusters for the disruption methods: an on-demand {@code m5} NodePool (prices
 * from the built-in catalogue), initialised nodes with the pods given, and a view at a time.
 */
final class DisruptionViews {

  static final Instant T0 = Instant.parse("2026-01-05T00:00:00Z");
  static final InstanceCatalog CATALOG = InstanceCatalog.builtIn();

  private DisruptionViews() {}

  /** On-demand m5 nodes, consolidateAfter 10m, at most ten nodes disrupted at once. */
  static NodePool pool(ConsolidationPolicy policy) {
    NodePool p = NodePool.of("general", NodeClaimTemplate.of(
        NodePoolRequirement.in("karpenter.k8s.aws/instance-family", "m5"),
        NodePoolRequirement.in("karpenter.sh/capacity-type", "on-demand")));
    return p.withDisruption(p.disruption().withPolicy(policy).withConsolidateAfter(Optional.of(Duration.ofMinutes(10)))
        .withBudgets(List.of(budget(10))));
  }

  static NodePool pool() {
    return pool(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED);
  }

  static Budget budget(int nodes) {
    return new Budget(new IntOrPercent.Count(nodes), Optional.empty(), Optional.empty(), Set.of());
  }

  static InstanceType type(String name) {
    return CATALOG.require(name);
  }

  /** An initialised node of {@code pool} ({@code seed} names it), whose pods last changed at {@code lastPodEvent}. */
  static StateNode node(NodePool pool, String type, int seed, Instant lastPodEvent, Pod... pods) {
    InstanceType t = type(type);
    Offering onDemand = t.offerings().stream().filter(o -> o.capacityType() == CapacityType.ON_DEMAND)
        .findFirst().orElseThrow();
    NodeClaim c = Launcher.nodeClaim(pool, t, onDemand, ResourceList.EMPTY, T0, new SplittableRandom(seed))
        .withLaunched(T0).withRegistered(T0, "n" + seed).withInitialized(T0);
    return new StateNode(c.name(), Optional.of(c), Optional.of(Node.of(c.name(), c.labels(), List.of(),
        t.allocatable())), List.of(pods), Set.of(), lastPodEvent, false);
  }

  /** As {@link #node(NodePool, String, int, Instant, Pod...)}, pods unchanged since the node started. */
  static StateNode node(NodePool pool, String type, int seed, Pod... pods) {
    return node(pool, type, seed, T0, pods);
  }

  static StateNode drifted(StateNode n) {
    NodeClaim c = n.claim().orElseThrow().withDrifted(Optional.of("NodePoolDrifted"));
    return new StateNode(n.name(), Optional.of(c), n.node(), n.pods(), n.terminating(), n.lastPodEvent(),
        n.markedForDeletion());
  }

  static Pod pod(String name) {
    return Fixtures.cpuPod(name, "1", "1Gi");
  }

  static Pod doNotDisrupt(Pod p) {
    return p.withMeta(p.meta().withAnnotations(Labels.of("karpenter.sh/do-not-disrupt", "true")));
  }

  static ClusterView view(Instant now, NodePool pool, List<StateNode> nodes) {
    return new ClusterView(now, List.of(pool), CATALOG, OfferingAvailability.ALL, nodes, List.of(), List.of(),
        PdbIndex.NONE);
  }

  /** An hour after start: every node is past consolidateAfter. */
  static ClusterView view(NodePool pool, List<StateNode> nodes) {
    return view(T0.plus(Duration.ofHours(1)), pool, nodes);
  }

  static ClusterView view(NodePool pool, StateNode... nodes) {
    return view(pool, List.of(nodes));
  }

  static DisruptionSimulation simulation(NodePool pool) {
    return new DisruptionSimulation(AutoscalerSettings.DEFAULTS, new Provisioner(model(pool)));
  }

  /** The pool prepared for provisioning from the built-in catalogue, GPUs advertised as nothing. */
  static ProvisioningModel model(NodePool pool) {
    return ProvisioningModel.of(List.of(pool), CATALOG, List.of(), (labels, gpus) -> Advertised.NOTHING,
        AutoscalerSettings.GpuSizing.PHYSICAL);
  }

  /** What the controller hands a method: the candidates its filter admits. */
  static List<Candidate> candidates(DisruptionMethod m, ClusterView view) {
    return Candidates.of(view, m.eventual(), m.filter());
  }

  static SplittableRandom random() {
    return new SplittableRandom(7);
  }
}
