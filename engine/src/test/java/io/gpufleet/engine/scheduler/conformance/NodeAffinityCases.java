package io.gpufleet.engine.scheduler.conformance;

import static io.gpufleet.engine.scheduler.conformance.K.*;
import static io.gpufleet.model.label.Requirement.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.engine.scheduler.plugin.NodeAffinity;
import io.gpufleet.engine.scheduler.plugin.PreFilterPlugin;
import io.gpufleet.model.affinity.PreferredSchedulingTerm;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.label.SelectorOperator;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** {@code pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go}: TestNodeAffinity and TestNodeAffinityPriority. */
final class NodeAffinityCases {
  private NodeAffinityCases() {}

  static final String FILE = "pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go";
  private static final Status.Code FAIL = Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE;
  private static final Status.Code OK = Status.Code.SUCCESS;

  /** TestNodeAffinity: the PreFilter result (null: all nodes), then Filter on one node. */
  private static UpstreamCase filter(String name, Pod pod, String nodeName, String[] labels, Set<String> preFilter,
      Status.Code want) {
    return UpstreamCase.of("NodeAffinity", FILE, name, () -> {
      var pre = NodeAffinity.INSTANCE.preFilter(PodInfo.of(pod));
      if (preFilter == null) {
        assertThat(pre).isInstanceOf(PreFilterPlugin.Result.AllNodes.class);
      } else if (preFilter.isEmpty()) {
        assertThat(pre).isEqualTo(new PreFilterPlugin.Result.Rejected(
            Status.unresolvable("NodeAffinity", NodeAffinity.CONFLICT)));
      } else {
        assertThat(pre).isEqualTo(new PreFilterPlugin.Result.NodeNames(preFilter));
      }
      if (want == OK) {
        assertFilter(NodeAffinity.INSTANCE, pod, info(node(nodeName, labels)), OK);
      } else {
        assertFilter(NodeAffinity.INSTANCE, pod, info(node(nodeName, labels)), FAIL, NodeAffinity.REASON);
      }
    });
  }

  private static String[] l(String... kv) {
    return kv;
  }

  private static Pod p() {
    return pod("p");
  }

  static List<UpstreamCase> cases() {
    List<UpstreamCase> c = new ArrayList<>();
    c.add(filter("missing labels", withNodeSelector(p(), "foo", "bar"), "n", l(), null, FAIL));
    c.add(filter("same labels", withNodeSelector(p(), "foo", "bar"), "n", l("foo", "bar"), null, OK));
    c.add(filter("node labels are superset", withNodeSelector(p(), "foo", "bar"), "n",
        l("foo", "bar", "baz", "blah"), null, OK));
    c.add(filter("node labels are subset", withNodeSelector(p(), "foo", "bar", "baz", "blah"), "n",
        l("foo", "bar"), null, FAIL));
    c.add(filter("Pod with matchExpressions using In operator that matches the existing node",
        requiring(p(), expr(in("foo", "bar", "value2"))), "n", l("foo", "bar"), null, OK));
    c.add(filter("Pod with matchExpressions using Gt operator that matches the existing node",
        requiring(p(), expr(new Requirement("kernel-version", SelectorOperator.GT, List.of("0204")))), "n",
        l("kernel-version", "0206"), null, OK));
    c.add(filter("Pod with matchExpressions using NotIn operator that matches the existing node",
        requiring(p(), expr(notIn("mem-type", "DDR", "DDR2"))), "n", l("mem-type", "DDR3"), null, OK));
    c.add(filter("Pod with matchExpressions using Exists operator that matches the existing node",
        requiring(p(), expr(exists("GPU"))), "n", l("GPU", "NVIDIA-GRID-K1"), null, OK));
    c.add(filter("Pod with affinity that don't match node's labels won't schedule onto the node",
        requiring(p(), expr(in("foo", "value1", "value2"))), "n", l("foo", "bar"), null, FAIL));
    c.add(filter("Pod with empty MatchExpressions is not a valid value will match no objects and won't schedule onto the node",
        requiring(p(), expr()), "n", l("foo", "bar"), null, FAIL));
    c.add(filter("Pod with no Affinity will schedule onto a node", p(), "n", l("foo", "bar"), null, OK));
    c.add(filter("Pod with Affinity but nil NodeSelector will schedule onto a node", p(), "n", l("foo", "bar"), null,
        OK));
    c.add(filter("Pod with multiple matchExpressions ANDed that matches the existing node",
        requiring(p(), expr(exists("GPU"), notIn("GPU", "AMD", "INTER"))), "n", l("GPU", "NVIDIA-GRID-K1"), null, OK));
    c.add(filter("Pod with multiple matchExpressions ANDed that doesn't match the existing node",
        requiring(p(), expr(exists("GPU"), in("GPU", "AMD", "INTER"))), "n", l("GPU", "NVIDIA-GRID-K1"), null, FAIL));
    c.add(filter("Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and will schedule onto the node",
        requiring(p(), expr(in("foo", "bar", "value2")), expr(in("diffkey", "wrong", "value2"))), "n",
        l("foo", "bar"), null, OK));
    c.add(filter("Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) both are satisfied, will schedule onto the node",
        requiring(withNodeSelector(p(), "foo", "bar"), expr(exists("foo"))), "n", l("foo", "bar"), null, OK));
    c.add(filter("Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing that we are deprecating) is not satisfied, won't schedule onto the node",
        requiring(withNodeSelector(p(), "foo", "bar"), expr(exists("foo"))), "n", l("foo", "barrrrrr"), null, FAIL));
    c.add(filter("Pod with an invalid value in Affinity term won't be scheduled onto the node",
        requiring(p(), expr(notIn("foo", "invalid value: ___@#$%^"))), "n", l("foo", "bar"), null, FAIL)
        .differs("the twin does not parse label values when matching; upstream's parse error makes the term match "
            + "nothing. The API server rejects such a value in a required term, and so does gpufleet's manifest reader "
            + "(API validation cases), so no such pod reaches the engine from a manifest"));
    c.add(filter("Pod with matchFields using In operator that matches the existing node",
        requiring(p(), fields(in("metadata.name", "node1"))), "node1", l(), Set.of("node1"), OK));
    c.add(filter("Pod with matchFields using In operator that does not match the existing node",
        requiring(p(), fields(in("metadata.name", "node1"))), "node2", l(), Set.of("node1"), FAIL));
    c.add(filter("Pod with two terms: matchFields does not match, but matchExpressions matches",
        requiring(p(), fields(in("metadata.name", "node1"), in("metadata.name", "node2")), expr(in("foo", "bar"))),
        "node2", l("foo", "bar"), null, OK));
    c.add(filter("Pod with one term: matchFields does not match, but matchExpressions matches",
        requiring(p(), term(List.of(in("foo", "bar")), List.of(in("metadata.name", "node1")))),
        "node2", l("foo", "bar"), Set.of("node1"), FAIL));
    c.add(filter("Pod with one term: both matchFields and matchExpressions match",
        requiring(p(), term(List.of(in("foo", "bar")), List.of(in("metadata.name", "node1")))),
        "node1", l("foo", "bar"), Set.of("node1"), OK));
    c.add(filter("Pod with two terms: both matchFields and matchExpressions do not match",
        requiring(p(), fields(in("metadata.name", "node1")), expr(in("foo", "not-match-to-bar"))),
        "node2", l("foo", "bar"), null, FAIL));
    c.add(filter("Pod with two terms of node.Name affinity",
        requiring(p(), fields(in("metadata.name", "node1")), fields(in("metadata.name", "node2"))),
        "node2", l(), Set.of("node1", "node2"), OK));
    c.add(filter("Pod with two conflicting mach field requirements",
        requiring(p(), fields(in("metadata.name", "node1"), in("metadata.name", "node2"))),
        "node2", l("foo", "bar"), Set.of(), FAIL));
    String added = "NodeAffinityArgs.addedAffinity is not implemented; a KubeSchedulerConfiguration that sets it is rejected";
    for (String name : List.of("Matches added affinity and Pod's node affinity",
        "Matches added affinity but not Pod's node affinity", "Doesn't match added affinity")) {
      c.add(UpstreamCase.of("NodeAffinity", FILE, name, () -> {
        throw new AssertionError(added);
      }).differs(added));
    }
    c.add(filter("Matches node selector correctly even if PreFilter is not called", withNodeSelector(p(), "foo", "bar"),
        "n", l("foo", "bar", "baz", "blah"), null, OK));
    c.add(filter("Matches node affinity correctly even if PreFilter is not called",
        requiring(p(), expr(exists("GPU"), notIn("GPU", "AMD", "INTER"))), "n", l("GPU", "NVIDIA-GRID-K1"), null, OK));

    // TestNodeAffinityPriority
    Pod affinity1 = preferring(p(), new PreferredSchedulingTerm(2, expr(in("foo", "bar"))));
    Pod affinity2 = preferring(p(), new PreferredSchedulingTerm(2, expr(in("foo", "bar"))),
        new PreferredSchedulingTerm(4, expr(in("key", "value"))),
        new PreferredSchedulingTerm(5, expr(in("foo", "bar"), in("key", "value"), in("az", "az1"))));
    var n1 = info(node("node1", "foo", "bar"));
    var n2 = info(node("node2", "key", "value"));
    var n3 = info(node("node3", "az", "az1"));
    var n4 = info(node("node1", "abc", "az11", "def", "az22"));
    var n5 = info(node("node5", "foo", "bar", "key", "value", "az", "az1"));
    c.add(UpstreamCase.of("NodeAffinity", FILE, "all nodes are same priority as NodeAffinity is nil",
        () -> assertScores(NodeAffinity.INSTANCE, p(), List.of(n1, n2, n3), 0, 0, 0)));
    c.add(UpstreamCase.of("NodeAffinity", FILE, "Skip is returned in PreScore when NodeAffinity is nil",
        () -> assertThat(NodeAffinity.INSTANCE.appliesTo(PodInfo.of(p()))).isFalse()));
    c.add(UpstreamCase.of("NodeAffinity", FILE,
        "no node matches preferred scheduling requirements in NodeAffinity of pod so all nodes' priority is zero",
        () -> assertScores(NodeAffinity.INSTANCE, affinity1, List.of(n4, n2, n3), 0, 0, 0)));
    c.add(UpstreamCase.of("NodeAffinity", FILE, "only node1 matches the preferred scheduling requirements of pod",
        () -> assertScores(NodeAffinity.INSTANCE, affinity1, List.of(n1, n2, n3), 100, 0, 0)));
    c.add(UpstreamCase.of("NodeAffinity", FILE,
        "all nodes matches the preferred scheduling requirements of pod but with different priorities ",
        () -> assertScores(NodeAffinity.INSTANCE, affinity2, List.of(n1, n5, n2), 18, 100, 36)));
    return c;
  }

}
