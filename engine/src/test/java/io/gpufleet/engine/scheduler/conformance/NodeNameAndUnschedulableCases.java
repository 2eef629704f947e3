package io.gpufleet.engine.scheduler.conformance;

import static io.gpufleet.engine.scheduler.conformance.K.*;

import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.engine.scheduler.plugin.NodeName;
import io.gpufleet.engine.scheduler.plugin.NodeUnschedulable;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@code pkg/scheduler/framework/plugins/nodename/node_name_test.go} (TestNodeName) and
 * {@code pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable_test.go} (TestNodeUnschedulable).
 */
final class NodeNameAndUnschedulableCases {
  private NodeNameAndUnschedulableCases() {}

  static final String NODE_NAME = "pkg/scheduler/framework/plugins/nodename/node_name_test.go";
  static final String UNSCHEDULABLE = "pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable_test.go";

  private static Pod on(String node) {
    Pod p = pod("p");
    return p.withSpec(p.spec().withNodeName(node));
  }

  static List<UpstreamCase> cases() {
    Toleration unschedulable = new Toleration("node.kubernetes.io/unschedulable", Toleration.Operator.EQUAL, "",
        Optional.of(TaintEffect.NO_SCHEDULE), OptionalLong.empty());
    return List.of(
        UpstreamCase.of("NodeName", NODE_NAME, "no host specified",
            () -> assertFilter(NodeName.INSTANCE, pod("p"), info(node("")), Status.Code.SUCCESS)),
        UpstreamCase.of("NodeName", NODE_NAME, "host matches",
            () -> assertFilter(NodeName.INSTANCE, on("foo"), info(node("foo")), Status.Code.SUCCESS)),
        UpstreamCase.of("NodeName", NODE_NAME, "host doesn't match",
            () -> assertFilter(NodeName.INSTANCE, on("bar"), info(node("foo")),
                Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "node(s) didn't match the requested node name")),
        UpstreamCase.of("NodeUnschedulable", UNSCHEDULABLE,
            "Does not schedule pod to unschedulable node (node.Spec.Unschedulable==true)",
            () -> assertFilter(NodeUnschedulable.INSTANCE, pod("p"), info(node("n").withUnschedulable(true)),
                Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "node(s) were unschedulable")),
        UpstreamCase.of("NodeUnschedulable", UNSCHEDULABLE, "Schedule pod to normal node",
            () -> assertFilter(NodeUnschedulable.INSTANCE, pod("p"), info(node("n")), Status.Code.SUCCESS)),
        UpstreamCase.of("NodeUnschedulable", UNSCHEDULABLE,
            "Schedule pod with toleration to unschedulable node (node.Spec.Unschedulable==true)",
            () -> assertFilter(NodeUnschedulable.INSTANCE, tolerating(pod("p"), unschedulable),
                info(node("n").withUnschedulable(true)), Status.Code.SUCCESS)));
  }
}
