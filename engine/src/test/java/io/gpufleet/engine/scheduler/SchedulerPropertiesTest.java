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
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * Whatever the cluster and pods, placement never overcommits a node on any resource, never puts a
 * pod on a node whose NoSchedule/NoExecute taints it does not tolerate or whose labels its
 * selector/required affinity excludes, and leaves Pending only pods that fit nowhere.
 */
class SchedulerPropertiesTest {

  private static final List<String> PRODUCTS = List.of("NVIDIA-A10G", "NVIDIA-L4", "NVIDIA-H100-80GB-HBM3");
  private static final List<Taint> TAINTS = List.of(
      Taint.of("nvidia.com/gpu", "true", TaintEffect.NO_SCHEDULE),
      Taint.of("spot", "true", TaintEffect.NO_EXECUTE),
      Taint.of("soft", "", TaintEffect.PREFER_NO_SCHEDULE));

  @Provide
  Arbitrary<Node> nodes() {
    return Combinators.combine(
        Arbitraries.integers().between(1, 16),
        Arbitraries.integers().between(1, 64),
        Arbitraries.integers().between(0, 8),
        Arbitraries.integers().between(1, 12),
        Arbitraries.of(PRODUCTS),
        Arbitraries.subsetOf(TAINTS),
        Arbitraries.integers().between(0, 9999)).as((cpu, memGi, gpus, maxPods, product, taints, id) -> {
          List<String> res = new ArrayList<>(List.of("cpu", cpu.toString(), "memory", memGi + "Gi",
              "pods", maxPods.toString()));
          if (gpus > 0) {
            res.add("nvidia.com/gpu");
            res.add(gpus.toString());
          }
          Labels labels = gpus > 0 ? Labels.of("nvidia.com/gpu.product", product, "gpus", gpus.toString())
              : Labels.of("gpus", "0");
          return Node.of("node-" + id, labels, List.copyOf(taints), ResourceList.of(res.toArray(String[]::new)));
        });
  }

  @Provide
  Arbitrary<Pod> pods() {
    return Combinators.combine(
        Arbitraries.integers().between(0, 8000),
        Arbitraries.integers().between(0, 32),
        Arbitraries.integers().between(0, 4),
        Arbitraries.subsetOf(List.of(
            Toleration.exists("nvidia.com/gpu", TaintEffect.NO_SCHEDULE),
            Toleration.equal("spot", "true", TaintEffect.NO_EXECUTE),
            Toleration.everything())),
        Arbitraries.of(PRODUCTS).injectNull(0.6),
        Arbitraries.integers().between(0, 6).injectNull(0.7),
        Arbitraries.integers().between(0, 9999)).as((milli, memGi, gpus, tolerations, product, minGpus, id) -> {
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
        });
  }

  @Property(tries = 300)
  void placementKeepsEveryInvariant(
      @ForAll("nodeLists") List<Node> nodes, @ForAll("podLists") List<Pod> pods,
      @ForAll("strategies") ScoringStrategy strategy, @ForAll long seed) {
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
  @Property(tries = 200)
  void compactPendingSaysWhatTheFullStatusesSay(
      @ForAll("nodeLists") List<Node> nodes, @ForAll("podLists") List<Pod> pods, @ForAll long seed) {
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
  @Property(tries = 300)
  void cycleShortcutsDecideAsThePlainPlugins(
      @ForAll("nodeLists") List<Node> nodes, @ForAll("pods") Pod pod, @ForAll boolean named) {
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
  @Property(tries = 300, seed = "20261130")
  void batchCallsDecideAsThePerNodeCalls(
      @ForAll("nodeLists") List<Node> nodes, @ForAll("pods") Pod pod, @ForAll boolean cordon, @ForAll long seed) {
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
  @Property(tries = 200, seed = "20261201")
  void batchedCyclePlacesAsThePerNodeCycle(
      @ForAll("nodeLists") List<Node> base, @ForAll("podLists") List<Pod> pods,
      @ForAll("strategies") ScoringStrategy strategy, @ForAll boolean cordon,
      @ForAll @net.jqwik.api.constraints.IntRange(min = 1, max = 25) int copies,
      @ForAll("percentages") int percentage, @ForAll long seed) {
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
    // The statuses are compared where it matters: pods whose nodes fail at different plugins.
    Statistics.label("most plugins a Pending pod's nodes failed at").collect(Math.min(failingPlugins, 2));
    Statistics.label("most plugins a Pending pod's nodes failed at").coverage(cov -> {
      cov.check(2L).count(c -> c >= 20);
      cov.check(1L).count(c -> c >= 20);
    });
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

  @Provide
  Arbitrary<Integer> percentages() {
    return Arbitraries.of(0, 1, 10, 50, 100);
  }

  private static boolean passesAll(List<FilterPlugin> filters, PodInfo p, NodeInfo n) {
    return filters.stream().allMatch(f -> f.filter(p, n).isSuccess());
  }

  @Provide
  Arbitrary<List<Node>> nodeLists() {
    return nodes().list().ofMinSize(0).ofMaxSize(12).uniqueElements(Node::name);
  }

  @Provide
  Arbitrary<List<Pod>> podLists() {
    return pods().list().ofMinSize(1).ofMaxSize(40).uniqueElements(Pod::name);
  }

  @Provide
  Arbitrary<ScoringStrategy> strategies() {
    return Arbitraries.of(
        new ScoringStrategy.LeastAllocated(ScoringStrategy.DEFAULT_RESOURCES),
        new ScoringStrategy.MostAllocated(ScoringStrategy.DEFAULT_RESOURCES),
        ScoringStrategy.RequestedToCapacityRatio.binPacking(ScoringStrategy.DEFAULT_RESOURCES));
  }
}
