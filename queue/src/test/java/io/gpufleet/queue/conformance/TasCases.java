package io.gpufleet.queue.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.affinity.NodeAffinity;
import io.gpufleet.model.affinity.NodeSelectorTerm;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.queue.admission.Decision;
import io.gpufleet.queue.admission.Scheduler;
import io.gpufleet.queue.api.Admission;
import io.gpufleet.queue.api.ClusterQueue;
import io.gpufleet.queue.api.FlavorQuotas;
import io.gpufleet.queue.api.KueueState;
import io.gpufleet.queue.api.LocalQueue;
import io.gpufleet.queue.api.PodSet;
import io.gpufleet.queue.api.PreemptionPolicy;
import io.gpufleet.queue.api.ResourceFlavor;
import io.gpufleet.queue.api.ResourceGroup;
import io.gpufleet.queue.api.ResourceQuota;
import io.gpufleet.queue.api.Topology;
import io.gpufleet.queue.api.TopologyAssignment;
import io.gpufleet.queue.api.TopologyRequest;
import io.gpufleet.queue.api.Workload;
import io.gpufleet.queue.tas.TasFlavorSnapshot;
import io.gpufleet.queue.tas.TopologyNode;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Topology-aware scheduling. {@code pkg/cache/scheduler/tas_cache_test.go} TestFindTopologyAssignments
 * (where upstream now tests {@code TASFlavorSnapshot.FindTopologyAssignmentsForFlavor}; the snapshot's
 * own test file keeps only helpers): the topology assignment of one pod set, or the failure reason,
 * for the test's node trees, with the default feature gates (TASProfileMixed on: unconstrained pod
 * sets use LeastFreeCapacity). {@code pkg/scheduler/scheduler_tas_test.go} TestScheduleForTAS: one
 * cycle's admissions with their topology assignments, and the QuotaReserved reason and message of
 * the workloads left pending, and TestScheduleForTASCohorts's two workloads of one cycle. Not translated: slices, pod-set groups (leader and workers), balanced
 * placement, node replacement, elastic workloads, ProvisioningRequests and TAS preemption.
 */
final class TasCases {

  private static final String FIND = "pkg/cache/scheduler/tas_cache_test.go";
  private static final String SCHED = "pkg/scheduler/scheduler_tas_test.go";
  private static final String AREA = "topology-aware scheduling";
  private static final String BLOCK = "cloud.com/topology-block";
  private static final String RACK = "cloud.com/topology-rack";
  private static final String HOST = Topology.HOSTNAME;
  private static final List<String> ONE = List.of(HOST);
  private static final List<String> TWO = List.of(BLOCK, RACK);
  private static final List<String> THREE = List.of(BLOCK, RACK, HOST);
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private TasCases() {}

  /** A Ready node: labels as key/value pairs, then allocatable as name/quantity pairs after "|". */
  private static TopologyNode node(String name, String... labelsBarResources) {
    int bar = List.of(labelsBarResources).indexOf("|");
    String[] labels = java.util.Arrays.copyOfRange(labelsBarResources, 0, bar);
    String[] res = java.util.Arrays.copyOfRange(labelsBarResources, bar + 1, labelsBarResources.length);
    return TopologyNode.ready(Node.of(name, Labels.of(labels), List.of(), ResourceList.of(res)));
  }

  /** {@code Label(block).Label(rack).Label(hostname)} with cpu, memory and pods. */
  private static TopologyNode brx(String b, String r, String x, String cpu, String mem, String pods) {
    List<String> res = new ArrayList<>(List.of("cpu", cpu, "pods", pods));
    if (mem != null) {
      res.addAll(List.of("memory", mem));
    }
    List<String> all = new ArrayList<>(List.of(BLOCK, b, RACK, r, HOST, x, "|"));
    all.addAll(res);
    return node(b + "-" + r + "-" + x, all.toArray(String[]::new));
  }

  /** The test's defaultNodes. */
  private static final List<TopologyNode> DEFAULT_NODES = List.of(brx("b1", "r1", "x3", "1", "1Gi", "10"),
      brx("b1", "r2", "x5", "1", "1Gi", "10"), brx("b1", "r2", "x1", "1", "1Gi", "10"),
      brx("b1", "r2", "x6", "1", "1Gi", "10"), brx("b2", "r1", "x2", "1", "1Gi", "10"),
      brx("b2", "r2", "x4", "2", "4Gi", "40"));

  /** The test's scatteredNodes. */
  private static final List<TopologyNode> SCATTERED = List.of(brx("b1", "r1", "x3", "4", "1Gi", "10"),
      brx("b1", "r1", "x5", "1", "1Gi", "10"), brx("b1", "r1", "x1", "1", "1Gi", "10"),
      brx("b2", "r1", "x6", "2", "1Gi", "10"), brx("b2", "r1", "x2", "1", "1Gi", "10"));

  /** The test's binaryTreesNodes. */
  private static final List<TopologyNode> BINARY = List.of(brx("b1", "r1", "x3", "1", "1Gi", "10"),
      brx("b1", "r1", "x5", "1", "1Gi", "10"), brx("b1", "r2", "x1", "1", "1Gi", "10"),
      brx("b1", "r2", "x6", "1", "1Gi", "10"), brx("b2", "r1", "x2", "1", "1Gi", "10"),
      brx("b2", "r1", "x4", "1", "1Gi", "10"), brx("b2", "r2", "x7", "1", "1Gi", "10"),
      brx("b2", "r2", "x8", "1", "1Gi", "10"));

  private static TopologyAssignment.Domain d(int count, String... values) {
    return new TopologyAssignment.Domain(List.of(values), count);
  }

  private static TopologyAssignment ta(List<String> levels, TopologyAssignment.Domain... domains) {
    return new TopologyAssignment(levels, List.of(domains));
  }

  private static SortedMap<ResourceName, Long> req(Object... nameValue) {
    SortedMap<ResourceName, Long> m = new TreeMap<>();
    for (int i = 0; i < nameValue.length; i += 2) {
      m.put(ResourceName.of((String) nameValue[i]), ((Number) nameValue[i + 1]).longValue());
    }
    return m;
  }

  /** One TestFindTopologyAssignments entry: topology "default", the flavor's node labels, one pod set. */
  private record Find(List<TopologyNode> nodes, List<String> levels, Labels flavorLabels,
      Optional<TopologyRequest> request, SortedMap<ResourceName, Long> requests, int count, PodSpec template,
      Object want) {

    Find(List<TopologyNode> nodes, List<String> levels, Optional<TopologyRequest> request,
        SortedMap<ResourceName, Long> requests, int count, Object want) {
      this(nodes, levels, Labels.EMPTY, request, requests, count, PodSpec.of(), want);
    }

    Runnable check() {
      return () -> {
        ResourceFlavor flavor = ResourceFlavor.named("tas").withNodeLabels(flavorLabels).withTopology("default");
        TasFlavorSnapshot s = new TasFlavorSnapshot(flavor, new Topology("default", levels), nodes);
        // An entry without a topology request is implied TAS (tasInput.Implied).
        TasFlavorSnapshot.Outcome o = s.assign(request, request.isEmpty(), count, requests, template, Map.of(), false);
        if (want instanceof String reason) {
          assertThat(o.failure()).as("failure reason").isEqualTo(reason);
        } else {
          assertThat(o.failure()).as("failure reason").isEmpty();
          assertThat(o.assignment()).as("topology assignment").contains((TopologyAssignment) want);
        }
      };
    }
  }

  private static Optional<TopologyRequest> required(String level) {
    return Optional.of(TopologyRequest.required(level));
  }

  private static Optional<TopologyRequest> preferred(String level) {
    return Optional.of(TopologyRequest.preferred(level));
  }

  static List<UpstreamCase> all() {
    List<UpstreamCase> out = new ArrayList<>();
    String t = "TestFindTopologyAssignments: ";
    out.add(UpstreamCase.of(AREA, FIND, t + "minimize the number of used racks before optimizing the number of nodes; BestFit",
        new Find(List.of(brx("b1", "r1", "x3", "2", null, "10"), brx("b1", "r2", "x5", "2", null, "20"),
            brx("b1", "r3", "x1", "1", null, "10"), brx("b1", "r3", "x6", "1", null, "10"),
            brx("b1", "r3", "x2", "1", null, "10"), brx("b1", "r3", "x4", "1", null, "10")), THREE,
            required(BLOCK), req("cpu", 1000), 4, ta(ONE, d(1, "x1"), d(1, "x2"), d(1, "x4"), d(1, "x6"))).check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "choose the node that can accommodate all Pods",
        new Find(List.of(brx("b1", "r1", "x3", "2", null, "10"), brx("b1", "r1", "x5", "1", null, "10"),
            brx("b1", "r1", "x1", "1", null, "10")), THREE, required(BLOCK), req("cpu", 1000), 2,
            ta(ONE, d(2, "x3"))).check()));
    TopologyAssignment scattered = ta(ONE, d(1, "x1"), d(1, "x3"), d(1, "x5"), d(1, "x2"), d(2, "x6"));
    out.add(UpstreamCase.of(AREA, FIND, t + "no annotation; implied default to unconstrained; 6 pods fit into hosts "
        + "scattered across the whole datacenter even they could fit into single rack; BestFit",
        new Find(SCATTERED, THREE, Optional.empty(), req("cpu", 1000), 6, scattered).check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "unconstrained; 6 pods fit into hosts scattered across the whole datacenter "
        + "even they could fit into single rack; BestFit",
        new Find(SCATTERED, THREE, Optional.of(TopologyRequest.unconstrainedRequest()), req("cpu", 1000), 6,
            scattered).check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "unconstrained; a single pod fits into each host; BestFit",
        new Find(DEFAULT_NODES, THREE, Optional.of(TopologyRequest.unconstrainedRequest()), req("cpu", 1000), 1,
            ta(ONE, d(1, "x3"))).check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "block required; 4 pods fit into one host each; BestFit",
        new Find(BINARY, THREE, required(BLOCK), req("cpu", 1000), 4,
            ta(ONE, d(1, "x3"), d(1, "x5"), d(1, "x1"), d(1, "x6"))).check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "host required; single Pod fits in the host; BestFit",
        new Find(DEFAULT_NODES, THREE, required(HOST), req("cpu", 1000), 1, ta(ONE, d(1, "x3"))).check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "rack required; single Pod fits in a rack; BestFit",
        new Find(DEFAULT_NODES, TWO, required(RACK), req("cpu", 1000), 1, ta(TWO, d(1, "b1", "r1"))).check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "rack required; multiple Pods fit in a rack; BestFit",
        new Find(DEFAULT_NODES, TWO, required(RACK), req("cpu", 1000), 3, ta(TWO, d(3, "b1", "r2"))).check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "block preferred; Pods fit in 2 blocks; BestFit",
        new Find(List.of(node("b1", BLOCK, "b1", "|", "cpu", "2", "pods", "20"),
            node("b2", BLOCK, "b2", "|", "cpu", "1", "pods", "10"), node("b3", BLOCK, "b3", "|", "cpu", "4", "pods", "40")),
            List.of(BLOCK), preferred(BLOCK), req("cpu", 1000), 5,
            ta(List.of(BLOCK), d(1, "b2"), d(4, "b3"))).check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "rack required; multiple Pods fit in some racks; BestFit",
        new Find(DEFAULT_NODES, TWO, required(RACK), req("cpu", 1000), 2, ta(TWO, d(2, "b2", "r2"))).check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "rack required; too many pods to fit in any rack; BestFit",
        new Find(DEFAULT_NODES, TWO, required(RACK), req("cpu", 1000), 4,
            "topology \"default\" allows to fit only 3 out of 4 pod(s)").check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "block required; single Pod fits in a block and a single rack; BestFit",
        new Find(DEFAULT_NODES, TWO, required(BLOCK), req("cpu", 1000), 1, ta(TWO, d(1, "b2", "r1"))).check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "block required; Pods fit in a block spread across two racks; BestFit",
        new Find(DEFAULT_NODES, TWO, required(BLOCK), req("cpu", 1000), 4,
            ta(TWO, d(1, "b1", "r1"), d(3, "b1", "r2"))).check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "block required; single Pod which cannot be split; BestFit",
        new Find(DEFAULT_NODES, TWO, required(BLOCK), req("cpu", 4000), 1,
            "topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 4; excluded: resource \"cpu\": 4")
            .check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "block required; too many Pods to fit requested; BestFit",
        new Find(DEFAULT_NODES, TWO, required(BLOCK), req("cpu", 1000), 5,
            "topology \"default\" allows to fit only 4 out of 5 pod(s)").check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "rack required; single Pod requiring memory; BestFit",
        new Find(DEFAULT_NODES, TWO, required(RACK), req("memory", 1024), 4, ta(TWO, d(4, "b1", "r1"))).check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "rack preferred; but only block can accommodate the workload; BestFit",
        new Find(DEFAULT_NODES, TWO, preferred(RACK), req("cpu", 1000), 4,
            ta(TWO, d(1, "b1", "r1"), d(3, "b1", "r2"))).check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "rack preferred; but only multiple blocks can accommodate the workload; BestFit",
        new Find(DEFAULT_NODES, TWO, preferred(RACK), req("cpu", 1000), 6,
            ta(TWO, d(1, "b1", "r1"), d(3, "b1", "r2"), d(2, "b2", "r2"))).check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "block preferred; but only multiple blocks can accommodate the workload; BestFit",
        new Find(DEFAULT_NODES, TWO, preferred(BLOCK), req("cpu", 1000), 6,
            ta(TWO, d(1, "b1", "r1"), d(3, "b1", "r2"), d(2, "b2", "r2"))).check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "block preferred; but the workload cannot be accommodate in entire topology; BestFit",
        new Find(DEFAULT_NODES, TWO, preferred(BLOCK), req("cpu", 1000), 10,
            "topology \"default\" allows to fit only 7 out of 10 pod(s)").check()));
    TopologyNode zoneA = node("b1-r1-x3", "zone", "zone-a", HOST, "x3", "|", "cpu", "1", "memory", "1Gi", "pods", "10");
    out.add(UpstreamCase.of(AREA, FIND, t + "only nodes with matching labels are considered; no matching node; BestFit",
        new Find(List.of(zoneA), ONE, Labels.of("zone", "zone-b"), required(HOST), req("cpu", 1000), 1, PodSpec.of(),
            "no topology domains at level: kubernetes.io/hostname").check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "only nodes with matching labels are considered; matching node is found; BestFit",
        new Find(List.of(zoneA), ONE, Labels.of("zone", "zone-a"), required(HOST), req("cpu", 1000), 1, PodSpec.of(),
            ta(ONE, d(1, "x3"))).check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "only nodes with matching levels are considered; no host label on node; BestFit",
        new Find(List.of(node("b1-r1-x3", BLOCK, "b1", RACK, "r1", "|", "cpu", "1", "memory", "1Gi", "pods", "10")),
            THREE, required(RACK), req("cpu", 1000), 1, "no topology domains at level: cloud.com/topology-rack").check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "no assignment as node is not ready; BestFit",
        new Find(List.of(new TopologyNode(zoneA.node(), false, new TreeMap<>())), ONE, Labels.of("zone", "zone-a"),
            required(HOST), req("cpu", 1000), 1, PodSpec.of(), "no topology domains at level: kubernetes.io/hostname")
            .check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "no assignment as node is unschedulable; BestFit",
        new Find(List.of(TopologyNode.ready(zoneA.node().withUnschedulable(true))), ONE, Labels.of("zone", "zone-a"),
            required(HOST), req("cpu", 1000), 1, PodSpec.of(), "no topology domains at level: kubernetes.io/hostname")
            .check()));
    Taint gpu = Taint.of("example.com/gpu", "present", TaintEffect.NO_SCHEDULE);
    Node tainted = node("x3", "zone", "zone-a", HOST, "x3", "|", "cpu", "1", "memory", "1Gi", "pods", "10").node()
        .withTaints(List.of(gpu));
    out.add(UpstreamCase.of(AREA, FIND, t + "skip node which has untolerated taint; BestFit",
        new Find(List.of(TopologyNode.ready(tainted)), ONE, Labels.of("zone", "zone-a"), required(HOST),
            req("cpu", 1000), 1, PodSpec.of(), "topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; "
                + "excluded: taint \"example.com/gpu=present:NoSchedule\": 1").check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "allow to schedule on node with tolerated taint; BestFit",
        new Find(List.of(TopologyNode.ready(tainted)), ONE, Labels.of("zone", "zone-a"), required(HOST),
            req("cpu", 1000), 1, PodSpec.of().withTolerations(List.of(Toleration.equal("example.com/gpu", "present",
                TaintEffect.NO_SCHEDULE))), ta(ONE, d(1, "x3"))).check()));
    TopologyNode x3 = node("x3", HOST, "x3", "|", "cpu", "1", "memory", "1Gi", "pods", "10");
    out.add(UpstreamCase.of(AREA, FIND, t + "include usage from running non-TAS pods, blocked assignment; BestFit",
        new Find(List.of(new TopologyNode(x3.node(), true, req("cpu", 600, "pods", 1))), ONE, required(HOST),
            req("cpu", 600), 1, "topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: "
                + "resource \"cpu\": 1").check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "include usage from non-TAS pods; pod usage",
        new Find(List.of(new TopologyNode(node("x3", HOST, "x3", "|", "pods", "10").node(), true, req("pods", 2))), ONE,
            required(HOST), req("cpu", 0), 9, "topology \"default\" allows to fit only 8 out of 9 pod(s)").check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "include usage from running non-TAS pods, found free capacity on another node; BestFit",
        new Find(List.of(new TopologyNode(x3.node(), true, req("cpu", 600, "pods", 1)),
            node("x5", HOST, "x5", "|", "cpu", "1", "memory", "1Gi", "pods", "10")), ONE, required(HOST),
            req("cpu", 600), 1, ta(ONE, d(1, "x5"))).check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "detailed failure message with exclusion stats",
        new Find(List.of(TopologyNode.ready(node("x1", HOST, "x1", "|", "cpu", "1", "pods", "10").node()
                .withTaints(List.of(Taint.of("key", "value", TaintEffect.NO_SCHEDULE)))),
            node("x2", HOST, "x2", "zone", "zone-b", "|", "cpu", "1", "pods", "10"),
            node("x3", HOST, "x3", "zone", "zone-b", "|", "cpu", "2", "pods", "10"),
            node("x4", HOST, "x4", "zone", "zone-a", "|", "cpu", "100m", "pods", "10")), ONE, Labels.EMPTY,
            required(HOST), req("cpu", 1000), 1, PodSpec.of().withNodeSelector(Labels.of("zone", "zone-a")),
            "topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 4; excluded: nodeSelector: 2, "
                + "resource \"cpu\": 1, taint \"key=value:NoSchedule\": 1").check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "resource exclusion picks most restrictive resource",
        new Find(List.of(node("dual-shortage", HOST, "dual-shortage", "|", "cpu", "500m", "pods", "10",
            "example.com/gpu", "0")), ONE, required(HOST), req("cpu", 1000, "example.com/gpu", 1), 1,
            "topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: resource \"cpu\": 1")
            .check()));
    out.add(UpstreamCase.of(AREA, FIND, t + "no assignment as node does not have enough allocatable pods "
        + "(.status.allocatable['pods']); BestFit",
        new Find(List.of(new TopologyNode(node("b1-r1-x3", "zone", "zone-a", HOST, "x3", "|", "cpu", "1000m", "pods",
            "1").node(), true, req("cpu", 300, "pods", 1))), ONE, Labels.of("zone", "zone-a"), required(HOST),
            req("cpu", 300), 1, PodSpec.of(), "topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; "
                + "excluded: resource \"pods\": 1").check()));
    out.addAll(scheduleCases());
    return out;
  }

  // TestScheduleForTAS: defaultSingleNode, tas-single-level, flavor tas-default (tas-node=true), ClusterQueue tas-main.

  private static final TopologyNode SINGLE = node("x1", "tas-node", "true", HOST, "x1", "|", "cpu", "1", "memory", "1Gi",
      "pods", "10");
  private static final Topology SINGLE_LEVEL = new Topology("tas-single-level", ONE);
  private static final ResourceFlavor TAS_DEFAULT = ResourceFlavor.named("tas-default")
      .withNodeLabels(Labels.of("tas-node", "true")).withTopology("tas-single-level");
  private static final ResourceFlavor DEFAULT = ResourceFlavor.named("default");

  private static ClusterQueue cq(FlavorQuotas... flavors) {
    return ClusterQueue.named("tas-main", ResourceGroup.of(flavors))
        .withNamespaceSelector(Optional.of(new LabelSelector(Labels.EMPTY, List.of())));
  }

  private static FlavorQuotas cpu(String flavor) {
    return new FlavorQuotas(flavor, List.of(ResourceQuota.of("cpu", "50")));
  }

  private static final ClusterQueue DEFAULT_CQ = cq(new FlavorQuotas("tas-default",
      List.of(ResourceQuota.of("cpu", "50"), ResourceQuota.of("memory", "50Gi"))));

  private static Workload foo(PodSet... podSets) {
    return Workload.of("default", "foo", "tas-main", NOW, podSets);
  }

  private static PodSet one(int count, String cpu, Optional<TopologyRequest> request) {
    PodSet ps = PodSet.of("one", count, ResourceList.of("cpu", cpu));
    return request.map(ps::withTopologyRequest).orElse(ps);
  }

  /** An admission of pod set {@code name}: cpu from {@code flavor} charged {@code millis}, and its placement. */
  private static Admission.PodSetAssignment psa(String name, String flavor, long millis, int count,
      Optional<TopologyAssignment> topology) {
    return new Admission.PodSetAssignment(name, new TreeMap<>(Map.of(ResourceName.CPU, flavor)),
        new TreeMap<>(Map.of(ResourceName.CPU, millis)), count, topology);
  }

  /** An admission of pod set {@code name} from {@code flavor}: resource and total usage pairs, and its placement. */
  private static Admission.PodSetAssignment psaOf(String name, String flavor, int count,
      Optional<TopologyAssignment> topology, Object... resourceUsage) {
    SortedMap<ResourceName, String> flavors = new TreeMap<>();
    SortedMap<ResourceName, Long> usage = new TreeMap<>();
    for (int i = 0; i < resourceUsage.length; i += 2) {
      flavors.put(ResourceName.of((String) resourceUsage[i]), flavor);
      usage.put(ResourceName.of((String) resourceUsage[i]), ((Number) resourceUsage[i + 1]).longValue());
    }
    return new Admission.PodSetAssignment(name, flavors, usage, count, topology);
  }

  /** One cycle; the admissions made, and "reason: message" of those left pending, with where they are left. */
  private static Runnable schedule(List<TopologyNode> nodes, List<ResourceFlavor> flavors, List<Topology> topologies,
      ClusterQueue cq, List<Workload> workloads, Map<String, Admission> wantAdmitted, Map<String, String> wantPending) {
    return schedule(nodes, flavors, topologies, List.of(cq), List.of(new LocalQueue("default", "tas-main", "tas-main")),
        workloads, wantAdmitted, wantPending);
  }

  private static Runnable schedule(List<TopologyNode> nodes, List<ResourceFlavor> flavors, List<Topology> topologies,
      List<ClusterQueue> cqs, List<LocalQueue> lqs, List<Workload> workloads, Map<String, Admission> wantAdmitted,
      Map<String, String> wantPending) {
    return () -> {
      KueueState state = new KueueState(flavors, cqs, List.of(), lqs, workloads).withTopologies(topologies);
      Map<String, Admission> admitted = new TreeMap<>();
      Map<String, String> pending = new TreeMap<>();
      for (Decision d : Scheduler.cycle(state, NOW, w -> false, nodes)) {
        switch (d) {
          case Decision.Admitted a -> admitted.put(a.workload(), a.admission());
          case Decision.Pending p -> pending.put(p.workload(), (p.inadmissible() ? "inadmissible " : "left ")
              + p.reason() + ": " + p.message());
          case Decision.Preempting p -> pending.put(p.workload(), "preempting " + p.message());
          case Decision.NotConsidered n -> pending.put(n.workload(), "not considered " + n.why());
        }
      }
      assertThat(admitted).as("admissions").isEqualTo(wantAdmitted);
      assertThat(pending.keySet()).as("pending").isEqualTo(wantPending.keySet());
      // A wanted message ending in "*" is a prefix: upstream checks that event's reason only.
      wantPending.forEach((k, v) -> assertThat(pending.get(k)).as("pending " + k)
          .satisfies(got -> assertThat(v.endsWith("*") ? got.startsWith(v.substring(0, v.length() - 1)) : got.equals(v))
              .as("%s, wanted %s", got, v).isTrue()));
    };
  }

  private static List<UpstreamCase> scheduleCases() {
    List<UpstreamCase> out = new ArrayList<>();
    String t = "TestScheduleForTAS: ";
    Optional<TopologyAssignment> onX1 = Optional.of(ta(ONE, d(1, "x1")));
    out.add(UpstreamCase.of(AREA, SCHED, t + "workload which does not specify TAS annotation uses the only TAS flavor",
        schedule(List.of(SINGLE), List.of(TAS_DEFAULT, DEFAULT), List.of(SINGLE_LEVEL), cq(cpu("tas-default")),
            List.of(foo(one(1, "1", Optional.empty()))),
            Map.of("default/foo", new Admission("tas-main", List.of(psa("one", "tas-default", 1000, 1, onX1)))),
            Map.of())));
    out.add(UpstreamCase.of(AREA, SCHED, t + "workload requiring TAS skips the non-TAS flavor",
        schedule(List.of(SINGLE), List.of(TAS_DEFAULT, DEFAULT), List.of(SINGLE_LEVEL),
            cq(cpu("default"), cpu("tas-default")), List.of(foo(one(1, "1", required(HOST)))),
            Map.of("default/foo", new Admission("tas-main", List.of(psa("one", "tas-default", 1000, 1, onX1)))),
            Map.of())));
    out.add(UpstreamCase.of(AREA, SCHED, t + "workload which does not need TAS skips the TAS flavor",
        schedule(List.of(SINGLE), List.of(TAS_DEFAULT, DEFAULT), List.of(SINGLE_LEVEL),
            cq(cpu("tas-default"), cpu("default")), List.of(foo(one(1, "1", Optional.empty()))),
            Map.of("default/foo", new Admission("tas-main", List.of(psa("one", "default", 1000, 1, Optional.empty())))),
            Map.of())));
    out.add(UpstreamCase.of(AREA, SCHED, t + "workload with mixed PodSets (requiring TAS and not)",
        schedule(List.of(SINGLE), List.of(TAS_DEFAULT, DEFAULT), List.of(SINGLE_LEVEL),
            cq(cpu("tas-default"), cpu("default")), List.of(foo(PodSet.of("launcher", 1, ResourceList.of("cpu", "500m")),
                PodSet.of("worker", 1, ResourceList.of("cpu", "500m")).withTopologyRequest(TopologyRequest.required(HOST)))),
            Map.of("default/foo", new Admission("tas-main", List.of(psa("launcher", "default", 500, 1, Optional.empty()),
                psa("worker", "tas-default", 500, 1, onX1)))), Map.of())));
    out.add(UpstreamCase.of(AREA, SCHED, t + "workload required TAS gets scheduled",
        schedule(List.of(SINGLE), List.of(TAS_DEFAULT), List.of(SINGLE_LEVEL), DEFAULT_CQ,
            List.of(foo(one(1, "1", required(HOST)))),
            Map.of("default/foo", new Admission("tas-main", List.of(psa("one", "tas-default", 1000, 1, onX1)))),
            Map.of())));
    out.add(UpstreamCase.of(AREA, SCHED, t + "workload requests topology level which is not present in topology",
        schedule(List.of(SINGLE), List.of(TAS_DEFAULT), List.of(SINGLE_LEVEL), DEFAULT_CQ,
            List.of(foo(one(1, "1", required("cloud.com/non-existing")))), Map.of(),
            Map.of("default/foo", "inadmissible NoMatchingFlavor: couldn't assign flavors to pod set one: Flavor "
                + "\"tas-default\" does not contain the requested level"))));
    out.add(UpstreamCase.of(AREA, SCHED, t + "workload requests topology level which is only present in second flavor",
        schedule(List.of(node("x1", "tas-node", "true", "cloud.com/custom-level", "x1", "|", "cpu", "1", "pods", "10")),
            List.of(TAS_DEFAULT, ResourceFlavor.named("tas-custom-flavor").withNodeLabels(Labels.of("tas-node", "true"))
                .withTopology("tas-custom-topology")),
            List.of(SINGLE_LEVEL, new Topology("tas-custom-topology", List.of("cloud.com/custom-level"))),
            cq(cpu("tas-default"), cpu("tas-custom-flavor")), List.of(foo(one(1, "1", required("cloud.com/custom-level")))),
            Map.of("default/foo", new Admission("tas-main", List.of(psa("one", "tas-custom-flavor", 1000, 1,
                Optional.of(ta(List.of("cloud.com/custom-level"), d(1, "x1"))))))), Map.of())));
    out.add(UpstreamCase.of(AREA, SCHED, t + "workload does not get scheduled as it does not fit within the node capacity",
        schedule(List.of(SINGLE), List.of(TAS_DEFAULT), List.of(SINGLE_LEVEL), DEFAULT_CQ,
            List.of(foo(one(2, "1", required(HOST)))), Map.of(),
            Map.of("default/foo", "inadmissible TopologyPlacementFailed: couldn't assign flavors to pod set one: "
                + "topology \"tas-single-level\" allows to fit only 1 out of 2 pod(s)"))));
    Workload barAdmitted = Workload.of("default", "bar-admitted", "tas-main", NOW, one(1, "1", required(HOST)))
        .admitted(new Admission("tas-main", List.of(psa("one", "tas-default", 1000, 1, onX1))), NOW);
    out.add(UpstreamCase.of(AREA, SCHED, t + "workload does not get scheduled as the node capacity is already used by "
        + "another TAS workload",
        schedule(List.of(SINGLE), List.of(TAS_DEFAULT), List.of(SINGLE_LEVEL), DEFAULT_CQ,
            List.of(foo(one(1, "1", required(HOST))), barAdmitted), Map.of(),
            Map.of("default/foo", "inadmissible WaitingForQuota: couldn't assign flavors to pod set one: topology "
                + "\"tas-single-level\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: resource \"cpu\": 1"))));
    out.add(UpstreamCase.of(AREA, SCHED, t + "workload does not get scheduled as the node capacity is already used by a "
        + "non-TAS pod",
        schedule(List.of(new TopologyNode(SINGLE.node(), true, req("cpu", 600, "pods", 1))), List.of(TAS_DEFAULT),
            List.of(SINGLE_LEVEL), DEFAULT_CQ, List.of(foo(one(1, "1", required(HOST)))), Map.of(),
            Map.of("default/foo", "inadmissible TopologyPlacementFailed: couldn't assign flavors to pod set one: "
                + "topology \"tas-single-level\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: "
                + "resource \"cpu\": 1"))));
    Workload barMem = Workload.of("default", "bar-admitted", "tas-main", NOW, PodSet.of("one", 1,
        ResourceList.of("cpu", "500m", "memory", "500Mi")).withTopologyRequest(TopologyRequest.required(HOST)))
        .admitted(new Admission("tas-main", List.of(psaOf("one", "tas-default", 1, onX1, "cpu", 500, "memory",
            500L * 1024 * 1024))), NOW);
    out.add(UpstreamCase.of(AREA, SCHED, t + "workload gets admitted next to already admitted workload, multiple "
        + "resources used",
        schedule(List.of(SINGLE), List.of(TAS_DEFAULT), List.of(SINGLE_LEVEL), DEFAULT_CQ,
            List.of(foo(PodSet.of("one", 1, ResourceList.of("cpu", "500m", "memory", "500Mi"))
                .withTopologyRequest(TopologyRequest.required(HOST))), barMem),
            Map.of("default/foo", new Admission("tas-main", List.of(psaOf("one", "tas-default", 1, onX1, "cpu", 500,
                "memory", 500L * 1024 * 1024)))), Map.of())));
    ResourceFlavor twoLevelFlavor = ResourceFlavor.named("tas-default").withNodeLabels(Labels.of("tas-node", "true"))
        .withTopology("tas-two-level");
    Topology twoLevel = new Topology("tas-two-level", List.of("cloud.provider.com/rack", HOST));
    List<TopologyNode> xy3 = List.of(node("x1", "tas-node", "true", "cloud.provider.com/rack", "r1", HOST, "x1", "|",
        "cpu", "3", "pods", "10"), node("y1", "tas-node", "true", "cloud.provider.com/rack", "r1", HOST, "y1", "|",
        "cpu", "3", "pods", "10"));
    out.add(UpstreamCase.of(AREA, SCHED, t + "workload with multiple PodSets requesting the same TAS flavor; multiple levels",
        schedule(xy3, List.of(twoLevelFlavor), List.of(twoLevel), cq(cpu("tas-default")),
            List.of(foo(PodSet.of("launcher", 1, ResourceList.of("cpu", "1")).withTopologyRequest(TopologyRequest
                .preferred(HOST)), PodSet.of("worker", 1, ResourceList.of("cpu", "7"))
                .withTopologyRequest(TopologyRequest.preferred(HOST)))), Map.of(),
            Map.of("default/foo", "inadmissible TopologyPlacementFailed: couldn't assign flavors to pod set worker: "
                + "topology \"tas-two-level\" doesn't allow to fit any of 1 pod(s). Total nodes: 2; excluded: "
                + "resource \"cpu\": 2"))));
    List<TopologyNode> xy8 = List.of(node("x1", "tas-node", "true", "cloud.provider.com/rack", "r1", HOST, "x1", "|",
        "cpu", "8", "pods", "10"), node("y1", "tas-node", "true", "cloud.provider.com/rack", "r1", HOST, "y1", "|",
        "cpu", "8", "pods", "10"));
    Admission launcherAndWorkers = new Admission("tas-main", List.of(psa("launcher", "tas-default", 1000, 1, onX1),
        psa("worker", "tas-default", 15000, 15, Optional.of(ta(ONE, d(7, "x1"), d(8, "y1"))))));
    out.add(UpstreamCase.of(AREA, SCHED, t + "scheduling workload with multiple PodSets requesting TAS flavor and will succeed",
        schedule(xy8, List.of(twoLevelFlavor), List.of(twoLevel), cq(new FlavorQuotas("tas-default",
            List.of(ResourceQuota.of("cpu", "16")))),
            List.of(foo(PodSet.of("launcher", 1, ResourceList.of("cpu", "1")).withTopologyRequest(TopologyRequest
                .required(HOST)), PodSet.of("worker", 15, ResourceList.of("cpu", "1"))
                .withTopologyRequest(TopologyRequest.preferred(HOST)))),
            Map.of("default/foo", launcherAndWorkers), Map.of())));
    out.add(UpstreamCase.of(AREA, SCHED, t + "scheduling workload with multiple PodSets requesting higher level topology",
        schedule(xy8, List.of(twoLevelFlavor), List.of(twoLevel), cq(new FlavorQuotas("tas-default",
            List.of(ResourceQuota.of("cpu", "16")))),
            List.of(foo(PodSet.of("launcher", 1, ResourceList.of("cpu", "1")).withTopologyRequest(TopologyRequest
                .required("cloud.provider.com/rack")), PodSet.of("worker", 15, ResourceList.of("cpu", "1"))
                .withTopologyRequest(TopologyRequest.required("cloud.provider.com/rack")))),
            Map.of("default/foo", launcherAndWorkers), Map.of())));
    Workload onDeletedNode = Workload.of("default", "bar-admitted", "tas-main", NOW, one(1, "1", required(HOST)))
        .admitted(new Admission("tas-main", List.of(psa("one", "tas-default", 1000, 1, onX1))), NOW);
    out.add(UpstreamCase.of(AREA, SCHED, t + "scheduling workload when the node for another admitted workload is deleted",
        schedule(List.of(node("y1", "tas-node", "true", HOST, "y1", "|", "cpu", "1", "pods", "10")), List.of(TAS_DEFAULT),
            List.of(SINGLE_LEVEL), cq(cpu("tas-default")), List.of(foo(one(1, "1", preferred(HOST))), onDeletedNode),
            Map.of("default/foo", new Admission("tas-main", List.of(psa("one", "tas-default", 1000, 1,
                Optional.of(ta(ONE, d(1, "y1"))))))), Map.of())));
    Node taintedX1 = node("x1", "tas-node", "true", HOST, "x1", "|", "cpu", "1", "pods", "10").node()
        .withTaints(List.of(Taint.of("example.com/gpu", "present", TaintEffect.NO_SCHEDULE)));
    out.add(UpstreamCase.of(AREA, SCHED, t + "scheduling workload on a tainted node when the toleration is on ResourceFlavor",
        schedule(List.of(TopologyNode.ready(taintedX1)), List.of(TAS_DEFAULT.withTolerations(List.of(
                Toleration.exists("example.com/gpu", null)))), List.of(SINGLE_LEVEL), cq(cpu("tas-default")),
            List.of(foo(one(1, "1", preferred(HOST)))),
            Map.of("default/foo", new Admission("tas-main", List.of(psa("one", "tas-default", 1000, 1, onX1)))),
            Map.of())));
    out.add(UpstreamCase.of(AREA, SCHED, t + "workload does not get scheduled as node capacity is completely used by "
        + "non-TAS pod",
        schedule(List.of(new TopologyNode(node("x1", "tas-node", "true", HOST, "x1", "|", "cpu", "1", "memory", "1Gi",
                "pods", "1").node(), true, req("cpu", 1000, "memory", 1024L * 1024 * 1024, "pods", 1))),
            List.of(TAS_DEFAULT), List.of(SINGLE_LEVEL), DEFAULT_CQ, List.of(foo(one(1, "1", required(HOST)))), Map.of(),
            Map.of("default/foo", "inadmissible TopologyPlacementFailed: couldn't assign flavors to pod set one: "
                + "topology \"tas-single-level\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: "
                + "resource \"cpu\": 1"))));
    Workload barPods = Workload.of("default", "bar-admitted", "tas-main", NOW, one(2, "150m", required(HOST)))
        .admitted(new Admission("tas-main", List.of(psa("one", "tas-default", 150, 2,
            Optional.of(ta(ONE, d(2, "x1")))))), NOW);
    out.add(UpstreamCase.of(AREA, SCHED, t + "workload does not get scheduled as the node capacity "
        + "(.status.allocatable['pods']) is already used by non-TAS and TAS workloads",
        schedule(List.of(new TopologyNode(node("x1", "tas-node", "true", HOST, "x1", "|", "cpu", "1000m", "pods", "3")
                .node(), true, req("cpu", 300, "pods", 1))), List.of(TAS_DEFAULT), List.of(SINGLE_LEVEL), DEFAULT_CQ,
            List.of(foo(one(1, "300m", required(HOST))), barPods), Map.of(),
            Map.of("default/foo", "inadmissible WaitingForQuota: couldn't assign flavors to pod set one: topology "
                + "\"tas-single-level\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: resource "
                + "\"pods\": 1"))));
    out.add(UpstreamCase.of(AREA, SCHED, t + "workload with zero value request gets scheduled",
        schedule(List.of(SINGLE), List.of(TAS_DEFAULT), List.of(SINGLE_LEVEL), DEFAULT_CQ,
            List.of(foo(PodSet.of("one", 1, ResourceList.of("cpu", "0", "memory", "10Mi")))),
            Map.of("default/foo", new Admission("tas-main", List.of(psaOf("one", "tas-default", 1, onX1, "cpu", 0,
                "memory", 10L * 1024 * 1024)))), Map.of())));
    PodSpec wantsUnusedKey = PodSpec.of().withNodeAffinity(NodeAffinity.requiring(new NodeSelectorTerm(
        List.of(Requirement.in("unused-key", "value")), List.of())));
    out.add(UpstreamCase.of(AREA, SCHED, t + "does not admit workload when node does not match required affinity",
        schedule(List.of(SINGLE), List.of(TAS_DEFAULT), List.of(SINGLE_LEVEL), DEFAULT_CQ,
            List.of(foo(one(1, "1", preferred(HOST)).withTemplate(wantsUnusedKey))), Map.of(),
            Map.of("default/foo", "inadmissible TopologyPlacementFailed: *"))));
    PodSpec wantsExpected = PodSpec.of().withNodeAffinity(NodeAffinity.requiring(new NodeSelectorTerm(
        List.of(Requirement.in("expected-label", "expected-value")), List.of())));
    out.add(UpstreamCase.of(AREA, SCHED, t + "admits workload when node matches required affinity",
        schedule(List.of(node("x1", "tas-node", "true", HOST, "x1", "expected-label", "expected-value", "|", "cpu", "1",
                "memory", "1Gi", "pods", "10")), List.of(TAS_DEFAULT), List.of(SINGLE_LEVEL), DEFAULT_CQ,
            List.of(foo(one(1, "1", preferred(HOST)).withTemplate(wantsExpected))),
            Map.of("default/foo", new Admission("tas-main", List.of(psa("one", "tas-default", 1000, 1, onX1)))),
            Map.of())));
    List<TopologyNode> zeroCapacity = List.of(
        node("x1", "tas-node", "true", HOST, "x1", "cloud.provider.com/rack", "r1", "|", "cpu", "0", "pods", "10"),
        node("x2", "tas-node", "true", HOST, "x2", "cloud.provider.com/rack", "r1", "|", "cpu", "1", "pods", "10"),
        node("x3", "tas-node", "true", HOST, "x3", "cloud.provider.com/rack", "r1", "|", "cpu", "1", "pods", "10"));
    Map<String, Admission> onX2X3 = Map.of("default/foo", new Admission("tas-main", List.of(psa("one", "tas-default", 2000,
        2, Optional.of(ta(ONE, d(1, "x2"), d(1, "x3")))))));
    for (var e : List.of(Map.entry("unconstrained", TopologyRequest.unconstrainedRequest()),
        Map.entry("preferred", TopologyRequest.preferred("cloud.provider.com/rack")),
        Map.entry("required", TopologyRequest.required("cloud.provider.com/rack")))) {
      out.add(UpstreamCase.of(AREA, SCHED, t + "admits workload when nodes are partially empty; " + e.getKey(),
          schedule(zeroCapacity, List.of(twoLevelFlavor), List.of(twoLevel), DEFAULT_CQ,
              List.of(foo(PodSet.of("one", 2, ResourceList.of("cpu", "1")).withTopologyRequest(e.getValue()))),
              onX2X3, Map.of())));
    }
    out.addAll(cohortCases());
    // TestScheduleForTASPreemption: x1 of 5 CPUs, ClusterQueue tas-main with withinClusterQueue LowerPriority.
    TopologyNode x1Five = node("x1", "tas-node", "true", HOST, "x1", "|", "cpu", "5", "memory", "5Gi", "pods", "10");
    Workload low = Workload.of("default", "low-priority-admitted", "tas-main", NOW, one(1, "5", required(HOST)))
        .withPriority(1).admitted(new Admission("tas-main", List.of(psa("one", "tas-default", 5000, 1, onX1))), NOW);
    out.add(UpstreamCase.of(AREA, SCHED, "TestScheduleForTASPreemption: only low priority workload is preempted",
        schedule(List.of(x1Five), List.of(TAS_DEFAULT), List.of(SINGLE_LEVEL), DEFAULT_CQ.withPreemption(
                new PreemptionPolicy(PreemptionPolicy.Policy.NEVER, PreemptionPolicy.Policy.NEVER,
                    PreemptionPolicy.Policy.LOWER_PRIORITY)),
            List.of(foo(one(1, "2", preferred(HOST))).withPriority(3), low), Map.of(),
            Map.of("default/foo", "preempting couldn't assign flavors to pod set one: topology \"tas-single-level\" "
                + "doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: resource \"cpu\": 1. Pending the "
                + "preemption of 1 workload(s)")))
        .differs("the twin looks for no preemption targets for a pod set whose quota fits but whose topology does not "
            + "(upstream's preemptor frees room on the nodes); the workload waits, WaitingForQuota"));
    return out;
  }

  /** A workload of {@code count} pods of one request, preferring a host. */
  private static Workload preferringHost(String name, String queue, int priority, int count, String resource,
      String amount) {
    return Workload.of("default", name, queue, NOW, PodSet.of("one", count, ResourceList.of(resource, amount))
        .withTopologyRequest(TopologyRequest.preferred(HOST))).withPriority(priority);
  }

  /** Pod set "one" admitted in {@code cq} with all its pods on {@code host}. */
  private static Admission onHost(String cq, String host, int count, String resource, long usage) {
    return new Admission(cq, List.of(psaOf("one", "tas-default", count, Optional.of(ta(ONE, d(count, host))), resource,
        usage)));
  }

  /** TestScheduleForTASCohorts: x1 (3 CPUs, 5Gi) and y1 (5 CPUs, 3Gi); ClusterQueues a and b of 4 CPUs and 4Gi in one cohort. */
  private static List<UpstreamCase> cohortCases() {
    List<UpstreamCase> out = new ArrayList<>();
    String t = "TestScheduleForTASCohorts: ";
    List<TopologyNode> nodes = List.of(node("x1", "tas-node", "true", HOST, "x1", "|", "cpu", "3", "memory", "5Gi",
        "pods", "10"), node("y1", "tas-node", "true", HOST, "y1", "|", "cpu", "5", "memory", "3Gi", "pods", "10"));
    FlavorQuotas quota = new FlavorQuotas("tas-default", List.of(ResourceQuota.of("cpu", "4"),
        ResourceQuota.of("memory", "4Gi")));
    Optional<LabelSelector> all = Optional.of(new LabelSelector(Labels.EMPTY, List.of()));
    List<ClusterQueue> cqs = List.of(
        ClusterQueue.named("tas-cq-a", ResourceGroup.of(quota)).inCohort("tas-cohort-main").withNamespaceSelector(all)
            .withPreemption(new PreemptionPolicy(PreemptionPolicy.Policy.ANY, PreemptionPolicy.Policy.NEVER,
                PreemptionPolicy.Policy.LOWER_PRIORITY)),
        ClusterQueue.named("tas-cq-b", ResourceGroup.of(quota)).inCohort("tas-cohort-main").withNamespaceSelector(all)
            .withPreemption(new PreemptionPolicy(PreemptionPolicy.Policy.ANY, PreemptionPolicy.Policy.NEVER,
                PreemptionPolicy.Policy.NEVER)));
    List<LocalQueue> lqs = List.of(new LocalQueue("default", "tas-lq-a", "tas-cq-a"),
        new LocalQueue("default", "tas-lq-b", "tas-cq-b"));
    Workload a1 = preferringHost("a1", "tas-lq-a", 2, 1, "cpu", "5");
    Workload b1 = preferringHost("b1", "tas-lq-b", 1, 1, "memory", "5");
    out.add(UpstreamCase.of(AREA, SCHED, t + "two small workloads considered; both get scheduled on different nodes",
        schedule(nodes, List.of(TAS_DEFAULT), List.of(SINGLE_LEVEL), cqs, lqs, List.of(a1, b1),
            Map.of("default/a1", onHost("tas-cq-a", "y1", 1, "cpu", 5000), "default/b1", onHost("tas-cq-b", "x1", 1,
                "memory", 5)), Map.of())));
    Workload a1Small = preferringHost("a1", "tas-lq-a", 2, 1, "cpu", "1");
    out.add(UpstreamCase.of(AREA, SCHED, t + "two small workloads considered; both get scheduled on the same node",
        schedule(nodes, List.of(TAS_DEFAULT), List.of(SINGLE_LEVEL), cqs, lqs, List.of(a1Small,
            preferringHost("b1", "tas-lq-b", 1, 2, "cpu", "1")),
            Map.of("default/a1", onHost("tas-cq-a", "x1", 1, "cpu", 1000), "default/b1", onHost("tas-cq-b", "x1", 2,
                "cpu", 2000)), Map.of())));
    Workload b1Three = preferringHost("b1", "tas-lq-b", 1, 3, "cpu", "1");
    Admission a1OnX1 = onHost("tas-cq-a", "x1", 1, "cpu", 1000);
    String onlyOne = t + "two small workloads considered; there is only space for one of them on the initial node; ";
    out.add(UpstreamCase.of(AREA, SCHED, onlyOne + "TASRecomputeAssignmentWithinSchedulingCycle disabled",
        schedule(nodes, List.of(TAS_DEFAULT), List.of(SINGLE_LEVEL), cqs, lqs, List.of(a1Small, b1Three),
            Map.of("default/a1", a1OnX1),
            Map.of("default/b1", "left WaitingForQuota: Workload no longer fits after processing another workload"))));
    out.add(UpstreamCase.of(AREA, SCHED, onlyOne + "TASRecomputeAssignmentWithinSchedulingCycle enabled",
        schedule(nodes, List.of(TAS_DEFAULT), List.of(SINGLE_LEVEL), cqs, lqs, List.of(a1Small, b1Three),
            Map.of("default/a1", a1OnX1, "default/b1", onHost("tas-cq-b", "y1", 3, "cpu", 3000)), Map.of()))
        .differs("the twin does not recompute a placement within the cycle (TASRecomputeAssignmentWithinSchedulingCycle, "
            + "beta and on by default): the second workload, placed on x1 before the first took it, waits for the next "
            + "cycle as with the gate off"));
    return out;
  }
}
