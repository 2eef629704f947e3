package io.gpufleet.engine.scheduler.conformance;

import static io.gpufleet.engine.scheduler.conformance.K.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.FitError;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.engine.scheduler.plugin.DefaultPreemption;
import io.gpufleet.model.workload.DisruptionBudget;
import io.gpufleet.engine.scheduler.plugin.NodeResourcesFit;
import io.gpufleet.engine.scheduler.plugin.PostFilterPlugin;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.workload.PodDisruptionBudget;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go}, TestPostFilter:
 * NodeResourcesFit as the only filter, the filter statuses given by the table; the start-time
 * cases of TestSelectBestCandidate and TestDryRunPreemption (pods' {@code status.startTime}); and
 * TestDryRunPreemption's PodDisruptionBudget cases (victims and {@code NumPDBViolations} per node).
 */
final class PreemptionCases {
  private PreemptionCases() {}

  static final String FILE = "pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go";
  private static final int LOW = 0;
  private static final int MID = 100;
  private static final int HIGH = 1000;

  /** {@code st.MakeNode().Capacity(res)}: pods default to 32. */
  private static Node node(String name, String... res) {
    List<String> kv = new ArrayList<>(List.of("pods", "32"));
    kv.addAll(List.of(res));
    return Node.of(name, Labels.EMPTY, List.of(), ResourceList.of(kv.toArray(String[]::new)));
  }

  private static Pod prio(Pod p, int priority) {
    return p.withSpec(p.spec().withPriority(priority));
  }

  private static final String[] ONE_POD = {"pods", "1"};
  private static final String[] NODE_RES = {"cpu", "200m", "memory", "400"};
  private static final ResourceList LARGE = ResourceList.of("cpu", "300m", "memory", "300");

  /** Runs PostFilter; {@code resolvable} lists the nodes given an Unschedulable status, {@code unresolvable} the others named. */
  private static PostFilterPlugin.Result run(Pod pod, List<NodeInfo> nodes, List<String> resolvable,
      List<String> unresolvable) {
    Map<String, Status> statuses = new LinkedHashMap<>();
    resolvable.forEach(n -> statuses.put(n, new Status(Status.Code.UNSCHEDULABLE, "", List.of())));
    unresolvable.forEach(n -> statuses.put(n, new Status(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "", List.of())));
    FitError error = new FitError(nodes.size(), statuses, Optional.empty(), "", "");
    return new DefaultPreemption(List.of(NodeResourcesFit.leastAllocated()))
        .postFilter(PodInfo.of(pod), ClusterSnapshot.ofInfos(nodes), error);
  }

  private static UpstreamCase nominated(String name, Pod pod, List<NodeInfo> nodes, List<String> resolvable,
      String node) {
    return UpstreamCase.of("DefaultPreemption", FILE, name, () -> {
      var r = run(pod, nodes, resolvable, List.of());
      assertThat(r.nominatedNode()).contains(node);
      assertThat(r.message()).isEmpty();
    });
  }

  private static UpstreamCase refused(String name, Pod pod, List<NodeInfo> nodes, List<String> resolvable,
      List<String> unresolvable, String message) {
    return UpstreamCase.of("DefaultPreemption", FILE, name, () -> {
      var r = run(pod, nodes, resolvable, unresolvable);
      assertThat(r.nominatedNode()).isEmpty();
      assertThat(r.message()).isEqualTo(message);
    });
  }

  private static final String[] VERY_LARGE = {"cpu", "500m", "memory", "500"};
  private static final ResourceList SMALL = ResourceList.of("cpu", "100m", "memory", "100");
  private static final ResourceList MEDIUM = ResourceList.of("cpu", "200m", "memory", "200");

  /** A pod of {@code priority} started at {@code epochTime<n>} ({@code time.Unix(0, n)}). */
  private record Started(int priority, int epochNanos) {}

  private static Started at(int priority, int epochNanos) {
    return new Started(priority, epochNanos);
  }

  private static List<Started> started(int priority, int first, int second) {
    return List.of(at(priority, first), at(priority, second));
  }

  private static PodInfo startedPod(String name, int priority, ResourceList req, int epochNanos) {
    return PodInfo.of(prio(pod(name, req), priority)).startedAt(Instant.ofEpochSecond(0, epochNanos));
  }

  /** TestSelectBestCandidate: node{i+1} holds the given mediumRes pods; the veryLargeRes preemptor picks {@code node}. */
  private static UpstreamCase picked(String name, List<List<Started>> pods, String node) {
    return UpstreamCase.of("DefaultPreemption", FILE, name, () -> {
      List<NodeInfo> nodes = new ArrayList<>();
      List<String> names = new ArrayList<>();
      for (int i = 0; i < pods.size(); i++) {
        NodeInfo n = NodeInfo.of(node("node" + (i + 1), VERY_LARGE));
        for (int j = 0; j < pods.get(i).size(); j++) {
          Started s = pods.get(i).get(j);
          n = n.withPod(startedPod("p" + (i + 1) + "." + (j + 1), s.priority(), MEDIUM, s.epochNanos()));
        }
        nodes.add(n);
        names.add(n.name());
      }
      var r = run(prio(pod("p", ResourceList.of(VERY_LARGE)), HIGH), nodes, names, List.of());
      assertThat(r.nominatedNode()).contains(node);
    });
  }

  /** A pod labelled {@code app: foo}, of {@code priority}, requesting {@code req}. */
  private static PodInfo foo(String name, int priority, ResourceList req) {
    Pod p = prio(pod(name, req), priority);
    return PodInfo.of(p.withMeta(p.meta().withLabels(Labels.of("app", "foo"))));
  }

  /** The test's PDB: {@code selector: {matchLabels: {app: foo}}} with {@code status.disruptionsAllowed}. */
  private static DisruptionBudget fooBudget(int allowed) {
    return new DisruptionBudget(new PodDisruptionBudget(ObjectMeta.named("pdb"),
        LabelSelector.matching(Labels.of("app", "foo")), Optional.empty(), Optional.empty()), allowed);
  }

  /** DryRunPreemption over {@code nodes}, every one Unschedulable, with {@code budgets} listed. */
  private static List<DefaultPreemption.Candidate> dryRun(Pod pod, List<NodeInfo> nodes, DisruptionBudget... budgets) {
    Map<String, Status> statuses = new LinkedHashMap<>();
    nodes.forEach(n -> statuses.put(n.name(), new Status(Status.Code.UNSCHEDULABLE, "", List.of())));
    FitError error = new FitError(nodes.size(), statuses, Optional.empty(), "", "");
    return new DefaultPreemption(List.of(NodeResourcesFit.leastAllocated()), () -> List.of(budgets))
        .dryRun(PodInfo.of(pod), ClusterSnapshot.ofInfos(nodes), error);
  }

  /** A candidate as the test compares it: its node, its victims' names sorted, its PDB violations. */
  private static String shown(DefaultPreemption.Candidate c) {
    return c.node() + " " + c.victims().stream().map(v -> v.pod().meta().name()).sorted().toList()
        + " violations=" + c.pdbViolations();
  }

  /**
   * TestDryRunPreemption's PDB cases: nodes of veryLargeRes, the preemptor of high priority. Upstream's
   * pods and PDB have no namespace; here both are in {@code default}.
   */
  private static List<UpstreamCase> pdbCases() {
    List<UpstreamCase> c = new ArrayList<>();
    Pod preemptor = prio(pod("p", ResourceList.of(VERY_LARGE)), HIGH);
    // node1 holds mid-priority mediumRes pods labelled app=foo; every one must go for veryLargeRes.
    java.util.function.IntFunction<NodeInfo> node1 = n -> {
      NodeInfo info = NodeInfo.of(node("node1", VERY_LARGE));
      for (int i = 1; i <= n; i++) {
        info = info.withPod(foo("p1." + i, MID, MEDIUM));
      }
      return info;
    };
    c.add(UpstreamCase.of("DefaultPreemption", FILE, "TestDryRunPreemption/preemption with violation of same pdb",
        () -> assertThat(dryRun(preemptor, List.of(node1.apply(2)), fooBudget(1))).map(PreemptionCases::shown)
            .containsExactly("node1 [p1.1, p1.2] violations=1")));
    // Its PDB lists p2 in status.disruptedPods, which names no pod of the node: the outcome is the one
    // above, which the twin gives without modelling disruptedPods.
    c.add(UpstreamCase.of("DefaultPreemption", FILE, "TestDryRunPreemption/preemption with violation of the pdb with pod"
        + " whose eviction was processed, the victim doesn't belong to DisruptedPods",
        () -> assertThat(dryRun(preemptor, List.of(node1.apply(2)), fooBudget(1))).map(PreemptionCases::shown)
            .containsExactly("node1 [p1.1, p1.2] violations=1")));
    String disrupted = "status.disruptedPods is not modelled: a pod whose eviction the API server already processed"
        + " counts against the budget like any other";
    c.add(UpstreamCase.of("DefaultPreemption", FILE, "TestDryRunPreemption/preemption with violation of the pdb with pod"
        + " whose eviction was processed, the victim belongs to DisruptedPods",
        () -> assertThat(dryRun(preemptor, List.of(node1.apply(2)), fooBudget(1))).map(PreemptionCases::shown)
            .containsExactly("node1 [p1.1, p1.2] violations=0")).differs(disrupted));
    c.add(UpstreamCase.of("DefaultPreemption", FILE, "TestDryRunPreemption/preemption with violation of the pdb with pod"
        + " whose eviction was processed, the victim which belongs to DisruptedPods is treated as 'nonViolating'",
        () -> assertThat(dryRun(preemptor, List.of(node1.apply(3)), fooBudget(1))).map(PreemptionCases::shown)
            .containsExactly("node1 [p1.1, p1.2, p1.3] violations=1")).differs(disrupted));
    // Five nodes each holding one mid-priority largeRes pod, those on node1, node2 and node5 covered by
    // a PDB allowing none; MinCandidateNodesPercentage 40, MinCandidateNodesAbsolute 2, offset 4.
    c.add(UpstreamCase.of("DefaultPreemption", FILE,
        "TestDryRunPreemption/preemption looks past numCandidates until a non-PDB violating node is found", () -> {
          List<NodeInfo> nodes = new ArrayList<>();
          for (int i = 1; i <= 5; i++) {
            PodInfo p = i == 3 || i == 4 ? PodInfo.of(prio(pod("p" + i, LARGE), MID)) : foo("p" + i, MID, LARGE);
            nodes.add(NodeInfo.of(node("node" + i, VERY_LARGE)).withPod(p));
          }
          assertThat(dryRun(prio(pod("p", LARGE), HIGH), nodes, fooBudget(0))).map(PreemptionCases::shown)
              .containsExactly("node1 [p1] violations=1", "node3 [p3] violations=0", "node5 [p5] violations=1");
        }).differs("every node is dry-run: upstream's sample of candidate nodes from a random offset"
            + " (DefaultPreemptionArgs' minCandidateNodesPercentage/Absolute) is not modelled"));
    return c;
  }

  static List<UpstreamCase> cases() {
    List<UpstreamCase> c = new ArrayList<>();
    c.add(nominated("pod with higher priority can be made schedulable", prio(pod("p"), HIGH),
        List.of(info(node("node1", ONE_POD), pod("p1"))), List.of("node1"), "node1"));
    c.add(refused("pod with tied priority is still unschedulable", pod("p"),
        List.of(info(node("node1", ONE_POD), pod("p1"))), List.of("node1"), List.of(),
        "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."));
    c.add(refused("preemption should respect filteredNodesStatuses", prio(pod("p"), HIGH),
        List.of(info(node("node1", ONE_POD), pod("p1"))), List.of(), List.of("node1"),
        "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."));
    c.add(nominated("pod can be made schedulable on one node", prio(pod("p"), MID),
        List.of(info(node("node1", ONE_POD), prio(pod("p1"), HIGH)), info(node("node2", ONE_POD), prio(pod("p2"), LOW))),
        List.of("node1", "node2"), "node2"));
    c.add(UpstreamCase.of("DefaultPreemption", FILE, "preemption result filtered out by extenders", () -> {
      throw new AssertionError("scheduler extenders are not modelled");
    }).differs("scheduler extenders are not modelled"));
    c.add(refused("no candidate nodes found, no enough resource after removing low priority pods",
        prio(pod("p", LARGE), HIGH),
        List.of(info(node("node1", NODE_RES), pod("p1")), info(node("node2", NODE_RES), pod("p2"))),
        List.of("node1", "node2"), List.of(), "preemption: 0/2 nodes are available: 2 Insufficient cpu."));
    c.add(refused("no candidate nodes found with mixed reasons, no lower priority pod and no enough CPU resource",
        prio(pod("p", LARGE), HIGH),
        List.of(info(node("node1", ONE_POD), prio(pod("p1"), HIGH)), info(node("node2", NODE_RES), pod("p2")),
            info(node("node3", ONE_POD), prio(pod("p3"), HIGH))),
        List.of("node1", "node2", "node3"), List.of(),
        "preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 No preemption victims found for incoming pod."));
    c.add(refused("no candidate nodes found with mixed reason, 2 UnschedulableAndUnresolvable nodes and 2 nodes don't have enough CPU resource",
        prio(pod("p", LARGE), HIGH),
        List.of(info(node("node1", NODE_RES), pod("p1")), info(node("node2", NODE_RES), pod("p2")),
            info(node("node3", NODE_RES)), info(node("node4", NODE_RES))),
        List.of("node1", "node2"), List.of("node4"),
        "preemption: 0/4 nodes are available: 2 Insufficient cpu, 2 Preemption is not helpful for scheduling."));
    // TestSelectBestCandidate (nodes of veryLargeRes, the preemptor veryLargeRes, two mediumRes pods a node):
    // every pod is a victim, so only the start times of the highest-priority victims separate the nodes.
    c.add(picked("TestSelectBestCandidate/same priority, same number of victims, different start time for each node's pod",
        List.of(started(MID, 2, 2), started(MID, 3, 3), started(MID, 1, 1)), "node2"));
    c.add(picked("TestSelectBestCandidate/same priority, same number of victims, different start time for all pods",
        List.of(started(MID, 4, 2), started(MID, 5, 1), started(MID, 3, 6)), "node3"));
    c.add(picked("TestSelectBestCandidate/different priority, same number of victims, different start time for all pods",
        List.of(List.of(at(LOW, 4), at(MID, 2)), List.of(at(MID, 6), at(LOW, 1)), List.of(at(LOW, 3), at(MID, 5))),
        "node2"));
    // TestDryRunPreemption: node1 full with low t5, low t4, mid t3, high t2; node2 one high pod. Victims are
    // reprieved most important first (MoreImportantPod: priority, then the earlier start), so p1.2 (t4) stays.
    c.add(UpstreamCase.of("DefaultPreemption", FILE,
        "TestDryRunPreemption/mixed priority pods are preempted, pick later StartTime one when priorities are equal", () -> {
          NodeInfo node1 = NodeInfo.of(node("node1", VERY_LARGE))
              .withPod(startedPod("p1.1", LOW, SMALL, 5)).withPod(startedPod("p1.2", LOW, SMALL, 4))
              .withPod(startedPod("p1.3", MID, MEDIUM, 3)).withPod(startedPod("p1.4", HIGH, SMALL, 2));
          NodeInfo node2 = NodeInfo.of(node("node2", VERY_LARGE)).withPod(startedPod("p2", HIGH, LARGE, 1));
          var r = run(prio(pod("p", LARGE), HIGH), List.of(node1, node2), List.of("node1", "node2"), List.of());
          assertThat(r.nominatedNode()).contains("node1");
          assertThat(r.victims()).containsExactlyInAnyOrder("default/p1.1", "default/p1.3");
        }));
    c.addAll(pdbCases());
    String pluginErrors = "the twin's plugins cannot fail with an error, so a node whose RemovePod errs is not modelled";
    for (String name : List.of("only one node but failed with TestPlugin", "one failed with TestPlugin and the other pass")) {
      c.add(UpstreamCase.of("DefaultPreemption", FILE, name, () -> {
        throw new AssertionError(pluginErrors);
      }).differs(pluginErrors));
    }
    return c;
  }
}
