package io.gpufleet.engine.scheduler.conformance;

import static io.gpufleet.engine.scheduler.conformance.K.*;

import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.engine.scheduler.plugin.TaintToleration;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@code pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go}; the Filter cases expect
 * current upstream's reason, {@code node(s) had untolerated taint(s)} (no taint named).
 */
final class TaintTolerationCases {
  private TaintTolerationCases() {}

  static final String FILE = "pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go";
  private static final TaintEffect NS = TaintEffect.NO_SCHEDULE;
  private static final TaintEffect PNS = TaintEffect.PREFER_NO_SCHEDULE;

  private static Taint t(String k, String v, TaintEffect e) {
    return Taint.of(k, v, e);
  }

  private static Toleration eq(String k, String v, TaintEffect e) {
    return Toleration.equal(k, v, e);
  }

  private static UpstreamCase filter(String name, Toleration[] tolerations, Taint[] taints, String reason) {
    return UpstreamCase.of("TaintToleration", FILE, name, () -> {
      var pod = tolerating(pod("pod1"), tolerations);
      if (reason == null) {
        assertFilter(TaintToleration.INSTANCE, pod, info(tainted("nodeA", taints)), Status.Code.SUCCESS);
      } else {
        assertFilter(TaintToleration.INSTANCE, pod, info(tainted("nodeA", taints)),
            Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, reason);
      }
    });
  }

  private static UpstreamCase score(String name, Toleration[] tolerations, List<Taint[]> nodes, long... want) {
    return UpstreamCase.of("TaintToleration", FILE, name, () -> {
      List<io.gpufleet.engine.scheduler.NodeInfo> infos = new ArrayList<>();
      for (int i = 0; i < nodes.size(); i++) {
        infos.add(info(tainted("node" + (char) ('A' + i), nodes.get(i))));
      }
      assertScores(TaintToleration.INSTANCE, tolerating(pod("pod1"), tolerations), infos, want);
    });
  }

  private static Toleration[] tol(Toleration... t) {
    return t;
  }

  private static Taint[] taints(Taint... t) {
    return t;
  }

  static List<UpstreamCase> cases() {
    List<UpstreamCase> c = new ArrayList<>();
    // TestTaintTolerationScore
    c.add(score("node with taints tolerated by the pod, gets a higher score than those node with intolerable taints",
        tol(eq("foo", "bar", PNS)), List.of(taints(t("foo", "bar", PNS)), taints(t("foo", "blah", PNS))), 100, 0));
    c.add(score("the nodes that all of their taints are tolerated by the pod, get the same score, no matter how many tolerable taints a node has",
        tol(eq("cpu-type", "arm64", PNS), eq("disk-type", "ssd", PNS)),
        List.of(taints(), taints(t("cpu-type", "arm64", PNS)), taints(t("cpu-type", "arm64", PNS), t("disk-type", "ssd", PNS))),
        100, 100, 100));
    c.add(score("the more intolerable taints a node has, the lower score it gets.", tol(eq("foo", "bar", PNS)),
        List.of(taints(), taints(t("cpu-type", "arm64", PNS)), taints(t("cpu-type", "arm64", PNS), t("disk-type", "ssd", PNS))),
        100, 50, 0));
    c.add(score("only taints and tolerations that have effect PreferNoSchedule are checked by taints-tolerations priority function",
        tol(eq("cpu-type", "arm64", NS), eq("disk-type", "ssd", NS)),
        List.of(taints(), taints(t("cpu-type", "arm64", NS)), taints(t("cpu-type", "arm64", PNS), t("disk-type", "ssd", PNS))),
        100, 100, 0));
    c.add(score("Default behaviour No taints and tolerations, lands on node with no taints", tol(),
        List.of(taints(), taints(t("cpu-type", "arm64", PNS))), 100, 0));
    // TestTaintTolerationFilter
    c.add(filter("A pod having no tolerations can't be scheduled onto a node with nonempty taints", tol(),
        taints(t("dedicated", "user1", NS)), "node(s) had untolerated taint(s)"));
    c.add(filter("A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule",
        tol(eq("dedicated", "user1", NS)), taints(t("dedicated", "user1", NS)), null));
    c.add(filter("A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule",
        tol(eq("dedicated", "user2", NS)), taints(t("dedicated", "user1", NS)),
        "node(s) had untolerated taint(s)"));
    c.add(filter("A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the taints on the node",
        tol(Toleration.exists("foo", NS)), taints(t("foo", "bar", NS)), null));
    c.add(filter("A pod has multiple tolerations, node has multiple taints, all the taints are tolerated, pod can be scheduled onto the node",
        tol(eq("dedicated", "user2", NS), Toleration.exists("foo", NS)),
        taints(t("dedicated", "user2", NS), t("foo", "bar", NS)), null));
    c.add(filter("A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect doesn't match, can't be scheduled onto the node",
        tol(eq("foo", "bar", PNS)), taints(t("foo", "bar", NS)), "node(s) had untolerated taint(s)"));
    c.add(filter("The pod has a toleration that keys and values match the taint on the node, the effect of toleration is empty, and the effect of taint is NoSchedule. Pod can be scheduled onto the node",
        tol(new Toleration("foo", Toleration.Operator.EQUAL, "bar", Optional.empty(), OptionalLong.empty())),
        taints(t("foo", "bar", NS)), null));
    c.add(filter("The pod has a toleration that key and value don't match the taint on the node, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node",
        tol(eq("dedicated", "user2", NS)), taints(t("dedicated", "user1", PNS)), null));
    c.add(filter("The pod has no toleration, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node",
        tol(), taints(t("dedicated", "user1", PNS)), null));
    return c;
  }
}
