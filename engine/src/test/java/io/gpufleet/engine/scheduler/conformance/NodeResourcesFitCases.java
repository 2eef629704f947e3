package io.gpufleet.engine.scheduler.conformance;

import static io.gpufleet.engine.scheduler.conformance.K.*;

import io.gpufleet.engine.scheduler.plugin.NodeResourcesFit;
import io.gpufleet.engine.scheduler.plugin.ScoringStrategy;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code pkg/scheduler/framework/plugins/noderesources/fit_test.go}: TestEnoughRequests,
 * TestNotEnoughRequests and TestStorageRequests (the Filter). Reasons are compared; the status code
 * of a request above allocatable moved from Unschedulable to UnschedulableAndUnresolvable across
 * releases, and the twin follows the latter (see docs/conformance.md).
 */
final class NodeResourcesFitCases {
  private NodeResourcesFitCases() {}

  static final String FILE = "pkg/scheduler/framework/plugins/noderesources/fit_test.go";
  private static final String A = "example.com/aaa";
  private static final String B = "example.com/bbb";
  private static final String KA = "kubernetes.io/something";
  private static final String KB = "subdomain.kubernetes.io/something";
  private static final String HP = "hugepages-2Mi";

  /** {@code makeAllocatableResources(10, 20, 32, 5, 20, 5)}. */
  private static Node node() {
    return Node.of("n", Labels.EMPTY, List.of(), ResourceList.of("cpu", "10m", "memory", "20", "pods", "32", A, "5",
        "ephemeral-storage", "20", HP, "5"));
  }

  /** A resource list: cpu millis, memory bytes, then extra name/value pairs. */
  private static ResourceList r(long cpu, long mem, String... extra) {
    List<String> kv = new ArrayList<>(List.of("cpu", cpu + "m", "memory", Long.toString(mem)));
    kv.addAll(List.of(extra));
    return ResourceList.of(kv.toArray(String[]::new));
  }

  private static UpstreamCase fit(String name, Pod pod, Pod used, String... reasons) {
    return fit(name, NodeResourcesFit.leastAllocated(), pod, used, reasons);
  }

  private static UpstreamCase fit(String name, NodeResourcesFit plugin, Pod pod, Pod used, String... reasons) {
    return UpstreamCase.of("NodeResourcesFit", FILE, name,
        () -> assertFilterReasons(plugin, pod, info(node(), used), reasons));
  }

  private static String ins(String r) {
    return "Insufficient " + r;
  }

  static List<UpstreamCase> cases() {
    List<UpstreamCase> c = new ArrayList<>();
    c.add(fit("no resources requested always fits", pod("p"), pod("u", r(10, 20))));
    c.add(fit("too many resources fails", pod("p", r(1, 1)), pod("u", r(10, 20)), ins("cpu"), ins("memory")));
    c.add(fit("too many resources fails due to init container cpu", withInit(pod("p", r(1, 1)), r(3, 1)),
        pod("u", r(8, 19)), ins("cpu")));
    c.add(fit("too many resources fails due to highest init container cpu",
        withInit(pod("p", r(1, 1)), r(3, 1), r(2, 1)), pod("u", r(8, 19)), ins("cpu")));
    c.add(fit("too many resources fails due to init container memory", withInit(pod("p", r(1, 1)), r(1, 3)),
        pod("u", r(9, 19)), ins("memory")));
    c.add(fit("too many resources fails due to highest init container memory",
        withInit(pod("p", r(1, 1)), r(1, 3), r(1, 2)), pod("u", r(9, 19)), ins("memory")));
    c.add(fit("init container fits because it's the max, not sum, of containers and init containers",
        withInit(pod("p", r(1, 1)), r(1, 1)), pod("u", r(9, 19))));
    c.add(fit("multiple init containers fit because it's the max, not sum, of containers and init containers",
        withInit(pod("p", r(1, 1)), r(1, 1), r(1, 1)), pod("u", r(9, 19))));
    c.add(fit("both resources fit", pod("p", r(1, 1)), pod("u", r(5, 5))));
    c.add(fit("one resource memory fits", pod("p", r(2, 1)), pod("u", r(9, 5)), ins("cpu")));
    c.add(fit("one resource cpu fits", pod("p", r(1, 2)), pod("u", r(5, 19)), ins("memory")));
    c.add(fit("equal edge case", pod("p", r(5, 1)), pod("u", r(5, 19))));
    c.add(fit("equal edge case for init container", withInit(pod("p", r(4, 1)), r(5, 1)), pod("u", r(5, 19))));
    c.add(fit("extended resource fits", pod("p", res(A, "1")), pod("u")));
    c.add(fit("extended resource fits for init container", withInit(pod("p"), res(A, "1")), pod("u")));
    c.add(fit("extended resource capacity enforced", pod("p", r(1, 1, A, "10")), pod("u", r(0, 0, A, "0")), ins(A)));
    c.add(fit("extended resource capacity enforced for init container", withInit(pod("p"), r(1, 1, A, "10")),
        pod("u", r(0, 0, A, "0")), ins(A)));
    c.add(fit("extended resource allocatable enforced", pod("p", r(1, 1, A, "1")), pod("u", r(0, 0, A, "5")), ins(A)));
    c.add(fit("extended resource allocatable enforced for init container", withInit(pod("p"), r(1, 1, A, "1")),
        pod("u", r(0, 0, A, "5")), ins(A)));
    c.add(fit("extended resource allocatable enforced for multiple containers",
        pod("p", r(1, 1, A, "3"), r(1, 1, A, "3")), pod("u", r(0, 0, A, "2")), ins(A)));
    c.add(fit("extended resource allocatable admits multiple init containers",
        withInit(pod("p"), r(1, 1, A, "3"), r(1, 1, A, "3")), pod("u", r(0, 0, A, "2"))));
    c.add(fit("extended resource allocatable enforced for multiple init containers",
        withInit(pod("p"), r(1, 1, A, "6"), r(1, 1, A, "3")), pod("u", r(0, 0, A, "2")), ins(A)));
    c.add(fit("extended resource allocatable enforced for unknown resource", pod("p", r(1, 1, B, "1")),
        pod("u", r(0, 0)), ins(B)));
    c.add(fit("extended resource allocatable enforced for unknown resource for init container",
        withInit(pod("p"), r(1, 1, B, "1")), pod("u", r(0, 0)), ins(B)));
    c.add(fit("kubernetes.io resource capacity enforced", pod("p", r(1, 1, KA, "10")), pod("u", r(0, 0)), ins(KA)));
    c.add(fit("kubernetes.io resource capacity enforced for init container", withInit(pod("p"), r(1, 1, KB, "10")),
        pod("u", r(0, 0)), ins(KB)));
    c.add(fit("hugepages resource capacity enforced", pod("p", r(1, 1, HP, "10")), pod("u", r(0, 0, HP, "0")), ins(HP)));
    c.add(fit("hugepages resource capacity enforced for init container", withInit(pod("p"), r(1, 1, HP, "10")),
        pod("u", r(0, 0, HP, "0")), ins(HP)));
    c.add(fit("hugepages resource allocatable enforced for multiple containers",
        pod("p", r(1, 1, HP, "3"), r(1, 1, HP, "3")), pod("u", r(0, 0, HP, "2")), ins(HP)));
    NodeResourcesFit ignoring = new NodeResourcesFit(
        new ScoringStrategy.LeastAllocated(ScoringStrategy.DEFAULT_RESOURCES), Set.of(B), Set.of());
    c.add(fit("skip checking ignored extended resource", ignoring, pod("p", r(1, 1, B, "1")), pod("u", r(0, 0))));
    c.add(fit("resources + pod overhead fits", withOverhead(pod("p", r(1, 1)), res("cpu", "3m", "memory", "13")),
        pod("u", r(5, 5))));
    c.add(fit("requests + overhead does not fit for memory",
        withOverhead(pod("p", r(1, 1)), res("cpu", "1m", "memory", "15")), pod("u", r(5, 5)), ins("memory")));
    NodeResourcesFit groups = new NodeResourcesFit(
        new ScoringStrategy.LeastAllocated(ScoringStrategy.DEFAULT_RESOURCES), Set.of(), Set.of("example.com"));
    c.add(fit("skip checking ignored extended resource via resource groups", groups,
        pod("p", r(1, 1, B, "1", KA, "1")), pod("u", r(0, 0)), ins(KA)));
    c.add(fit("skip checking extended resource request with quantity zero via resource groups",
        pod("p", r(1, 1, A, "0")), pod("u", r(0, 0, A, "6"))));
    c.add(fit("skip checking resource request with quantity zero", pod("p", res(A, "1")), pod("u", r(20, 30, A, "1"))));

    // TestNotEnoughRequests: a node with room for one pod, already taken.
    Node onePod = Node.of("n", Labels.EMPTY, List.of(), ResourceList.of("cpu", "10m", "memory", "20", "pods", "1"));
    String[][] full = {
        {"even without specified resources, predicate fails when there's no space for additional pod"},
        {"even if both resources fit, predicate fails when there's no space for additional pod"},
        {"even for equal edge case, predicate fails when there's no space for additional pod"},
        {"even for equal edge case, predicate fails when there's no space for additional pod due to init container"}};
    Pod[] pods = {pod("p"), pod("p", r(1, 1)), pod("p", r(5, 1)), withInit(pod("p", r(5, 1)), r(5, 1))};
    Pod[] used = {pod("u", r(10, 20)), pod("u", r(5, 5)), pod("u", r(5, 19)), pod("u", r(5, 19))};
    for (int i = 0; i < pods.length; i++) {
      Pod p = pods[i];
      Pod u = used[i];
      c.add(UpstreamCase.of("NodeResourcesFit", FILE, full[i][0], () -> assertFilterReasons(
          NodeResourcesFit.leastAllocated(), p, info(onePod, u), NodeResourcesFit.TOO_MANY_PODS)));
    }
    // TestStorageRequests
    c.add(fit("empty storage requested, and pod fits", pod("p", r(1, 1)), pod("u", r(2, 10))));
    c.add(fit("storage ephemeral local storage request exceeds allocatable", pod("p", res("ephemeral-storage", "25")),
        pod("u", r(2, 2)), ins("ephemeral-storage")));
    c.add(fit("ephemeral local storage is sufficient", pod("p", res("ephemeral-storage", "5")),
        pod("u", r(2, 2, "ephemeral-storage", "10"))));
    c.add(fit("pod fits", pod("p", res("ephemeral-storage", "10")), pod("u", r(2, 2))));
    return c;
  }

  private static Pod withOverhead(Pod pod, ResourceList overhead) {
    return pod.withSpec(pod.spec().withOverhead(overhead));
  }
}
