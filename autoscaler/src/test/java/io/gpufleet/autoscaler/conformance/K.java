package io.gpufleet.autoscaler.conformance;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.disruption.DisruptionCommand;
import io.gpufleet.autoscaler.disruption.DisruptionController;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.model.cloud.Offering;
import io.gpufleet.model.karpenter.Budget;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.meta.OwnerReference;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.workload.DisruptionBudget;
import io.gpufleet.model.workload.IntOrPercent;
import io.gpufleet.model.workload.PodDisruptionBudget;
import java.time.Duration;
import io.gpufleet.autoscaler.AutoscalerSettings.GpuSizing;
import io.gpufleet.autoscaler.gpu.NvidiaDevicePlugin;
import io.gpufleet.autoscaler.provisioning.Launcher;
import io.gpufleet.autoscaler.provisioning.PlannedClaim;
import io.gpufleet.autoscaler.provisioning.Provisioner;
import io.gpufleet.autoscaler.provisioning.ProvisioningModel;
import io.gpufleet.autoscaler.provisioning.ProvisioningPlan;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.affinity.NodeAffinity;
import io.gpufleet.model.affinity.NodeSelectorTerm;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodeClaimTemplate;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.karpenter.RequirementOperator;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.model.workload.PodTemplate;
import io.gpufleet.model.workload.Workload;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The vocabulary of the translated cases, after upstream's {@code test.NodePool}, {@code
 * test.UnschedulablePod} and {@code ExpectProvisioned}: NodePools, pods, in-flight nodes and one
 * provisioning round, on the twin's built-in AWS catalogue.
 */
final class K {
  private K() {}

  static final InstanceCatalog CATALOG = InstanceCatalog.builtIn();
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  /** When most disruption cases look: an hour after their nodes came up at T0. */
  static final Instant AT = T0.plus(Duration.ofHours(1));
  static final String FAMILY = "karpenter.k8s.aws/instance-family";
  static final String TYPE = "node.kubernetes.io/instance-type";
  static final String ZONE = "topology.kubernetes.io/zone";
  static final String ARCH = "kubernetes.io/arch";
  static final String CAPACITY_TYPE = "karpenter.sh/capacity-type";
  static final String NODEPOOL = "karpenter.sh/nodepool";

  /** A NodePool over the catalogue's general-purpose families, as upstream's default test NodePool. */
  static NodePool pool(String name, NodePoolRequirement... extra) {
    List<NodePoolRequirement> r = new ArrayList<>();
    r.add(NodePoolRequirement.in(FAMILY, "m5", "c5"));
    r.addAll(List.of(extra));
    return NodePool.of(name, NodeClaimTemplate.of(r.toArray(NodePoolRequirement[]::new)));
  }

  /** A NodePool over exactly these requirements (no family restriction). */
  static NodePool bare(String name, NodePoolRequirement... reqs) {
    return NodePool.of(name, NodeClaimTemplate.of(reqs));
  }

  static NodePoolRequirement req(String key, RequirementOperator op, String... values) {
    return NodePoolRequirement.of(key, op, values);
  }

  static NodePoolRequirement min(String key, int minValues, String... values) {
    return new NodePoolRequirement(key, RequirementOperator.IN, List.of(values), OptionalInt.of(minValues));
  }

  static NodePool labelled(NodePool p, String... keysAndValues) {
    return p.withTemplate(p.template().withLabels(Labels.of(keysAndValues)));
  }

  /** A pod asking for these resources ({@code "cpu", "1", ...}); none means a BestEffort pod. */
  static Pod pod(String name, String... requests) {
    ResourceList r = ResourceList.of(requests);
    ResourceList limits = ResourceList.EMPTY;
    for (var e : r.quantities().entrySet()) {
      if (e.getKey().isExtended()) {
        limits = limits.with(e.getKey(), e.getValue());
      }
    }
    return new Pod(new ObjectMeta(name, "default", Labels.EMPTY, Labels.EMPTY, Optional.empty()),
        PodSpec.of(Container.of("main", "app", r, limits)));
  }

  static Pod selecting(Pod p, String... keysAndValues) {
    return p.withSpec(p.spec().withNodeSelector(Labels.of(keysAndValues)));
  }

  static Pod requiring(Pod p, Requirement... expressions) {
    return p.withSpec(p.spec().withNodeAffinity(NodeAffinity.requiring(NodeSelectorTerm.of(expressions))));
  }

  static Pod tolerating(Pod p, Toleration... tolerations) {
    return p.withSpec(p.spec().withTolerations(List.of(tolerations)));
  }

  static Pod withInit(Pod p, String... requests) {
    return p.withSpec(p.spec().withInitContainers(List.of(Container.of("init", "init", ResourceList.of(requests),
        ResourceList.EMPTY))));
  }

  static Workload.DaemonSet daemonSet(String name, PodSpec spec) {
    return new Workload.DaemonSet(ObjectMeta.named(name), LabelSelector.EVERYTHING,
        new PodTemplate(Labels.EMPTY, Labels.EMPTY, spec));
  }

  static Workload.DaemonSet daemonSet(String name, String... requests) {
    return daemonSet(name, PodSpec.of(Container.of("d", "daemon", ResourceList.of(requests), ResourceList.EMPTY)));
  }

  static ProvisioningPlan provision(List<NodePool> pools, List<Pod> pods) {
    return provision(pools, pods, List.of(), List.of());
  }

  static ProvisioningPlan provision(List<NodePool> pools, List<Pod> pods, List<StateNode> nodes,
      List<Workload.DaemonSet> daemonSets) {
    return provision(pools, pods, nodes, daemonSets, OfferingAvailability.ALL);
  }

  static ProvisioningPlan provision(List<NodePool> pools, List<Pod> pods, List<StateNode> nodes,
      List<Workload.DaemonSet> daemonSets, OfferingAvailability offerings) {
    Provisioner p = new Provisioner(ProvisioningModel.of(pools, CATALOG, daemonSets, NvidiaDevicePlugin.DEFAULTS,
        GpuSizing.PHYSICAL));
    return p.solve(pods, nodes, daemonSets, offerings, T0);
  }

  /** The instance the cloud provider launches for a planned claim (cheapest offering first). */
  static NodeClaim launch(PlannedClaim c) {
    return Launcher.launch(c, OfferingAvailability.ALL, T0, new SplittableRandom(7)).orElseThrow();
  }

  /** A claim of the pool's on this type, launched but not yet initialised: an in-flight node. */
  static StateNode inFlight(NodePool pool, String type) {
    return inFlight(pool, type, false);
  }

  static StateNode inFlight(NodePool pool, String type, boolean deleting) {
    InstanceType t = CATALOG.require(type);
    NodeClaim c = Launcher.nodeClaim(pool, t, t.cheapest(o -> o.capacityType() == CapacityType.ON_DEMAND)
        .orElseThrow(), ResourceList.EMPTY, T0, new SplittableRandom(type.hashCode()));
    return new StateNode(c.name(), Optional.of(c), Optional.empty(), List.of(), Set.of(), T0, deleting);
  }

  /** Whether every pod found a place, on a new claim or an existing node. */
  static boolean scheduled(ProvisioningPlan plan, Pod pod) {
    return plan.onExisting().containsKey(pod.key())
        || plan.newClaims().stream().anyMatch(c -> c.pods().contains(pod));
  }

  static PlannedClaim claimOf(ProvisioningPlan plan, Pod pod) {
    return plan.newClaims().stream().filter(c -> c.pods().contains(pod)).findFirst()
        .orElseThrow(() -> new AssertionError(pod.name() + " was not planned onto a new NodeClaim: " + plan.errors()));
  }

  /** The type the claim would launch as: its cheapest option. */
  static String launchedType(ProvisioningPlan plan, Pod pod) {
    return launch(claimOf(plan, pod)).instanceType().name();
  }

  // ---- disruption ----

  /** An m5 NodePool of this capacity type, with this policy, consolidateAfter and a percentage budget. */
  static NodePool consolidating(String name, ConsolidationPolicy policy, Duration after, int budgetPercent,
      String capacityType) {
    return budgeted(name, policy, after, new IntOrPercent.Percent(budgetPercent), capacityType);
  }

  /** As {@link #consolidating}, with a budget of at most {@code nodes} nodes at once. */
  static NodePool budgetedNodes(ConsolidationPolicy policy, int nodes) {
    return budgeted("general", policy, Duration.ZERO, new IntOrPercent.Count(nodes), "on-demand");
  }

  private static NodePool budgeted(String name, ConsolidationPolicy policy, Duration after, IntOrPercent budget,
      String... capacityTypes) {
    NodePool p = NodePool.of(name, NodeClaimTemplate.of(NodePoolRequirement.in(FAMILY, "m5"),
        NodePoolRequirement.in(CAPACITY_TYPE, capacityTypes)));
    return p.withDisruption(p.disruption().withPolicy(policy).withConsolidateAfter(Optional.of(after))
        .withBudgets(List.of(Budget.nodes(budget))));
  }

  static NodePool consolidating(ConsolidationPolicy policy, Duration after, int budgetPercent,
      String... capacityTypes) {
    return budgeted("general", policy, after, new IntOrPercent.Percent(budgetPercent), capacityTypes);
  }

  static NodePool consolidating(ConsolidationPolicy policy, Duration after, int budgetPercent) {
    return consolidating(policy, after, budgetPercent, "on-demand");
  }

  /** An initialised node of the pool's (hostname n<seed>) with these pods, all bound and started at T0; named as its claim. */
  static StateNode node(NodePool pool, String type, int seed, Pod... pods) {
    return node(pool, type, CapacityType.ON_DEMAND, seed, pods);
  }

  static StateNode spotNode(NodePool pool, String type, int seed, Pod... pods) {
    return node(pool, type, CapacityType.SPOT, seed, pods);
  }

  /**
   * A GPU node of the pool's, launched for a pod asking {@code nvidia.com/gpu: 1}, that joined at T0 but
   * whose device plugin has not registered the GPUs: not initialised, its allocatable without them.
   */
  static StateNode awaitingDevicePlugin(NodePool pool, String type, int seed) {
    InstanceType t = CATALOG.require(type);
    Offering o = t.cheapest(x -> x.capacityType() == CapacityType.ON_DEMAND).orElseThrow();
    NodeClaim c = Launcher.nodeClaim(pool, t, o, ResourceList.of("nvidia.com/gpu", "1"), T0,
        new SplittableRandom(seed));
    c = c.withLaunched(T0).withRegistered(T0, c.name());
    return new StateNode(c.name(), Optional.of(c), Optional.of(Node.of(c.name(), c.labels(), List.of(),
        t.allocatable().withoutNvidiaGpus())), List.of(), Set.of(), T0, false);
  }

  private static StateNode node(NodePool pool, String type, CapacityType ct, int seed, Pod... pods) {
    InstanceType t = CATALOG.require(type);
    Offering o = t.offerings().stream().filter(x -> x.capacityType() == ct).findFirst().orElseThrow();
    NodeClaim c = Launcher.nodeClaim(pool, t, o, ResourceList.EMPTY, T0, new SplittableRandom(seed));
    String name = c.name();
    c = c.withLaunched(T0).withRegistered(T0, name).withInitialized(T0);
    Labels labels = c.labels().with("kubernetes.io/hostname", "n" + seed);
    java.util.Map<String, Instant> started = new java.util.HashMap<>();
    for (Pod p : pods) {
      started.put(p.key(), T0);
    }
    return new StateNode(name, Optional.of(c.withLabels(labels)), Optional.of(Node.of(name, labels, List.of(),
        t.allocatable())), List.of(pods), Set.of(), T0, false, started);
  }

  /** A launched claim of the pool's that has not registered yet: capacity on its way. */
  static StateNode booting(NodePool pool, String type, int seed) {
    InstanceType t = CATALOG.require(type);
    Offering o = t.cheapest(x -> x.capacityType() == CapacityType.ON_DEMAND).orElseThrow();
    NodeClaim c = Launcher.nodeClaim(pool, t, o, ResourceList.EMPTY, T0, new SplittableRandom(seed)).withLaunched(T0);
    return new StateNode(c.name(), Optional.of(c), Optional.empty(), List.of(), Set.of(), T0, false);
  }

  static StateNode annotated(StateNode n, String doNotDisrupt) {
    Node node = n.node().orElseThrow();
    Node withAnnotation = new Node(node.meta().withAnnotations(node.meta().annotations().with(DO_NOT_DISRUPT,
        doNotDisrupt)), node.taints(), node.unschedulable(), node.capacity(), node.allocatable(), node.providerId(),
        node.images());
    return new StateNode(n.name(), n.claim(), Optional.of(withAnnotation), n.pods(), n.terminating(),
        n.lastPodEvent(), n.markedForDeletion(), n.podStarts());
  }

  static StateNode drifted(StateNode n) {
    return new StateNode(n.name(), Optional.of(n.claim().orElseThrow().withDrifted(Optional.of("NodePoolDrifted"))),
        n.node(), n.pods(), n.terminating(), n.lastPodEvent(), n.markedForDeletion(), n.podStarts());
  }

  static final String DO_NOT_DISRUPT = "karpenter.sh/do-not-disrupt";

  /** A pod owned by a ReplicaSet, as upstream's disruption tests make them (reschedulable). */
  static Pod owned(Pod p) {
    return p.withMeta(p.meta().withOwner(new OwnerReference("ReplicaSet", "rs")));
  }

  static Pod doNotDisrupt(Pod p, String value) {
    return p.withMeta(p.meta().withAnnotations(p.meta().annotations().with(DO_NOT_DISRUPT, value)));
  }

  static Pod labelled(Pod p, String key, String value) {
    return p.withMeta(p.meta().withLabels(p.meta().labels().with(key, value)));
  }

  static Pod daemonPod(String name, boolean doNotDisrupt) {
    Pod p = pod(name, "cpu", "100m");
    p = p.withMeta(p.meta().withOwner(new OwnerReference("DaemonSet", "logs")));
    return doNotDisrupt ? doNotDisrupt(p, "true") : p;
  }

  static Optional<DisruptionCommand> pollAt(Instant now, NodePool pool, List<StateNode> nodes, List<Pod> pending) {
    return poll(new ClusterView(now, List.of(pool), CATALOG, OfferingAvailability.ALL, nodes, pending, List.of(),
        PdbIndex.NONE), pool);
  }

  /** A poll with a PDB over {@code app=<app>} that allows no disruption now. */
  static Optional<DisruptionCommand> pollWithPdb(NodePool pool, List<StateNode> nodes, String app) {
    PodDisruptionBudget pdb = new PodDisruptionBudget(ObjectMeta.named("pdb"), LabelSelector.matching(
        Labels.of("app", app)), Optional.of(new IntOrPercent.Count(1)), Optional.empty());
    return poll(new ClusterView(T0.plus(Duration.ofHours(1)), List.of(pool), CATALOG, OfferingAvailability.ALL, nodes,
        List.of(), List.of(), new PdbIndex(List.of(new DisruptionBudget(pdb, 0)))), pool);
  }

  /** A poll with a PDB over {@code key=value} with this {@code maxUnavailable}, allowing no disruption now. */
  static Optional<DisruptionCommand> pollWithPdb(NodePool pool, List<StateNode> nodes, String key, String value,
      IntOrPercent maxUnavailable) {
    PodDisruptionBudget pdb = new PodDisruptionBudget(ObjectMeta.named("pdb"), LabelSelector.matching(
        Labels.of(key, value)), Optional.empty(), Optional.of(maxUnavailable));
    return poll(new ClusterView(T0.plus(Duration.ofHours(1)), List.of(pool), CATALOG, OfferingAvailability.ALL, nodes,
        List.of(), List.of(), new PdbIndex(List.of(new DisruptionBudget(pdb, 0)))), pool);
  }

  /** A poll an hour after T0 under these operator settings (feature gates). */
  static Optional<DisruptionCommand> pollWith(AutoscalerSettings settings, NodePool pool, List<StateNode> nodes) {
    return poll(new ClusterView(T0.plus(Duration.ofHours(1)), List.of(pool), CATALOG, OfferingAvailability.ALL, nodes,
        List.of(), List.of(), PdbIndex.NONE), pool, settings);
  }

  /** A poll an hour after T0 on another catalogue (upstream's fake instance types with their own offerings). */
  static Optional<DisruptionCommand> pollOn(InstanceCatalog catalog, NodePool pool, List<StateNode> nodes) {
    ClusterView view = new ClusterView(T0.plus(Duration.ofHours(1)), List.of(pool), catalog, OfferingAvailability.ALL,
        nodes, List.of(), List.of(), PdbIndex.NONE);
    Provisioner p = new Provisioner(ProvisioningModel.of(List.of(pool), catalog, List.of(), NvidiaDevicePlugin.DEFAULTS,
        GpuSizing.PHYSICAL));
    return new DisruptionController(AutoscalerSettings.DEFAULTS, p).poll(view, new SplittableRandom(7));
  }

  /** One poll of the disruption controller over this view, whose only NodePool is {@code pool}. */
  static Optional<DisruptionCommand> poll(ClusterView view, NodePool pool) {
    return poll(view, pool, AutoscalerSettings.DEFAULTS);
  }

  /** The view of these nodes of the pool's at {@code now}, nothing pending, with these PDBs. */
  static ClusterView view(Instant now, NodePool pool, List<StateNode> nodes, PdbIndex pdbs) {
    return new ClusterView(now, List.of(pool), CATALOG, OfferingAvailability.ALL, nodes, List.of(), List.of(), pdbs);
  }

  /** The NodeClaim lifecycle's actions at {@code now} for these nodes of the pool's. */
  static List<io.gpufleet.autoscaler.action.Action> lifecycle(Instant now, NodePool pool, List<StateNode> nodes) {
    return new io.gpufleet.autoscaler.lifecycle.NodeClaimLifecycle(AutoscalerSettings.DEFAULTS).reconcile(view(now,
        pool, nodes, PdbIndex.NONE));
  }

  /** The node with its claim marked for deletion: the candidate of a command in flight. */
  static StateNode marked(StateNode n) {
    return new StateNode(n.name(), n.claim(), n.node(), n.pods(), n.terminating(), n.lastPodEvent(), true,
        n.podStarts());
  }

  /**
   * {@code times} polls at {@code now}, as upstream's repeated {@code ExpectSingletonReconciled}: each
   * command's candidates are marked for deletion before the next poll, as the orchestration queue
   * does when it takes a command, so budgets count them and their pods must be placed anew, and the
   * command's replacements join as NodeClaims not yet initialised.
   */
  static List<DisruptionCommand> pollTimes(int times, Instant now, NodePool pool, List<StateNode> nodes,
      PdbIndex pdbs) {
    List<StateNode> state = new ArrayList<>(nodes);
    List<DisruptionCommand> out = new ArrayList<>();
    for (int i = 0; i < times; i++) {
      Optional<DisruptionCommand> cmd = poll(view(now, pool, state, pdbs), pool);
      if (cmd.isPresent()) {
        out.add(cmd.get());
        state.replaceAll(n -> cmd.get().candidates().contains(n.name()) ? marked(n) : n);
        for (NodeClaim r : cmd.get().replacements()) { // launched first: capacity on its way
          state.add(new StateNode(r.name(), Optional.of(r), Optional.empty(), List.of(), Set.of(), now, false));
        }
      }
    }
    return out;
  }

  private static Optional<DisruptionCommand> poll(ClusterView view, NodePool pool, AutoscalerSettings settings) {
    return controller(pool, settings).poll(view, new SplittableRandom(7));
  }

  /** The disruption controller over this one NodePool, on the catalogue. */
  static DisruptionController controller(NodePool pool, AutoscalerSettings settings) {
    Provisioner p = new Provisioner(ProvisioningModel.of(List.of(pool), CATALOG, List.of(), NvidiaDevicePlugin.DEFAULTS,
        GpuSizing.PHYSICAL));
    return new DisruptionController(settings, p);
  }
}
