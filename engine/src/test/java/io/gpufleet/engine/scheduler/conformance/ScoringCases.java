package io.gpufleet.engine.scheduler.conformance;

import static io.gpufleet.engine.scheduler.conformance.K.*;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.plugin.NodeResourcesBalancedAllocation;
import io.gpufleet.engine.scheduler.plugin.NodeResourcesFit;
import io.gpufleet.engine.scheduler.plugin.ResourceWeight;
import io.gpufleet.engine.scheduler.plugin.ScorePlugin;
import io.gpufleet.engine.scheduler.plugin.ScoringStrategy;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;

/**
 * Score strategies: {@code least_allocated_test.go} (TestLeastAllocatedScoringStrategy),
 * {@code most_allocated_test.go} (TestMostAllocatedScoringStrategy),
 * {@code requested_to_capacity_ratio_test.go} (TestRequestedToCapacityRatioScoringStrategy,
 * TestResourceBinPackingSingleExtended) and
 * {@code balanced_allocation_test.go} (TestNodeResourcesBalancedAllocation), both under
 * {@code pkg/scheduler/framework/plugins/noderesources/}.
 */
final class ScoringCases {
  private ScoringCases() {}

  static final String LEAST = "pkg/scheduler/framework/plugins/noderesources/least_allocated_test.go";
  static final String BALANCED = "pkg/scheduler/framework/plugins/noderesources/balanced_allocation_test.go";
  private static final String EXT = "abc.com/xyz";

  /** {@code st.MakeNode().Capacity({"cpu": cores, "memory": bytes, ...})}. */
  private static Node cap(String name, String... resources) {
    List<String> kv = new ArrayList<>(List.of(resources));
    kv.add("pods");
    kv.add("110");
    return Node.of(name, Labels.EMPTY, List.of(), ResourceList.of(kv.toArray(String[]::new)));
  }

  private static Pod req(String... containers) {
    ResourceList[] lists = new ResourceList[containers.length / 2];
    for (int i = 0; i < lists.length; i++) {
      lists[i] = ResourceList.of("cpu", containers[2 * i], "memory", containers[2 * i + 1]);
    }
    return pod("p", lists);
  }

  private static Pod used(String cpu, String memory) {
    return pod("u", ResourceList.of("cpu", cpu, "memory", memory));
  }

  private static ScorePlugin least(ResourceWeight... resources) {
    return new NodeResourcesFit(new ScoringStrategy.LeastAllocated(List.of(resources)));
  }

  private static final ResourceWeight[] DEFAULT = {new ResourceWeight("cpu", 1), new ResourceWeight("memory", 1)};

  private static UpstreamCase score(String plugin, String file, String name, ScorePlugin p, Pod pod,
      List<NodeInfo> nodes, long... want) {
    return UpstreamCase.of(plugin, file, name, () -> {
      // Raw scores: neither strategy normalises.
      assertScores(p, pod, nodes, want);
    });
  }

  /** Upstream's {@code makeNode(name, milliCPU, memory, scalars)}. */
  private static Node milli(String name, long milliCpu, long memory, String... scalars) {
    List<String> kv = new ArrayList<>(List.of("cpu", milliCpu + "m", "memory", Long.toString(memory)));
    kv.addAll(List.of(scalars));
    return cap(name, kv.toArray(String[]::new));
  }

  private static UpstreamCase balanced(String name, ScorePlugin p, Pod pod, List<NodeInfo> nodes, long... want) {
    return score("NodeResourcesBalancedAllocation", BALANCED, name, p, pod, nodes, want);
  }

  static final String RTCR = "pkg/scheduler/framework/plugins/noderesources/requested_to_capacity_ratio_test.go";
  static final String MOST = "pkg/scheduler/framework/plugins/noderesources/most_allocated_test.go";

  private static ScorePlugin mostAllocated(ResourceWeight... resources) {
    return new NodeResourcesFit(new ScoringStrategy.MostAllocated(List.of(resources)));
  }

  private static UpstreamCase most(String name, ScorePlugin p, Pod pod, List<NodeInfo> nodes, long... want) {
    return score("NodeResourcesFit scoring", MOST, name, p, pod, nodes, want);
  }

  private static UpstreamCase least(String name, Pod pod, List<NodeInfo> nodes, long... want) {
    return score("NodeResourcesFit scoring", LEAST, name, least(DEFAULT), pod, nodes, want);
  }

  static List<UpstreamCase> cases() {
    List<UpstreamCase> c = new ArrayList<>();
    Pod twoContainers = req("1000", "2000", "2000", "3000");
    c.add(least("nothing scheduled, nothing requested", pod("p"),
        List.of(info(cap("node1", "cpu", "4000", "memory", "10000")), info(cap("node2", "cpu", "4000", "memory", "10000"))),
        100, 100));
    c.add(least("nothing scheduled, resources requested, differently sized nodes", twoContainers,
        List.of(info(cap("node1", "cpu", "4000", "memory", "10000")), info(cap("node2", "cpu", "6000", "memory", "10000"))),
        37, 50));
    c.add(UpstreamCase.of("NodeResourcesFit scoring", LEAST, "Resources not set, pods scheduled with error",
        () -> assertThatThrownBy(() -> new NodeResourcesFit(new ScoringStrategy.LeastAllocated(List.of()))
            .score(io.gpufleet.engine.scheduler.PodInfo.of(twoContainers),
                info(cap("node1", "cpu", "4000", "memory", "10000"))))
            .isInstanceOf(IllegalArgumentException.class))
        .differs("upstream's Score returns an Error status for a strategy with no resources; the twin has no "
            + "error status and scores such nodes 0"));
    c.add(least("no resources requested, pods scheduled", pod("p"),
        List.of(info(cap("node1", "cpu", "4000", "memory", "10000"), pod("a"), pod("b")),
            info(cap("node2", "cpu", "4000", "memory", "10000"), pod("c"), pod("d"))), 100, 100));
    c.add(least("no resources requested, pods scheduled with resources", pod("p"),
        List.of(info(cap("node1", "cpu", "10000", "memory", "20000"), used("3000", "0"), used("3000", "0")),
            info(cap("node2", "cpu", "10000", "memory", "20000"), used("3000", "0"), used("3000", "5000"))), 70, 57));
    c.add(least("resources requested, pods scheduled with resources", twoContainers,
        List.of(info(cap("node1", "cpu", "10000", "memory", "20000"), used("3000", "0")),
            info(cap("node2", "cpu", "10000", "memory", "20000"), used("3000", "5000"))), 57, 45));
    c.add(least("resources requested, pods scheduled with resources, differently sized nodes", twoContainers,
        List.of(info(cap("node1", "cpu", "10000", "memory", "20000"), used("3000", "0")),
            info(cap("node2", "cpu", "10000", "memory", "50000"), used("3000", "5000"))), 57, 60));
    c.add(least("requested resources exceed node capacity", req("3000", "0"),
        List.of(info(cap("node1", "cpu", "4000", "memory", "10000"), used("3000", "0")),
            info(cap("node2", "cpu", "4000", "memory", "10000"), used("3000", "5000"))), 50, 25));
    c.add(least("zero node resources, pods scheduled with resources", pod("p"),
        List.of(info(cap("node1"), used("3000", "0")), info(cap("node2"), used("3000", "5000"))), 0, 0));
    c.add(score("NodeResourcesFit scoring", LEAST,
        "nothing scheduled, resources requested with different weight on CPU and memory, differently sized nodes",
        least(new ResourceWeight("memory", 2), new ResourceWeight("cpu", 1)), twoContainers,
        List.of(info(cap("node1", "cpu", "4000", "memory", "10000")), info(cap("node2", "cpu", "6000", "memory", "10000"))),
        41, 50));
    c.add(UpstreamCase.of("NodeResourcesFit scoring", LEAST, "resource with negative weight",
        () -> assertThatThrownBy(() -> new ResourceWeight("memory", -1)).isInstanceOf(IllegalArgumentException.class)));
    c.add(UpstreamCase.of("NodeResourcesFit scoring", LEAST, "resource with zero weight",
        () -> assertThatThrownBy(() -> new ResourceWeight("cpu", 0)).isInstanceOf(IllegalArgumentException.class)));
    c.add(UpstreamCase.of("NodeResourcesFit scoring", LEAST, "resource weight larger than MaxNodeScore",
        () -> assertThatThrownBy(() -> new ResourceWeight("cpu", 101)).isInstanceOf(IllegalArgumentException.class)));
    ResourceWeight[] withExt = {new ResourceWeight("cpu", 1), new ResourceWeight("memory", 1), new ResourceWeight(EXT, 1)};
    c.add(score("NodeResourcesFit scoring", LEAST, "bypass extended resource if the pod does not request",
        least(withExt), twoContainers,
        List.of(info(cap("node1", "cpu", "6000", "memory", "10000")),
            info(cap("node2", "cpu", "6000", "memory", "10000", EXT, "4"))), 50, 50));
    c.add(score("NodeResourcesFit scoring", LEAST, "honor extended resource if the pod requests", least(withExt),
        pod("p", ResourceList.of("cpu", "3000", "memory", "5000", EXT, "2")),
        List.of(info(cap("node1", "cpu", "6000", "memory", "10000", EXT, "4")),
            info(cap("node2", "cpu", "6000", "memory", "10000", EXT, "10"))), 50, 60));
    c.add(score("NodeResourcesFit scoring", LEAST, "if the node doesn't have a resource",
        least(new ResourceWeight(EXT, 2), new ResourceWeight("cpu", 1), new ResourceWeight("memory", 1)),
        req("3000", "4000"),
        List.of(info(cap("node1", "cpu", "6000", "memory", "10000")),
            info(cap("node2", "cpu", "6000", "memory", "10000", EXT, "4"))), 55, 55));

    // TestMostAllocatedScoringStrategy
    c.add(most("nothing scheduled, nothing requested", mostAllocated(DEFAULT), pod("p"),
        List.of(info(cap("node1", "cpu", "4000", "memory", "10000")), info(cap("node2", "cpu", "4000", "memory", "10000"))),
        0, 0));
    c.add(most("nothing scheduled, resources requested, differently sized nodes", mostAllocated(DEFAULT), twoContainers,
        List.of(info(cap("node1", "cpu", "4000", "memory", "10000")), info(cap("node2", "cpu", "6000", "memory", "10000"))),
        62, 50));
    c.add(UpstreamCase.of("NodeResourcesFit scoring", MOST, "Resources not set, pods scheduled with error", () -> {
      throw new AssertionError("no error status in the twin");
    }).differs("upstream's Score returns an Error status for a strategy with no resources; the twin has no "
        + "error status and scores such nodes 0"));
    c.add(most("no resources requested, pods scheduled with resources", mostAllocated(DEFAULT), pod("p"),
        List.of(info(cap("node1", "cpu", "10000", "memory", "20000"), used("3000", "0"), used("3000", "0")),
            info(cap("node2", "cpu", "10000", "memory", "20000"), used("3000", "0"), used("3000", "5000"))), 30, 42));
    c.add(most("resources requested, pods scheduled with resources", mostAllocated(DEFAULT), twoContainers,
        List.of(info(cap("node1", "cpu", "10000", "memory", "20000"), used("3000", "0")),
            info(cap("node2", "cpu", "10000", "memory", "20000"), used("3000", "5000"))), 42, 55));
    c.add(most("resources requested equal node capacity", mostAllocated(DEFAULT), req("2000", "4000", "3000", "5000"),
        List.of(info(cap("node1", "cpu", "5000", "memory", "10000")), info(cap("node2", "cpu", "10000", "memory", "9000"))),
        95, 75));
    c.add(most("nothing scheduled, resources requested, differently sized nodes#01",
        mostAllocated(new ResourceWeight("memory", 2), new ResourceWeight("cpu", 1)), twoContainers,
        List.of(info(cap("node1", "cpu", "4000", "memory", "10000")), info(cap("node2", "cpu", "6000", "memory", "10000"))),
        58, 50));
    Pod emptyContainer = pod("p", ResourceList.EMPTY);
    c.add(most("no resources requested, pods scheduled, nonzero request for resource", mostAllocated(DEFAULT),
        emptyContainer,
        List.of(info(cap("node1", "cpu", "250m", "memory", "1000Mi"), pod("a", ResourceList.EMPTY),
            pod("b", ResourceList.EMPTY)), info(cap("node2", "cpu", "250m", "memory", "1000Mi"))), 80, 30));
    for (String[] w : new String[][] {{"resource with negative weight", "-1"}, {"resource with zero weight", "0"},
        {"resource weight larger than MaxNodeScore", "101"}}) {
      c.add(UpstreamCase.of("NodeResourcesFit scoring", MOST, w[0], () -> assertThatThrownBy(
          () -> new ResourceWeight("memory", Integer.parseInt(w[1]))).isInstanceOf(IllegalArgumentException.class)));
    }
    c.add(most("bypass extended resource if the pod does not request", mostAllocated(withExt), twoContainers,
        List.of(info(cap("node1", "cpu", "6000", "memory", "10000")),
            info(cap("node2", "cpu", "6000", "memory", "10000", EXT, "4"))), 50, 50));
    c.add(most("honor extended resource if the pod request", mostAllocated(withExt),
        pod("p", ResourceList.of("cpu", "3000", "memory", "5000", EXT, "2")),
        List.of(info(cap("node1", "cpu", "6000", "memory", "10000", EXT, "4")),
            info(cap("node2", "cpu", "6000", "memory", "10000", EXT, "10"))), 50, 40));
    c.add(most("if the node doesn't have a resource",
        mostAllocated(new ResourceWeight(EXT, 2), new ResourceWeight("cpu", 1), new ResourceWeight("memory", 1)),
        req("3000", "4000"),
        List.of(info(cap("node1", "cpu", "6000", "memory", "10000")),
            info(cap("node2", "cpu", "6000", "memory", "10000", EXT, "4"))), 45, 45));

    // TestRequestedToCapacityRatioScoringStrategy: shape 0 -> 10, 100 -> 0.
    ScorePlugin rtcr = new NodeResourcesFit(new ScoringStrategy.RequestedToCapacityRatio(List.of(DEFAULT),
        List.of(new ScoringStrategy.RequestedToCapacityRatio.ShapePoint(0, 10),
            new ScoringStrategy.RequestedToCapacityRatio.ShapePoint(100, 0))));
    c.add(score("NodeResourcesFit scoring", RTCR,
        "nothing scheduled, nothing requested (default - least requested nodes have priority)", rtcr, pod("p"),
        List.of(info(cap("node1", "cpu", "4000", "memory", "10000"), pod("a"), pod("b")),
            info(cap("node2", "cpu", "4000", "memory", "10000"))), 100, 100));
    c.add(score("NodeResourcesFit scoring", RTCR,
        "nothing scheduled, resources requested, differently sized nodes (default - least requested nodes have priority)",
        rtcr, twoContainers,
        List.of(info(cap("node1", "cpu", "4000", "memory", "10000"), pod("a"), pod("b")),
            info(cap("node2", "cpu", "6000", "memory", "10000"))), 38, 50));
    c.add(score("NodeResourcesFit scoring", RTCR,
        "no resources requested, pods scheduled with resources (default - least requested nodes have priority)", rtcr,
        pod("p"), List.of(info(cap("node1", "cpu", "4000", "memory", "10000"), used("3000", "5000")),
            info(cap("node2", "cpu", "6000", "memory", "10000"), used("3000", "5000"))), 38, 50));
    // TestResourceBinPackingSingleExtended: intel.com/foo weight 1, shape 0 -> 0, 100 -> 1.
    ScorePlugin foo = new NodeResourcesFit(new ScoringStrategy.RequestedToCapacityRatio(
        List.of(new ResourceWeight("intel.com/foo", 1)),
        List.of(new ScoringStrategy.RequestedToCapacityRatio.ShapePoint(0, 0),
            new ScoringStrategy.RequestedToCapacityRatio.ShapePoint(100, 1))));
    Node foo8 = milli("node1", 4000, 10000L * 1024 * 1024, "intel.com/foo", "8");
    Node foo4 = milli("node2", 4000, 10000L * 1024 * 1024, "intel.com/foo", "4");
    Pod foo2 = pod("p", ResourceList.of("intel.com/foo", "2"));
    c.add(score("NodeResourcesFit scoring", RTCR, "nothing scheduled, nothing requested", foo, pod("p"),
        List.of(info(foo8), info(foo4)), 0, 0));
    c.add(score("NodeResourcesFit scoring", RTCR, "resources requested, pods scheduled with less resources", foo, foo2,
        List.of(info(foo8), info(foo4)), 2, 5));
    c.add(score("NodeResourcesFit scoring", RTCR,
        "resources requested, pods scheduled with resources, on node with existing pod running ", foo, foo2,
        List.of(info(foo8), info(foo4, pod("u", ResourceList.of("intel.com/foo", "2")))), 2, 10));
    c.add(score("NodeResourcesFit scoring", RTCR, "resources requested, pods scheduled with more resources", foo,
        pod("p", ResourceList.of("intel.com/foo", "4")), List.of(info(foo8), info(foo4)), 5, 10));

    // TestNodeResourcesBalancedAllocation: makeNode(name, milliCPU, memory, scalars); bound pods by spec.nodeName.
    Pod cpuAndMemory = req("1000m", "2000", "2000m", "3000");
    Pod cpuOnly = req("1000m", "0", "2000m", "0");
    Pod cpuAndMemoryAndGpu = pod("u", ResourceList.of("cpu", "1000m", "memory", "2000"),
        ResourceList.of("cpu", "2000m", "memory", "3000", "nvidia.com/gpu", "3"));
    ScorePlugin ba = NodeResourcesBalancedAllocation.INSTANCE;
    ScorePlugin baGpu = new NodeResourcesBalancedAllocation(List.of("cpu", "memory", "nvidia.com/gpu"));
    c.add(UpstreamCase.of("NodeResourcesBalancedAllocation", BALANCED,
        "nothing scheduled, nothing requested, skip in PreScore",
        () -> org.assertj.core.api.Assertions.assertThat(ba.appliesTo(io.gpufleet.engine.scheduler.PodInfo.of(pod("p"))))
            .isFalse()));
    c.add(balanced("nothing scheduled, resources requested, differently sized nodes", ba, cpuAndMemory,
        List.of(info(milli("node1", 4000, 10000)), info(milli("node2", 6000, 10000))), 87, 100));
    c.add(balanced("resources requested, pods scheduled with resources", ba, cpuAndMemory,
        List.of(info(milli("node1", 10000, 20000), cpuOnly), info(milli("node2", 10000, 20000), cpuAndMemory)), 82, 95));
    c.add(balanced("resources requested, pods scheduled with resources, differently sized nodes", ba, cpuAndMemory,
        List.of(info(milli("node1", 10000, 20000), cpuOnly), info(milli("node2", 10000, 50000), cpuAndMemory)), 82, 80));
    c.add(balanced("requested resources at node capacity", ba, cpuOnly,
        List.of(info(milli("node1", 6000, 10000), cpuOnly), info(milli("node2", 6000, 10000), cpuAndMemory)), 50, 75));
    c.add(balanced("include scalar resource on a node for balanced resource allocation", baGpu,
        pod("p", ResourceList.of("memory", "0", "nvidia.com/gpu", "1")),
        List.of(info(milli("node1", 3500, 40000, "nvidia.com/gpu", "8"), cpuAndMemoryAndGpu),
            info(milli("node2", 3500, 40000, "nvidia.com/gpu", "8"), cpuAndMemory)), 70, 65));
    c.add(balanced("node without the scalar resource should skip the scalar resource", baGpu, cpuAndMemory,
        List.of(info(milli("node1", 3500, 40000, "nvidia.com/gpu", "8")), info(milli("node2", 3500, 40000))), 63, 63));
    c.add(balanced("resources requested, pods scheduled with resources if PreScore not called", ba, cpuAndMemory,
        List.of(info(milli("node1", 10000, 20000), cpuOnly), info(milli("node2", 10000, 20000), cpuAndMemory)), 82, 95));
    String dra = "DRA extended resources (a device class backing an extended resource name) are not modelled";
    c.add(UpstreamCase.of("NodeResourcesBalancedAllocation", BALANCED,
        "include DRA resource on a node for balanced resource allocation", () -> {
          throw new AssertionError(dra);
        }).differs(dra));
    c.add(UpstreamCase.of("NodeResourcesBalancedAllocation", BALANCED,
        "include DRA resource on a node for balanced resource allocation if PreScore not called", () -> {
          throw new AssertionError(dra);
        }).differs(dra));
    return c;
  }
}
