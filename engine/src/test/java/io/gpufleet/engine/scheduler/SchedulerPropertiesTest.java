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
