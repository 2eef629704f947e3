package io.gpufleet.autoscaler.conformance;

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
}
