package io.gpufleet.engine.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.plugin.FilterPlugin;
import io.gpufleet.engine.scheduler.plugin.NodeAffinity;
import io.gpufleet.engine.scheduler.plugin.ScoringStrategy;
import io.gpufleet.model.affinity.NodeSelectorTerm;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.model.taint.Tolerations;
import io.gpufleet.testing.property.Gen;
import io.gpufleet.testing.property.Property;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Whatever the cluster and pods, placement never overcommits a node on any resource, never puts a
 * pod on a node whose NoSchedule/NoExecute taints it does not tolerate or whose labels its
 * selector/required affinity excludes, and leaves Pending only pods that fit nowhere.
 */
class SchedulerPropertiesTest {

  static final List<String> PRODUCTS = List.of("NVIDIA-A10G", "NVIDIA-L4", "NVIDIA-H100-80GB-HBM3");
  static final List<Taint> TAINTS = List.of(
      Taint.of("nvidia.com/gpu", "true", TaintEffect.NO_SCHEDULE),
      Taint.of("spot", "true", TaintEffect.NO_EXECUTE),
      Taint.of("soft", "", TaintEffect.PREFER_NO_SCHEDULE));

  /** Fixed where the property had no seed of its own, so every build runs the same samples. */
  private static final long SEED = 20261206L;

  static Gen<Node> nodes() {
    return Gen.tuple(
        Gen.ints(1, 16),
        Gen.ints(1, 64),
        Gen.ints(0, 8),
        Gen.ints(1, 12),
        Gen.of(PRODUCTS),
        Gen.subsetOf(TAINTS),
        Gen.ints(0, 9999)).map(t -> node(t.get(0), t.get(1), t.get(2), t.get(3), t.get(4), t.get(5), t.get(6)));
  }

  private static Node node(Integer cpu, Integer memGi, Integer gpus, Integer maxPods, String product, List<Taint> taints,
      Integer id) {
    List<String> res = new ArrayList<>(List.of("cpu", cpu.toString(), "memory", memGi + "Gi",
        "pods", maxPods.toString()));
    if (gpus > 0) {
      res.add("nvidia.com/gpu");
      res.add(gpus.toString());
    }
    Labels labels = gpus > 0 ? Labels.of("nvidia.com/gpu.product", product, "gpus", gpus.toString())
        : Labels.of("gpus", "0");
    return Node.of("node-" + id, labels, List.copyOf(taints), ResourceList.of(res.toArray(String[]::new)));
  }

  static Gen<Pod> pods() {
    return Gen.tuple(
        Gen.ints(0, 8000),
        Gen.ints(0, 32),
        Gen.ints(0, 4),
        Gen.subsetOf(List.of(
            Toleration.exists("nvidia.com/gpu", TaintEffect.NO_SCHEDULE),
            Toleration.equal("spot", "true", TaintEffect.NO_EXECUTE),
            Toleration.everything())),
        Gen.of(PRODUCTS).orNull(0.6),
        Gen.ints(0, 6).orNull(0.7),
        Gen.ints(0, 9999)).map(t -> pod(t.get(0), t.get(1), t.get(2), t.get(3), t.get(4), t.get(5), t.get(6)));
  }

  private static Pod pod(Integer milli, Integer memGi, Integer gpus, List<Toleration> tolerations, String product,
      Integer minGpus, Integer id) {
    ResourceList req = ResourceList.of("cpu", milli + "m", "memory", memGi + "Gi");
    ResourceList lim = gpus > 0 ? ResourceList.of("nvidia.com/gpu", gpus.toString()) : ResourceList.EMPTY;
    PodSpec spec = PodSpec.of(Container.of("c", "img", req, lim)).withTolerations(List.copyOf(tolerations));
    if (product != null) {
      spec = spec.withNodeSelector(Labels.of("nvidia.com/gpu.product", product));
    }
    if (minGpus != null) {
      spec = spec.withNodeAffinity(io.gpufleet.model.affinity.NodeAffinity.requiring(
          NodeSelectorTerm.of(Requirement.gt("gpus", minGpus))));
    }
    return new Pod(ObjectMeta.named("pod-" + id), spec);
  }

  @Test
  void placementKeepsEveryInvariant() {
    Property.check(SEED, 300, nodeLists(), podLists(), strategies(), Gen.anyLong(), this::placementKeepsEveryInvariant);
  }

  private void placementKeepsEveryInvariant(List<Node> nodes, List<Pod> pods, ScoringStrategy strategy, long seed) {
    Scheduler scheduler = new Scheduler(SchedulerProfile.withStrategy(strategy));
    var result = BatchPlacement.place(pods, ClusterSnapshot.of(nodes), scheduler, new SplittableRandom(seed), false);
    ClusterSnapshot end = result.snapshot();
    for (NodeInfo n : end.nodes()) {
      ResourceVector alloc = n.allocatable();
      ResourceVector used = n.requested();
      assertThat(used.milliCpu()).isLessThanOrEqualTo(alloc.milliCpu());
      assertThat(used.memory()).isLessThanOrEqualTo(alloc.memory());
      assertThat(used.scalar("nvidia.com/gpu")).isLessThanOrEqualTo(alloc.scalar("nvidia.com/gpu"));
      assertThat((long) n.podCount()).isLessThanOrEqualTo(alloc.pods());
      for (PodInfo p : n.pods()) {
        assertThat(Tolerations.firstUntoleratedBlocking(n.node().taints(), p.pod().spec().tolerations())).isEmpty();
        assertThat(NodeAffinity.matches(p.pod().spec(), n)).isTrue();
      }
    }
    for (BatchPlacement.Outcome o : result.outcomes()) {
      if (o instanceof BatchPlacement.Outcome.Pending pending) {
        PodInfo p = PodInfo.of(pending.pod());
        for (NodeInfo n : end.nodes()) {
          assertThat(passesAll(scheduler.profile().filters(), p, n))
              .as("%s was left Pending but fits %s", p.name(), n.name()).isFalse();
        }
        // Every node failed for at least one reason, and the Pending pod keeps counts, not per-node statuses.
        assertThat(pending.error().histogram().values().stream().mapToInt(Integer::intValue).sum())
            .isGreaterThanOrEqualTo(nodes.size());
        assertThat(pending.error().nodeStatuses()).isEmpty();
      }
    }
  }

  /**
   * A Pending pod keeps only counts, yet its message is the one the full per-node statuses give:
   * with --explain the statuses are kept, and rebuilding the error from them (sorted by name, as a
   * plain map) says the same words as the compact one.
   */
  @Test
  void compactPendingSaysWhatTheFullStatusesSay() {
    Property.check(SEED, 200, nodeLists(), podLists(), Gen.anyLong(), this::compactPendingSaysWhatTheFullStatusesSay);
  }

  private void compactPendingSaysWhatTheFullStatusesSay(List<Node> nodes, List<Pod> pods, long seed) {
    Scheduler scheduler = new Scheduler(SchedulerProfile.defaults().withPreemption());
    var compact = BatchPlacement.place(pods, ClusterSnapshot.of(nodes), scheduler, new SplittableRandom(seed), false);
    var full = BatchPlacement.place(pods, ClusterSnapshot.of(nodes), scheduler, new SplittableRandom(seed), true);
    assertThat(compact.outcomes()).hasSameSizeAs(full.outcomes());
    for (int i = 0; i < full.outcomes().size(); i++) {
      if (full.outcomes().get(i) instanceof BatchPlacement.Outcome.Pending f) {
        var c = (BatchPlacement.Outcome.Pending) compact.outcomes().get(i);
        assertThat(c.error().nodeStatuses()).isEmpty();
        assertThat(c.error().message()).isEqualTo(f.error().message());
        FitError rebuilt = new FitError(f.error().numAllNodes(), new java.util.TreeMap<>(f.error().nodeStatuses()),
            f.error().absentStatus(), f.error().preFilterMessage(), f.error().postFilterMessage());
        assertThat(rebuilt.message()).isEqualTo(c.error().message());
        assertThat(rebuilt.histogram()).isEqualTo(c.error().histogram());
      }
    }
  }

  /**
   * The shortcuts a cycle takes (a filter skipped for a pod it cannot reject, a taint verdict
   * reused for the next node's equal taint list, the fit check without its report) decide every
   * node, in the order the scheduler visits them, exactly as each plugin's plain per-node check.
   */
  @Test
  void cycleShortcutsDecideAsThePlainPlugins() {
    Property.check(SEED, 300, nodeLists(), pods(), Gen.booleans(), this::cycleShortcutsDecideAsThePlainPlugins);
  }

  private void cycleShortcutsDecideAsThePlainPlugins(List<Node> nodes, Pod pod, boolean named) {
    ClusterSnapshot snapshot = ClusterSnapshot.of(nodes);
    if (named && !nodes.isEmpty()) {
      pod = pod.withSpec(pod.spec().withNodeName(nodes.getFirst().name()));
    }
    PodInfo p = PodInfo.of(pod);
    SchedulerProfile profile = SchedulerProfile.defaults();
    for (FilterPlugin plain : profile.filters()) {
      var cycle = plain.forCycle(p, snapshot);
      for (NodeInfo n : snapshot.nodes()) {
        if (plain instanceof io.gpufleet.engine.scheduler.plugin.PodTopologySpread
            || plain instanceof io.gpufleet.engine.scheduler.plugin.InterPodAffinity) {
          continue; // these filter only through their cycle state
        }
        Status expected = plain.filter(p, n);
        Status actual = cycle.isPresent() ? cycle.get().filter(p, n) : Status.SUCCESS;
        assertThat(actual).as("%s on %s", plain.pluginName(), n.name()).isEqualTo(expected);
      }
    }
    for (SchedulerProfile.WeightedScore ws : profile.scores()) {
      if (!(ws.plugin() instanceof io.gpufleet.engine.scheduler.plugin.TaintToleration plain)) {
        continue;
      }
      var cycle = plain.preScore(p, snapshot).orElseThrow();
      for (NodeInfo n : snapshot.nodes()) {
        assertThat(cycle.score(p, n)).as("TaintToleration score on %s", n.name()).isEqualTo(plain.score(p, n));
      }
    }
  }

  /**
   * Each plugin's batch call decides and scores every node as its plain per-node call: the filter
   * keeps exactly the nodes {@code filter} passes, in the order given (any order, here shuffled),
   * {@code passes} agrees with {@code filter}, {@code rejections} gives each rejected node the status
   * {@code filter} gives it, and {@code scoreAll} gives each node's {@code score}.
   */
  @Test
  void batchCallsDecideAsThePerNodeCalls() {
    Property.check(20261130L, 300, nodeLists(), pods(), Gen.booleans(), Gen.anyLong(),
        this::batchCallsDecideAsThePerNodeCalls);
  }

  private void batchCallsDecideAsThePerNodeCalls(List<Node> nodes, Pod pod, boolean cordon, long seed) {
    ClusterSnapshot snapshot = ClusterSnapshot.of(cordoned(nodes, cordon));
    PodInfo p = PodInfo.of(pod);
    int[] order = shuffled(snapshot.size(), seed);
    SchedulerProfile profile = SchedulerProfile.defaults();
    for (FilterPlugin plain : profile.filters()) {
      var cycle = plain.forCycle(p, snapshot);
      if (cycle.isEmpty()) {
        continue;
      }
      List<Integer> expected = new ArrayList<>();
      for (int i : order) {
        Status s = cycle.get().filter(p, snapshot.get(i));
        assertThat(cycle.get().passes(p, snapshot.get(i))).as("%s passes %d", plain.pluginName(), i)
            .isEqualTo(s.isSuccess());
        if (s.isSuccess()) {
          expected.add(i);
        }
      }
      int[] batch = order.clone();
      int kept = cycle.get().filterAll(p, snapshot, batch, batch.length);
      assertThat(java.util.Arrays.stream(batch, 0, kept).boxed().toList()).as(plain.pluginName()).isEqualTo(expected);
      int[] rejected = java.util.Arrays.stream(order).filter(i -> !expected.contains(i)).toArray();
      Status[] statuses = new Status[snapshot.size()];
      cycle.get().rejections(p, snapshot, rejected, rejected.length, statuses);
      for (int i : rejected) {
        assertThat(statuses[i]).as("%s rejects %d", plain.pluginName(), i).isEqualTo(cycle.get().filter(p, snapshot.get(i)));
      }
    }
    for (SchedulerProfile.WeightedScore ws : profile.scores()) {
      var cycle = ws.plugin().preScore(p, snapshot);
      if (cycle.isEmpty()) {
        continue;
      }
      long[] out = new long[order.length];
      cycle.get().scoreAll(p, snapshot, order, order.length, out);
      for (int j = 0; j < order.length; j++) {
        assertThat(out[j]).as("%s on %d", ws.plugin().pluginName(), order[j])
            .isEqualTo(cycle.get().score(p, snapshot.get(order[j])));
      }
    }
  }

  /**
   * The batched cycle places every pod of a sequence where the per-node cycle it replaced does
   * ({@link #perNodeCycle}): the same node and score, the same feasible and evaluated counts (so
   * the same next start index), the same random draws for ties, the same failure message. Fleets
   * of up to 300 nodes under the adaptive and fixed percentages make the cycle stop early, where a
   * batch reaches past the node that completes the wanted count. A pod that fits nowhere keeps, when
   * explained, the same status per node as the per-node cycle's first failing plugin gives.
   */
  @Test
  void batchedCyclePlacesAsThePerNodeCycle() {
    // The statuses are compared where it matters: pods whose nodes fail at different plugins.
    Map<Long, Integer> mostFailingPlugins = new TreeMap<>();
    Property.check(20261201L, 200, Gen.tuple(nodeLists(), podLists(), strategies(), Gen.booleans(), Gen.ints(1, 25),
        percentages(), Gen.anyLong()), t -> mostFailingPlugins.merge(Math.min(batchedCyclePlacesAsThePerNodeCycle(
            t.get(0), t.get(1), t.get(2), t.get(3), t.get(4), t.get(5), t.get(6)), 2), 1, Integer::sum));
    assertThat(mostFailingPlugins).as("most plugins a Pending pod's nodes failed at, per sample")
        .hasEntrySatisfying(2L, n -> assertThat(n).isGreaterThanOrEqualTo(20))
        .hasEntrySatisfying(1L, n -> assertThat(n).isGreaterThanOrEqualTo(20));
  }

  /** Runs one sample; returns the most plugins the nodes of one Pending pod failed at. */
  private long batchedCyclePlacesAsThePerNodeCycle(List<Node> base, List<Pod> pods, ScoringStrategy strategy,
      boolean cordon, int copies, int percentage, long seed) {
    List<Node> nodes = new ArrayList<>();
    for (int c = 0; c < copies; c++) {
      for (Node n : base) {
        nodes.add(Node.of(n.name() + "-" + c, n.labels(), n.taints(), n.allocatable()));
      }
    }
    SchedulerProfile profile = SchedulerProfile.withStrategy(strategy).withPercentageOfNodesToScore(percentage);
    Scheduler scheduler = new Scheduler(profile);
    ClusterSnapshot snapshot = ClusterSnapshot.of(cordoned(nodes, cordon));
    SplittableRandom batched = new SplittableRandom(seed);
    SplittableRandom plain = new SplittableRandom(seed);
    int start = 0;
    long failingPlugins = 0;
    for (Pod pod : pods) {
      PodInfo p = PodInfo.of(pod);
      ScheduleResult actual = scheduler.schedule(p, snapshot, batched, start, false);
      ScheduleResult expected = perNodeCycle(profile, p, snapshot, plain, start);
      assertThat(actual.evaluatedNodes()).as(pod.name()).isEqualTo(expected.evaluatedNodes());
      switch (expected) {
        case ScheduleResult.Scheduled e -> {
          var a = (ScheduleResult.Scheduled) actual;
          assertThat(List.of(a.node(), a.score(), a.feasibleNodes())).as(pod.name())
              .isEqualTo(List.of(e.node(), e.score(), e.feasibleNodes()));
          snapshot = snapshot.bind(p, a.node());
        }
        case ScheduleResult.Unschedulable e -> {
          assertThat(((ScheduleResult.Unschedulable) actual).error().message()).isEqualTo(e.error().message());
          // Explained, the cycle keeps each node's status: the one its first failing plugin gave.
          // No random draw is made for a pod that fits nowhere, so asking again changes nothing.
          FitError explained = ((ScheduleResult.Unschedulable) scheduler.schedule(p, snapshot, batched, start, true))
              .error();
          assertThat(explained.nodeStatuses()).as(pod.name()).isEqualTo(e.error().nodeStatuses());
          assertThat(explained.histogram()).as(pod.name()).isEqualTo(e.error().histogram());
          failingPlugins = Math.max(failingPlugins,
              e.error().nodeStatuses().values().stream().map(Status::plugin).distinct().count());
        }
      }
      if (snapshot.size() > 0) {
        start = (start + actual.evaluatedNodes()) % snapshot.size();
      }
    }
    return failingPlugins;
  }

  /**
   * The cycle as it ran before filtering and scoring were batched: each node in the rotating order
   * through the filters until one fails, scored as soon as it passes, stopping once enough are
   * feasible; then normalised, weighted, summed, the best picked by reservoir sampling. No PreFilter
   * narrows the nodes of these pods.
   */
  static ScheduleResult perNodeCycle(SchedulerProfile profile, PodInfo pod, ClusterSnapshot snapshot,
      java.util.random.RandomGenerator random, int startIndex) {
    int n = snapshot.size();
    if (n == 0) {
      return new ScheduleResult.Unschedulable(new FitError(0, java.util.Map.of(), ""), 0);
    }
    int want = profile.feasibleNodesToFind(n);
    FilterPlugin[] filters = FilterPlugin.forCycle(profile.filters(), pod, snapshot);
    int plugins = profile.scores().size();
    var scoring = new io.gpufleet.engine.scheduler.plugin.ScorePlugin[plugins];
    long[][] columns = new long[plugins][n];
    for (int q = 0; q < plugins; q++) {
      scoring[q] = profile.scores().get(q).plugin().preScore(pod, snapshot).orElse(null);
    }
    int[] feasible = new int[n];
    Status[] failures = new Status[n];
    int found = 0;
    int evaluated = 0;
    for (int k = 0; k < n && found < want; k++) {
      int i = (startIndex + k) % n;
      evaluated++;
      Status failed = null;
      for (FilterPlugin f : filters) {
        Status s = f.filter(pod, snapshot.get(i));
        if (!s.isSuccess()) {
          failed = s;
          break;
        }
      }
      if (failed != null) {
        failures[i] = failed;
        continue;
      }
      for (int q = 0; q < plugins; q++) {
        if (scoring[q] != null) {
          columns[q][found] = scoring[q].score(pod, snapshot.get(i));
        }
      }
      feasible[found++] = i;
    }
    if (found == 0) {
      return new ScheduleResult.Unschedulable(FitError.ofCycle(snapshot, failures, evaluated, java.util.Optional.empty()),
          evaluated);
    }
    if (found == 1) {
      return new ScheduleResult.Scheduled(snapshot.get(feasible[0]).name(), 0, 1, evaluated, List.of());
    }
    long[] total = new long[found];
    for (int q = 0; q < plugins; q++) {
      if (scoring[q] != null) {
        long[] column = java.util.Arrays.copyOf(columns[q], found);
        scoring[q].normalize(pod, column);
        for (int j = 0; j < found; j++) {
          total[j] += column[j] * profile.scores().get(q).weight();
        }
      }
    }
    int best = 0;
    int ties = 1;
    for (int j = 1; j < found; j++) {
      if (total[j] > total[best]) {
        best = j;
        ties = 1;
      } else if (total[j] == total[best] && random.nextInt(++ties) == 0) {
        best = j;
      }
    }
    return new ScheduleResult.Scheduled(snapshot.get(feasible[best]).name(), total[best], found, evaluated, List.of());
  }

  /** Every third node cordoned when {@code cordon}, so NodeUnschedulable has nodes to reject. */
  private static List<Node> cordoned(List<Node> nodes, boolean cordon) {
    List<Node> out = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      out.add(cordon && i % 3 == 0 ? nodes.get(i).withUnschedulable(true) : nodes.get(i));
    }
    return out;
  }

  private static int[] shuffled(int n, long seed) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      order.add(i);
    }
    java.util.Collections.shuffle(order, new java.util.Random(seed));
    return order.stream().mapToInt(Integer::intValue).toArray();
  }

  static Gen<Integer> percentages() {
    return Gen.of(0, 1, 10, 50, 100);
  }

  private static boolean passesAll(List<FilterPlugin> filters, PodInfo p, NodeInfo n) {
    return filters.stream().allMatch(f -> f.filter(p, n).isSuccess());
  }

  static Gen<List<Node>> nodeLists() {
    return nodes().uniqueList(0, 12, Node::name);
  }

  static Gen<List<Pod>> podLists() {
    return pods().uniqueList(1, 40, Pod::name);
  }

  static Gen<ScoringStrategy> strategies() {
    return Gen.of(
        new ScoringStrategy.LeastAllocated(ScoringStrategy.DEFAULT_RESOURCES),
        new ScoringStrategy.MostAllocated(ScoringStrategy.DEFAULT_RESOURCES),
        ScoringStrategy.RequestedToCapacityRatio.binPacking(ScoringStrategy.DEFAULT_RESOURCES));
  }
}
