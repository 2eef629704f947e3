package io.gpufleet.engine.scheduler.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.FitError;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code pkg/scheduler/framework/types_test.go}: TestFitError_Error (the FailedScheduling text) and
 * TestPodInfoCalculateResources (requests and the non-zero defaults scoring uses).
 */
final class FitErrorCases {
  private FitErrorCases() {}

  static final String FILE = "pkg/scheduler/framework/types_test.go";

  private static Map<String, Status> three(String r1, String r2, String r3) {
    return Map.of("node1", Status.unschedulable("", r1), "node2", Status.unschedulable("", r2),
        "node3", Status.unschedulable("", r3));
  }

  private static UpstreamCase message(String name, FitError error, String want) {
    return UpstreamCase.of("FitError message", FILE, name, () -> assertThat(error.message()).isEqualTo(want));
  }

  static List<UpstreamCase> cases() {
    List<UpstreamCase> c = new ArrayList<>();
    String pre = "Node(s) failed PreFilter plugin FalsePreFilter";
    String post = "Error running PostFilter plugin FailedPostFilter";
    String f1 = "Node(s) failed Filter plugin FalseFilter-1";
    String f2 = "Node(s) failed Filter plugin FalseFilter-2";
    Optional<Status> absent = Optional.of(new Status(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "", List.of()));
    c.add(message("nodes failed Prefilter plugin", new FitError(3, three(pre, pre, pre), absent, pre, ""),
        "0/3 nodes are available: Node(s) failed PreFilter plugin FalsePreFilter."));
    c.add(message("nodes failed Prefilter plugin and the preemption also failed",
        new FitError(3, three(pre, pre, pre), absent, pre, post),
        "0/3 nodes are available: Node(s) failed PreFilter plugin FalsePreFilter. " + post));
    c.add(message("nodes failed one Filter plugin with an empty PostFilterMsg",
        new FitError(3, three(f1, f1, f1), absent, "", ""), "0/3 nodes are available: 3 " + f1 + "."));
    c.add(message("nodes failed one Filter plugin with a non-empty PostFilterMsg",
        new FitError(3, three(f1, f1, f1), absent, "", post), "0/3 nodes are available: 3 " + f1 + ". " + post));
    c.add(message("nodes failed two Filter plugins with an empty PostFilterMsg",
        new FitError(3, three(f1, f1, f2), absent, "", ""),
        "0/3 nodes are available: 1 " + f2 + ", 2 " + f1 + "."));
    c.add(message("nodes failed two Filter plugins with a non-empty PostFilterMsg",
        new FitError(3, three(f1, f1, f2), absent, "", post),
        "0/3 nodes are available: 1 " + f2 + ", 2 " + f1 + ". " + post));
    c.add(message("failed to Permit on node",
        new FitError(1, Map.of("node1", Status.unschedulable("", "Node failed Permit plugin Permit-1")), absent, "", ""),
        "0/1 nodes are available: 1 Node failed Permit plugin Permit-1."));
    c.add(message("failed to Reserve on node",
        new FitError(1, Map.of("node1", Status.unschedulable("", "Node failed Reserve plugin Reserve-1")), absent, "",
            ""), "0/1 nodes are available: 1 Node failed Reserve plugin Reserve-1."));

    // TestPodInfoCalculateResources: requests and the non-zero cpu/memory used by scoring.
    c.add(UpstreamCase.of("PodInfo requests", FILE, "requestless container", () -> {
      PodInfo p = PodInfo.of(K.pod("p", ResourceList.EMPTY));
      assertThat(p.requests().milliCpu()).isZero();
      assertThat(p.requests().memory()).isZero();
      assertThat(p.nonZeroMilliCpu()).isEqualTo(100);
      assertThat(p.nonZeroMemory()).isEqualTo(200L * 1024 * 1024);
    }));
    c.add(UpstreamCase.of("PodInfo requests", FILE, "1X container with requests", () -> {
      PodInfo p = PodInfo.of(K.pod("p", ResourceList.of("cpu", "500m", "memory", "500Mi")));
      assertThat(p.requests().milliCpu()).isEqualTo(500);
      assertThat(p.requests().memory()).isEqualTo(500L * 1024 * 1024);
      assertThat(p.nonZeroMilliCpu()).isEqualTo(500);
      assertThat(p.nonZeroMemory()).isEqualTo(500L * 1024 * 1024);
    }));
    c.add(UpstreamCase.of("PodInfo requests", FILE, "2X container with requests", () -> {
      PodInfo p = PodInfo.of(K.pod("p", ResourceList.of("cpu", "500m", "memory", "500Mi"),
          ResourceList.of("cpu", "700m", "memory", "800Mi")));
      assertThat(p.requests().milliCpu()).isEqualTo(1200);
      assertThat(p.requests().memory()).isEqualTo(1300L * 1024 * 1024);
      assertThat(p.nonZeroMilliCpu()).isEqualTo(1200);
      assertThat(p.nonZeroMemory()).isEqualTo(1300L * 1024 * 1024);
    }));
    return c;
  }
}
