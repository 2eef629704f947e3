package io.gpufleet.engine.scheduler;

import static io.gpufleet.engine.scheduler.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.plugin.ScoringStrategy;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SchedulerTest {

  private final Scheduler scheduler = new Scheduler(SchedulerProfile.defaults());

  private ScheduleResult schedule(Pod pod, ClusterSnapshot snapshot) {
    return scheduler.schedule(PodInfo.of(pod), snapshot, new SplittableRandom(1));
  }

  @Test
  void aGpuPodWithoutTolerationGetsKubeSchedulersExactMessage() {
    ClusterSnapshot snapshot = ClusterSnapshot.of(List.of(gpuNode("gpu-1", 1), cpuNode("cpu-1"), cpuNode("cpu-2")));
    ScheduleResult r = schedule(pod("inference", "1", "2Gi", 1), snapshot);
    assertThat(r).isInstanceOf(ScheduleResult.Unschedulable.class);
    assertThat(((ScheduleResult.Unschedulable) r).error().message()).isEqualTo(
        "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient nvidia.com/gpu.");
  }

  @Test
  void reasonsAreCountedPerReasonAndSortedAsStrings() {
    Node cordoned = cpuNode("c").withUnschedulable(true);
    Node small = node("s", "500m", "1Gi", 0, Labels.EMPTY);
    ClusterSnapshot snapshot = ClusterSnapshot.of(List.of(gpuNode("g1", 1), gpuNode("g2", 1), cordoned, small,
        cpuNode("x")));
    ScheduleResult r = schedule(pod("p", "2", "4Gi", 1), snapshot);
    // small fails on cpu, memory and gpu: each reason counts once for it.
    assertThat(((ScheduleResult.Unschedulable) r).error().message()).isEqualTo(
        "0/5 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, "
            + "1 node(s) were unschedulable, 2 Insufficient nvidia.com/gpu, "
            + "2 node(s) had untolerated taint(s).");
  }

  @Test
  void noNodesAtAll() {
    ScheduleResult r = schedule(pod("p", "1", "1Gi", 0), ClusterSnapshot.of(List.of()));
    assertThat(((ScheduleResult.Unschedulable) r).error().message()).isEqualTo("no nodes available to schedule pods");
  }

  @Test
  void leastAllocatedSpreadsAndMostAllocatedPacks() {
    ClusterSnapshot snapshot = ClusterSnapshot.of(List.of(cpuNode("a"), cpuNode("b")))
        .bind(PodInfo.of(pod("existing", "2", "8Gi", 0)), "a");
    Pod p = pod("p", "1", "1Gi", 0);
    assertThat(((ScheduleResult.Scheduled) schedule(p, snapshot)).node()).isEqualTo("b");
    Scheduler packing = new Scheduler(SchedulerProfile.withStrategy(
        new ScoringStrategy.MostAllocated(ScoringStrategy.DEFAULT_RESOURCES)));
    assertThat(((ScheduleResult.Scheduled) packing.schedule(PodInfo.of(p), snapshot, new SplittableRandom(1))).node())
        .isEqualTo("a");
  }

  @Test
  void tiesAreBrokenFromTheSeedReproducibly() {
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      nodes.add(cpuNode("n" + i));
    }
    ClusterSnapshot snapshot = ClusterSnapshot.of(nodes);
    Set<String> chosen = new HashSet<>();
    for (long seed = 0; seed < 40; seed++) {
      PodInfo p = PodInfo.of(pod("p", "1", "1Gi", 0));
      String first = ((ScheduleResult.Scheduled) scheduler.schedule(p, snapshot, new SplittableRandom(seed))).node();
      String again = ((ScheduleResult.Scheduled) scheduler.schedule(p, snapshot, new SplittableRandom(seed))).node();
      assertThat(again).isEqualTo(first);
      chosen.add(first);
    }
    assertThat(chosen).hasSizeGreaterThan(3);
  }

  @ParameterizedTest(name = "{0} nodes, {1}% -> {2}")
  @CsvSource({"50, 0, 50", "100, 0, 100", "1000, 0, 420", "5000, 0, 500", "6000, 0, 300", "5000, 100, 5000",
      "5000, 1, 100", "5000, 30, 1500"})
  void feasibleNodesToFindFollowsKubeScheduler(int nodes, int percentage, int expected) {
    assertThat(SchedulerProfile.defaults().withPercentageOfNodesToScore(percentage).feasibleNodesToFind(nodes))
        .isEqualTo(expected);
  }

  @Test
  void theSearchStopsAtEnoughFeasibleNodesAndTheCallerRotatesTheStart() {
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      nodes.add(cpuNode(String.format("n%04d", i)));
    }
    ClusterSnapshot snapshot = ClusterSnapshot.of(nodes);
    var r = (ScheduleResult.Scheduled) scheduler.schedule(PodInfo.of(pod("p", "1", "1Gi", 0)), snapshot,
        new SplittableRandom(1), 990, false);
    assertThat(r.feasibleNodes()).isEqualTo(420);
    assertThat(r.evaluatedNodes()).isEqualTo(420);
  }

  @Test
  void explainRanksNodesWithEachPluginsWeightedScore() {
    ClusterSnapshot snapshot = ClusterSnapshot.of(List.of(cpuNode("a"), cpuNode("b")))
        .bind(PodInfo.of(pod("existing", "2", "8Gi", 0)), "a");
    var r = (ScheduleResult.Scheduled) scheduler.schedule(PodInfo.of(pod("p", "1", "1Gi", 0)), snapshot,
        new SplittableRandom(1), 0, true);
    assertThat(r.ranking()).extracting(ScheduleResult.NodeScore::node).containsExactly("b", "a");
    assertThat(r.ranking().getFirst().plugins()).extracting(ScheduleResult.PluginScore::plugin)
        .contains("TaintToleration", "NodeResourcesFit", "NodeResourcesBalancedAllocation");
    assertThat(r.ranking().getFirst().total()).isEqualTo(r.score());
  }

  @Test
  void batchPlacementFillsTheGpuAndLeavesTheRestPending() {
    ClusterSnapshot snapshot = ClusterSnapshot.of(List.of(gpuNode("g", 2), cpuNode("c")));
    var result = BatchPlacement.place(List.of(gpuPod("a", 1), gpuPod("b", 1), gpuPod("c", 1)), snapshot, scheduler,
        new SplittableRandom(3), false);
    assertThat(result.outcomes()).extracting(o -> o.getClass().getSimpleName())
        .containsExactly("Bound", "Bound", "Pending");
    assertThat(((BatchPlacement.Outcome.Pending) result.outcomes().get(2)).error().message()).isEqualTo(
        "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.");
    assertThat(result.snapshot().node("g").orElseThrow().requested().scalar("nvidia.com/gpu")).isEqualTo(2);
  }

  @Test
  void higherPriorityPodsAreScheduledFirst() {
    Pod low = gpuPod("low", 1);
    Pod high = gpuPod("high", 1);
    high = high.withSpec(high.spec().withPriority(1000));
    var result = BatchPlacement.place(List.of(low, high), ClusterSnapshot.of(List.of(gpuNode("g", 1))), scheduler,
        new SplittableRandom(1), false);
    assertThat(result.outcomes().getFirst().pod().name()).isEqualTo("high");
    assertThat(result.outcomes().getFirst()).isInstanceOf(BatchPlacement.Outcome.Bound.class);
    assertThat(result.outcomes().get(1)).isInstanceOf(BatchPlacement.Outcome.Pending.class);
  }

  @Test
  void podsThatNameANodeMeetTheKubeletNotTheScheduler() {
    Pod pinned = gpuPod("pinned", 1);
    pinned = pinned.withSpec(pinned.spec().withNodeName("c"));
    var result = BatchPlacement.place(List.of(pinned), ClusterSnapshot.of(List.of(gpuNode("g", 1), cpuNode("c"))),
        scheduler, new SplittableRandom(1), false);
    var rejected = (BatchPlacement.Outcome.Rejected) result.outcomes().getFirst();
    assertThat(rejected.reason()).isEqualTo("OutOfnvidia.com/gpu");
    // pkg/kubelet/lifecycle/predicate.go: InsufficientResourceError, prefixed by rejectPod.
    assertThat(rejected.message()).isEqualTo(
        "Pod was rejected: Node didn't have enough resource: nvidia.com/gpu, requested: 1, used: 0, capacity: 0");
  }

  @Test
  void theKubeletCountsWhatBoundPodsAlreadyUse() {
    Pod first = pod("first", "3", "1Gi", 0).withSpec(pod("first", "3", "1Gi", 0).spec().withNodeName("c"));
    Pod second = pod("second", "2", "1Gi", 0).withSpec(pod("second", "2", "1Gi", 0).spec().withNodeName("c"));
    var result = BatchPlacement.place(List.of(first, second), ClusterSnapshot.of(List.of(cpuNode("c"))), scheduler,
        new SplittableRandom(1), false);
    var rejected = (BatchPlacement.Outcome.Rejected) result.outcomes().get(1);
    assertThat(rejected.reason()).isEqualTo("OutOfcpu");
    assertThat(rejected.message()).isEqualTo(
        "Pod was rejected: Node didn't have enough resource: cpu, requested: 2000, used: 3000, capacity: 4000");
  }

  @Test
  void aPodNamingAMissingNodeStaysPendingWithoutASchedulerEvent() {
    Pod ghost = gpuPod("ghost", 1);
    ghost = ghost.withSpec(ghost.spec().withNodeName("gone"));
    var result = BatchPlacement.place(List.of(ghost), ClusterSnapshot.of(List.of(gpuNode("g", 1))), scheduler,
        new SplittableRandom(1), false);
    assertThat(result.outcomes().getFirst()).isEqualTo(new BatchPlacement.Outcome.Orphaned(ghost, "gone"));
  }

  private static Pod pinnedTo(Pod pod, String... nodeNamesPerTerm) {
    List<io.gpufleet.model.affinity.NodeSelectorTerm> terms = new ArrayList<>();
    for (String name : nodeNamesPerTerm) {
      terms.add(new io.gpufleet.model.affinity.NodeSelectorTerm(List.of(),
          List.of(io.gpufleet.model.label.Requirement.in("metadata.name", name))));
    }
    var affinity = io.gpufleet.model.affinity.NodeAffinity.requiring(
        terms.toArray(io.gpufleet.model.affinity.NodeSelectorTerm[]::new));
    return pod.withSpec(pod.spec().withNodeAffinity(affinity));
  }

  @Test
  void aDaemonPodPinnedToAFullNodeCountsTheOthersAsNotSatisfyingNodeAffinity() {
    Pod daemon = pinnedTo(pod("dcgm-exporter", "5", "1Gi", 0), "c1");
    ScheduleResult r = schedule(daemon, ClusterSnapshot.of(List.of(cpuNode("c1"), cpuNode("c2"), cpuNode("c3"))));
    assertThat(((ScheduleResult.Unschedulable) r).error().message()).isEqualTo(
        "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity].");
  }

  @Test
  void aPodPinnedToAMissingNodeFailsOnEveryNodeByNodeAffinity() {
    Pod daemon = pinnedTo(pod("d", "1", "1Gi", 0), "gone");
    ScheduleResult r = schedule(daemon, ClusterSnapshot.of(List.of(cpuNode("c1"), cpuNode("c2"))));
    assertThat(((ScheduleResult.Unschedulable) r).error().message()).isEqualTo(
        "0/2 nodes are available: 2 node(s) didn't satisfy plugin(s) [NodeAffinity].");
  }

  @Test
  void aPodPinnedToOneOfManyNodesIsPlacedOnIt() {
    Pod daemon = pinnedTo(pod("d", "1", "1Gi", 0), "c2");
    ScheduleResult r = schedule(daemon, ClusterSnapshot.of(List.of(cpuNode("c1"), cpuNode("c2"), cpuNode("c3"))));
    assertThat(((ScheduleResult.Scheduled) r).node()).isEqualTo("c2");
    assertThat(r.evaluatedNodes()).isEqualTo(1);
  }

  @Test
  void termsThatNameDisjointNodesInOneTermConflict() {
    Pod pod = pod("p", "1", "1Gi", 0);
    var term = new io.gpufleet.model.affinity.NodeSelectorTerm(List.of(), List.of(
        io.gpufleet.model.label.Requirement.in("metadata.name", "c1"),
        io.gpufleet.model.label.Requirement.in("metadata.name", "c2")));
    pod = pod.withSpec(pod.spec().withNodeAffinity(io.gpufleet.model.affinity.NodeAffinity.requiring(term)));
    ScheduleResult r = schedule(pod, ClusterSnapshot.of(List.of(cpuNode("c1"), cpuNode("c2"))));
    assertThat(((ScheduleResult.Unschedulable) r).error().message()).isEqualTo(
        "0/2 nodes are available: pod affinity terms conflict.");
  }

  @Test
  void podsAlreadyOnANodeAreTheStateTheQueueStartsFrom() {
    Pod running = gpuPod("running", 2);
    running = running.withSpec(running.spec().withNodeName("a"));
    Scheduler packing = new Scheduler(SchedulerProfile.withStrategy(
        new ScoringStrategy.MostAllocated(ScoringStrategy.DEFAULT_RESOURCES)));
    // Listed after the new pod, the running pod still counts when the new one is placed.
    var result = BatchPlacement.place(List.of(gpuPod("new", 1), running),
        ClusterSnapshot.of(List.of(gpuNode("a", 4), gpuNode("b", 4))), packing, new SplittableRandom(1), false);
    assertThat(result.outcomes()).extracting(o -> o.pod().name()).containsExactly("running", "new");
    assertThat(((BatchPlacement.Outcome.Bound) result.outcomes().get(1)).node()).isEqualTo("a");
  }
}
