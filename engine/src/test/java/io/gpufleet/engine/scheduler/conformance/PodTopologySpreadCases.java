package io.gpufleet.engine.scheduler.conformance;

import static io.gpufleet.engine.scheduler.conformance.K.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.engine.scheduler.plugin.FilterPlugin;
import io.gpufleet.engine.scheduler.plugin.PodTopologySpread;
import io.gpufleet.engine.scheduler.plugin.ScorePlugin;
import io.gpufleet.engine.scheduler.plugin.SpreadSelectors;
import io.gpufleet.engine.workload.ControllerSelectors;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.meta.OwnerReference;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.TopologySpreadConstraint;
import io.gpufleet.model.pod.TopologySpreadConstraint.NodeInclusionPolicy;
import io.gpufleet.model.pod.TopologySpreadConstraint.WhenUnsatisfiable;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * PodTopologySpread: {@code pkg/scheduler/framework/plugins/podtopologyspread/filtering_test.go}
 * (TestSingleConstraint, TestMultipleConstraints) and {@code scoring_test.go}
 * (TestPodTopologySpreadScore, TestPreScoreSkip). Upstream's tables run the plugin alone on a
 * snapshot of existing pods; so do these, through the plugin's per-cycle Filter and Score. The
 * node inclusion policies and matchLabelKeys are on, as in the release the twin follows (their
 * feature gates are locked on there), so the case that runs with matchLabelKeys' gate off is not
 * translated.
 */
final class PodTopologySpreadCases {
  private PodTopologySpreadCases() {}

  static final String FILTERING = "pkg/scheduler/framework/plugins/podtopologyspread/filtering_test.go";
  static final String SCORING = "pkg/scheduler/framework/plugins/podtopologyspread/scoring_test.go";
  private static final String PLUGIN = "PodTopologySpread";
  private static final String HOST = PodTopologySpread.HOSTNAME;

  private static final LabelSelector FOO = new LabelSelector(Labels.EMPTY, List.of(Requirement.exists("foo")));
  private static final LabelSelector BAR = new LabelSelector(Labels.EMPTY, List.of(Requirement.exists("bar")));
  private static final LabelSelector EMPTY = LabelSelector.EVERYTHING;
  /** Upstream's {@code taints}: node.kubernetes.io/unschedulable:NoSchedule. */
  private static final Taint UNSCHEDULABLE = Taint.of("node.kubernetes.io/unschedulable", "", TaintEffect.NO_SCHEDULE);
  private static final WhenUnsatisfiable HARD = WhenUnsatisfiable.DO_NOT_SCHEDULE;
  private static final WhenUnsatisfiable SOFT = WhenUnsatisfiable.SCHEDULE_ANYWAY;
  private static final NodeInclusionPolicy HONOR = NodeInclusionPolicy.HONOR;
  private static final NodeInclusionPolicy IGNORE = NodeInclusionPolicy.IGNORE;

  // ---- builders, close to st.MakePod() / st.MakeNode() ----

  /** A pod with labels (key, value pairs) in the default namespace. */
  static Pod labelled(String name, String... labels) {
    Pod p = pod(name);
    return p.withMeta(new ObjectMeta(name, p.meta().namespace(), Labels.of(labels), Labels.EMPTY, Optional.empty()));
  }

  private static Pod inNamespace(Pod p, String namespace) {
    ObjectMeta m = p.meta();
    return p.withMeta(new ObjectMeta(m.name(), namespace, m.labels(), m.annotations(), m.owner()));
  }

  private static Pod owned(Pod p, String replicaSet) {
    ObjectMeta m = p.meta();
    return p.withMeta(new ObjectMeta(m.name(), m.namespace(), m.labels(), m.annotations(),
        Optional.of(new OwnerReference("ReplicaSet", replicaSet))));
  }

  /** {@code SpreadConstraint(maxSkew, key, when, selector, minDomains, nodeAffinityPolicy, nodeTaintsPolicy, matchLabelKeys)}. */
  private static TopologySpreadConstraint sc(int maxSkew, String key, WhenUnsatisfiable when, LabelSelector selector,
      Integer minDomains, NodeInclusionPolicy affinity, NodeInclusionPolicy taints, List<String> matchLabelKeys) {
    return new TopologySpreadConstraint(maxSkew, key, when, Optional.ofNullable(selector),
        minDomains == null ? OptionalInt.empty() : OptionalInt.of(minDomains), affinity, taints, matchLabelKeys);
  }

  private static TopologySpreadConstraint sc(int maxSkew, String key, WhenUnsatisfiable when, LabelSelector selector) {
    return sc(maxSkew, key, when, selector, null, null, null, List.of());
  }

  private static Pod spread(Pod p, TopologySpreadConstraint... constraints) {
    return p.withSpec(p.spec().withTopologySpreadConstraints(List.of(constraints)));
  }

  private static Pod selecting(Pod p, String... nodeLabels) {
    return withNodeSelector(p, nodeLabels);
  }

  private static Node taintedNode(String name, Taint taint, String... labels) {
    return Node.of(name, Labels.of(labels), List.of(taint), ResourceList.of("pods", "110"));
  }

  /** The usual four nodes: node-a, node-b in zone1, node-x, node-y in zone2, labelled zone and node. */
  private static List<Node> fourNodes() {
    return List.of(node("node-a", "zone", "zone1", "node", "node-a"), node("node-b", "zone", "zone1", "node", "node-b"),
        node("node-x", "zone", "zone2", "node", "node-x"), node("node-y", "zone", "zone2", "node", "node-y"));
  }

  /** Existing pods as (node, pod) pairs. */
  private record Placed(String node, Pod pod) {}

  private static Placed on(String node, String name, String... labels) {
    return new Placed(node, labelled(name, labels));
  }

  private static Placed onNs(String node, String name, String namespace, String... labels) {
    return new Placed(node, inNamespace(labelled(name, labels), namespace));
  }

  private static List<NodeInfo> infos(List<Node> nodes, Placed... existing) {
    List<NodeInfo> out = new ArrayList<>();
    for (Node n : nodes) {
      NodeInfo info = NodeInfo.of(n);
      for (Placed p : existing) {
        if (p.node().equals(n.name())) {
          info = info.withPod(PodInfo.of(p.pod()));
        }
      }
      out.add(info);
    }
    return out;
  }

  /** Codes by node name; upstream's reasons go with them (Unschedulable: skew; UnschedulableAndUnresolvable: label). */
  private static Map<String, Status.Code> codes(Object... nameAndCode) {
    Map<String, Status.Code> out = new LinkedHashMap<>();
    for (int i = 0; i < nameAndCode.length; i += 2) {
      out.put((String) nameAndCode[i], (Status.Code) nameAndCode[i + 1]);
    }
    return out;
  }

  private static final Status.Code OK = Status.Code.SUCCESS;
  private static final Status.Code UNSCHED = Status.Code.UNSCHEDULABLE;
  private static final Status.Code UNRESOLVABLE = Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE;

  /** PreFilter over the snapshot, then Filter each node, as upstream's table loop does. */
  private static void assertFilter(Pod pod, List<Node> nodes, List<Placed> existing, Map<String, Status.Code> want) {
    ClusterSnapshot snapshot = ClusterSnapshot.ofInfos(infos(nodes, existing.toArray(Placed[]::new)));
    PodInfo p = PodInfo.of(pod);
    FilterPlugin cycle = new PodTopologySpread(SpreadSelectors.NONE).forCycle(p, snapshot)
        .orElseThrow(() -> new AssertionError("PreFilter skipped a pod with hard constraints"));
    Map<String, Status.Code> got = new LinkedHashMap<>();
    for (NodeInfo n : snapshot.nodes()) {
      Status s = cycle.filter(p, n);
      got.put(n.name(), s.code());
      switch (s.code()) {
        case SUCCESS -> { }
        case UNSCHEDULABLE -> assertThat(s.reasons()).containsExactly(PodTopologySpread.REASON_SKEW);
        case UNSCHEDULABLE_AND_UNRESOLVABLE -> assertThat(s.reasons()).containsExactly(
            PodTopologySpread.REASON_MISSING_LABEL);
      }
    }
    assertThat(got).as("status codes").containsExactlyInAnyOrderEntriesOf(want);
  }

  /** PreScore with {@code candidates} as the filtered nodes over all nodes, Score, NormalizeScore. */
  private static void assertScore(PodTopologySpread plugin, Pod pod, List<Node> candidates, List<Node> failed,
      List<Placed> existing, long... want) {
    List<Node> all = new ArrayList<>(candidates);
    all.addAll(failed);
    List<NodeInfo> allInfos = infos(all, existing.toArray(Placed[]::new));
    PodInfo p = PodInfo.of(pod);
    ScorePlugin cycle = plugin.preScore(p, ClusterSnapshot.ofInfos(allInfos))
        .orElseThrow(() -> new AssertionError("PreScore skipped"));
    long[] got = new long[candidates.size()];
    for (int i = 0; i < got.length; i++) {
      got[i] = cycle.score(p, allInfos.get(i));
    }
    cycle.normalize(p, got);
    assertThat(got).as("scores").isEqualTo(want);
  }

  private static void assertScore(Pod pod, List<Node> candidates, List<Node> failed, List<Placed> existing,
      long... want) {
    assertScore(new PodTopologySpread(SpreadSelectors.NONE), pod, candidates, failed, existing, want);
  }

  private static void assertSkipped(PodTopologySpread plugin, Pod pod) {
    assertThat(plugin.preScore(PodInfo.of(pod), ClusterSnapshot.ofInfos(List.of(NodeInfo.of(node("node-a",
        HOST, "node-a")))))).as("PreScore skips").isEmpty();
  }

  /** {@code n} pods labelled foo="" named {@code prefix1..n} on one node. */
  private static List<Placed> foos(String node, String prefix, int n) {
    List<Placed> out = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      out.add(on(node, prefix + i, "foo", ""));
    }
    return out;
  }

  @SafeVarargs
  private static List<Placed> all(List<Placed>... groups) {
    List<Placed> out = new ArrayList<>();
    for (List<Placed> g : groups) {
      out.addAll(g);
    }
    return out;
  }

  static List<UpstreamCase> cases() {
    List<UpstreamCase> c = new ArrayList<>();
    filterSingle(c);
    filterMultiple(c);
    score(c);
    return c;
  }

  // ---- filtering_test.go TestSingleConstraint ----

  private static void filterSingle(List<UpstreamCase> c) {
    Pod fooZone = spread(labelled("p", "foo", ""), sc(1, "zone", HARD, FOO));
    Pod fooNode = spread(labelled("p", "foo", ""), sc(1, "node", HARD, FOO));
    // Pods spread 2/1/0/3 over node-a, node-b, node-x, node-y.
    List<Placed> s2103 = all(foos("node-a", "p-a", 2), foos("node-b", "p-b", 1), foos("node-y", "p-y", 3));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "no existing pods", () ->
        assertFilter(fooZone, fourNodes(), List.of(), codes("node-a", OK, "node-b", OK, "node-x", OK, "node-y", OK))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "no existing pods, incoming pod doesn't match itself", () ->
        assertFilter(spread(labelled("p", "foo", ""), sc(1, "zone", HARD, BAR)), fourNodes(), List.of(),
            codes("node-a", OK, "node-b", OK, "node-x", OK, "node-y", OK))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "existing pods in a different namespace do not count", () ->
        assertFilter(fooZone, fourNodes(), List.of(onNs("node-a", "p-a1", "ns1", "foo", ""),
                onNs("node-a", "p-b1", "ns2", "foo", ""), on("node-x", "p-x1", "foo", ""), on("node-y", "p-y1", "foo", "")),
            codes("node-a", OK, "node-b", OK, "node-x", UNSCHED, "node-y", UNSCHED))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "existing pods do not match null selector", () ->
        assertFilter(spread(labelled("p", "foo", ""), sc(1, "zone", HARD, null)), fourNodes(),
            List.of(on("node-x", "p-x1", "foo", ""), on("node-y", "p-y1", "foo", "")),
            codes("node-a", OK, "node-b", OK, "node-x", OK, "node-y", OK))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "pods spread across zones as 3/3, all nodes fit", () ->
        assertFilter(fooZone, fourNodes(), s2103, codes("node-a", OK, "node-b", OK, "node-x", OK, "node-y", OK))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
        () -> assertFilter(fooZone, List.of(node("node-a", "zone", "zone1", "node", "node-a"),
                node("node-b", "zon", "zone1", "node", "node-b"), node("node-x", "zone", "zone2", "node", "node-x"),
                node("node-y", "zone", "zone2", "node", "node-y")),
            List.of(on("node-a", "p-a1", "foo", ""), on("node-b", "p-b1", "foo", ""), on("node-x", "p-x1", "foo", ""),
                on("node-y", "p-y1", "foo", "")),
            codes("node-a", OK, "node-b", UNRESOLVABLE, "node-x", UNSCHED, "node-y", UNSCHED))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "pod cannot be scheduled as all nodes don't have label 'rack'", () ->
        assertFilter(spread(labelled("p", "foo", ""), sc(1, "rack", HARD, FOO)),
            List.of(node("node-a", "zone", "zone1", "node", "node-a"), node("node-x", "zone", "zone2", "node", "node-x")),
            List.of(), codes("node-a", UNRESOLVABLE, "node-x", UNRESOLVABLE))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "pods spread across nodes as 2/1/0/3, only node-x fits", () ->
        assertFilter(fooNode, fourNodes(), s2103,
            codes("node-a", UNSCHED, "node-b", UNSCHED, "node-x", OK, "node-y", UNSCHED))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit",
        () -> assertFilter(spread(labelled("p", "foo", ""), sc(2, "node", HARD, FOO)), fourNodes(), s2103,
            codes("node-a", UNSCHED, "node-b", OK, "node-x", OK, "node-y", UNSCHED))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "pods spread across nodes as 2/1/0/3, but pod doesn't match itself", () ->
        assertFilter(spread(labelled("p", "bar", ""), sc(1, "node", HARD, FOO)), fourNodes(), s2103,
            codes("node-a", UNSCHED, "node-b", OK, "node-x", OK, "node-y", UNSCHED))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits",
        () -> assertFilter(requiring(fooNode, expr(Requirement.in("node", "node-a", "node-y"))), fourNodes(), s2103,
            codes("node-a", OK, "node-b", OK, "node-x", OK, "node-y", UNSCHED))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "terminating Pods should be excluded", () ->
        assertFilter(fooNode, List.of(node("node-a", "node", "node-a"), node("node-b", "node", "node-b")),
            List.of(on("node-a", "p-a", "foo", ""), on("node-b", "p-b", "foo", "")),
            codes("node-a", OK, "node-b", UNSCHED)))
        .differs("the twin's pods carry no deletionTimestamp: a pod leaves the scheduler's image when it is evicted, "
            + "so a terminating pod cannot be set up in it"));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a fits",
        () -> assertFilter(requiring(fooZone, expr(Requirement.notIn("node", "node-b"))), fourNodes(),
            List.of(on("node-b", "p-b1", "foo", ""), on("node-b", "p-b2", "foo", ""), on("node-y", "p-y1", "foo", "")),
            codes("node-a", OK, "node-b", OK, "node-x", UNSCHED, "node-y", UNSCHED))));
    List<Node> abc = List.of(node("node-a", "node", "node-a"), node("node-b", "node", "node-b"),
        node("node-c", "node", "node-c"));
    List<Placed> s221 = all(foos("node-a", "p-a", 2), foos("node-b", "p-b", 2), foos("node-c", "p-c", 1));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains "
        + "< minDomains, then the third node fits", () ->
        assertFilter(spread(labelled("p", "foo", ""), sc(2, "node", HARD, FOO, 4, null, null, List.of())), abc, s221,
            codes("node-a", UNSCHED, "node-b", UNSCHED, "node-c", OK))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains "
        + "> minDomains, then the all nodes fit", () ->
        assertFilter(spread(labelled("p", "foo", ""), sc(2, "node", HARD, FOO, 2, null, null, List.of())), abc, s221,
            codes("node-a", OK, "node-b", OK, "node-c", OK))));
    List<Placed> zone21 = List.of(on("node-a", "p-b1", "foo", ""), on("node-b", "p-b2", "foo", ""),
        on("node-y", "p-y1", "foo", ""));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "pods spread across zone as 2/1, maxSkew is 2 and the number of domains "
        + "< minDomains, then the third and fourth nodes fit", () ->
        assertFilter(spread(labelled("p", "foo", ""), sc(2, "zone", HARD, FOO, 3, null, null, List.of())), fourNodes(),
            zone21, codes("node-a", UNSCHED, "node-b", UNSCHED, "node-x", OK, "node-y", OK))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "pods spread across zone as 2/1, maxSkew is 2 and the number of domains "
        + "> minDomains, then the all nodes fit", () ->
        assertFilter(spread(labelled("p", "foo", ""), sc(2, "zone", HARD, FOO, 1, null, null, List.of())), fourNodes(),
            zone21, codes("node-a", OK, "node-b", OK, "node-x", OK, "node-y", OK))));
    List<Node> fooNodes = List.of(node("node-a", "node", "node-a", "foo", ""), node("node-b", "node", "node-b", "foo", ""),
        node("node-x", "node", "node-x", "foo", ""), node("node-y", "node", "node-y"));
    List<Placed> ab1y1 = List.of(on("node-a", "p-b1", "foo", ""), on("node-b", "p-b2", "foo", ""),
        on("node-y", "p-y1", "foo", ""));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "NodeAffinityPolicy honored with labelSelectors", () ->
        assertFilter(selecting(fooNode, "foo", ""), fooNodes, ab1y1,
            codes("node-a", UNSCHED, "node-b", UNSCHED, "node-x", OK, "node-y", OK))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "NodeAffinityPolicy ignored with labelSelectors", () ->
        assertFilter(selecting(spread(labelled("p", "foo", ""), sc(1, "node", HARD, FOO, null, IGNORE, null, List.of())),
            "foo", ""), fooNodes, ab1y1, codes("node-a", UNSCHED, "node-b", UNSCHED, "node-x", OK, "node-y", UNSCHED))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "NodeAffinityPolicy honored with nodeAffinity", () ->
        assertFilter(requiring(fooNode, expr(Requirement.in("foo", ""))), fooNodes, ab1y1,
            codes("node-a", UNSCHED, "node-b", UNSCHED, "node-x", OK, "node-y", OK))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "NodeAffinityPolicy ignored with labelSelectors#01", () ->
        assertFilter(requiring(spread(labelled("p", "foo", ""), sc(1, "node", HARD, FOO, null, IGNORE, null, List.of())),
            expr(Requirement.in("foo", ""))), fooNodes, ab1y1,
            codes("node-a", UNSCHED, "node-b", UNSCHED, "node-x", OK, "node-y", UNSCHED))));
    List<Node> taintedY = List.of(node("node-a", "node", "node-a", "foo", ""), node("node-b", "node", "node-b", "foo", ""),
        node("node-x", "node", "node-x", "foo", ""), taintedNode("node-y", UNSCHEDULABLE, "node", "node-y"));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "NodeTaintsPolicy honored", () ->
        assertFilter(spread(labelled("p", "foo", ""), sc(1, "node", HARD, FOO, null, null, HONOR, List.of())), taintedY,
            ab1y1, codes("node-a", UNSCHED, "node-b", UNSCHED, "node-x", OK, "node-y", OK))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "NodeTaintsPolicy ignored", () ->
        assertFilter(fooNode, taintedY, ab1y1, codes("node-a", UNSCHED, "node-b", UNSCHED, "node-x", OK,
            "node-y", UNSCHED))));
  }

  // ---- filtering_test.go TestMultipleConstraints ----

  private static void filterMultiple(List<UpstreamCase> c) {
    Pod zoneAndNode = spread(labelled("p", "foo", ""), sc(1, "zone", HARD, FOO), sc(1, "node", HARD, FOO));
    Pod fooBar = spread(labelled("p", "foo", "", "bar", ""), sc(1, "zone", HARD, FOO), sc(1, "node", HARD, BAR));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "two Constraints on zone and node, spreads = [3/3, 2/1/0/3]", () ->
        assertFilter(zoneAndNode, fourNodes(),
            all(foos("node-a", "p-a", 2), foos("node-b", "p-b", 1), foos("node-y", "p-y", 3)),
            codes("node-a", UNSCHED, "node-b", UNSCHED, "node-x", OK, "node-y", UNSCHED))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "two Constraints on zone and node, spreads = [3/4, 2/1/0/4]", () ->
        assertFilter(zoneAndNode, fourNodes(),
            all(foos("node-a", "p-a", 2), foos("node-b", "p-b", 1), foos("node-y", "p-y", 4)),
            codes("node-a", UNSCHED, "node-b", UNSCHED, "node-x", UNSCHED, "node-y", UNSCHED))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "Constraints hold different labelSelectors, spreads = [1/0, 1/0/0/1]", () ->
        assertFilter(fooBar, fourNodes(), List.of(on("node-a", "p-a1", "foo", ""), on("node-y", "p-y1", "bar", "")),
            codes("node-a", UNSCHED, "node-b", UNSCHED, "node-x", OK, "node-y", UNSCHED))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "Constraints hold different labelSelectors, spreads = [1/0, 0/0/1/1]", () ->
        assertFilter(fooBar, fourNodes(), List.of(on("node-a", "p-a1", "foo", ""), on("node-x", "p-x1", "bar", ""),
                on("node-y", "p-y1", "bar", "")),
            codes("node-a", UNSCHED, "node-b", UNSCHED, "node-x", UNSCHED, "node-y", UNSCHED))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "Constraints hold different labelSelectors, spreads = [2/3, 1/0/0/1]", () ->
        assertFilter(fooBar, fourNodes(), List.of(on("node-a", "p-a1", "foo", ""), on("node-a", "p-a2", "foo", "", "bar", ""),
                on("node-y", "p-y1", "foo", ""), on("node-y", "p-y2", "foo", "", "bar", ""), on("node-y", "p-y3", "foo", "")),
            codes("node-a", UNSCHED, "node-b", OK, "node-x", UNSCHED, "node-y", UNSCHED))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING,
        "Constraints hold different labelSelectors but pod doesn't match itself on 'zone' constraint", () ->
        assertFilter(spread(labelled("p", "bar", ""), sc(1, "zone", HARD, FOO), sc(1, "node", HARD, BAR)), fourNodes(),
            List.of(on("node-a", "p-a1", "foo", ""), on("node-x", "p-x1", "bar", ""), on("node-y", "p-y1", "bar", "")),
            codes("node-a", OK, "node-b", OK, "node-x", UNSCHED, "node-y", UNSCHED))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING,
        "two Constraints on zone and node, absence of label 'node' on node-x, spreads = [1/1, 1/0/0/1]", () ->
        assertFilter(zoneAndNode, List.of(node("node-a", "zone", "zone1", "node", "node-a"),
                node("node-b", "zone", "zone1", "node", "node-b"), node("node-x", "zone", "zone2"),
                node("node-y", "zone", "zone2", "node", "node-y")),
            List.of(on("node-a", "p-a1", "foo", ""), on("node-y", "p-y3", "foo", "")),
            codes("node-a", UNSCHED, "node-b", OK, "node-x", UNRESOLVABLE, "node-y", UNSCHED))));
    List<Placed> a1b1y1 = List.of(on("node-a", "p-a1", "foo", ""), on("node-b", "p-b1", "foo", ""),
        on("node-y", "p-y1", "foo", ""));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore", () ->
        assertFilter(selecting(spread(labelled("p", "foo", ""), sc(1, "zone", HARD, FOO),
                sc(1, "node", HARD, FOO, null, IGNORE, null, List.of())), "foo", ""),
            List.of(node("node-a", "zone", "zone1", "node", "node-a", "foo", ""),
                node("node-b", "zone", "zone1", "node", "node-b", "foo", ""),
                node("node-x", "zone", "zone2", "node", "node-x", "foo", ""), node("node-y", "zone", "zone2", "node", "node-y")),
            a1b1y1, codes("node-a", UNSCHED, "node-b", UNSCHED, "node-x", OK, "node-y", UNSCHED))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "two node inclusion Constraints, zone: honor/honor, node: honor/ignore", () ->
        assertFilter(spread(labelled("p", "foo", ""), sc(1, "zone", HARD, FOO, null, null, HONOR, List.of()),
                sc(1, "node", HARD, FOO)),
            List.of(node("node-a", "zone", "zone1", "node", "node-a", "foo", ""),
                node("node-b", "zone", "zone1", "node", "node-b", "foo", ""),
                node("node-x", "zone", "zone2", "node", "node-x", "foo", ""),
                taintedNode("node-y", UNSCHEDULABLE, "zone", "zone2", "node", "node-y")),
            a1b1y1, codes("node-a", UNSCHED, "node-b", UNSCHED, "node-x", OK, "node-y", UNSCHED))));
    List<Node> mixed = List.of(node("node-a", "zone", "zone1", "node", "node-a", "foo", ""),
        node("node-b", "zone", "zone1", "node", "node-b"), node("node-x", "zone", "zone2", "node", "node-x", "foo", ""),
        taintedNode("node-y", UNSCHEDULABLE, "zone", "zone2", "node", "node-y", "foo", ""));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "two node inclusion Constraints, zone: honor/ignore, node: honor/ignore", () ->
        assertFilter(selecting(zoneAndNode, "foo", ""), mixed, a1b1y1,
            codes("node-a", UNSCHED, "node-b", OK, "node-x", OK, "node-y", UNSCHED))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "two node inclusion Constraints, zone: honor/honor, node: ignore/ignore", () ->
        assertFilter(selecting(spread(labelled("p", "foo", ""), sc(1, "zone", HARD, FOO, null, null, HONOR, List.of()),
                sc(1, "node", HARD, FOO, null, IGNORE, null, List.of())), "foo", ""), mixed, a1b1y1,
            codes("node-a", UNSCHED, "node-b", UNSCHED, "node-x", OK, "node-y", UNSCHED))));
  }

  // ---- scoring_test.go TestPodTopologySpreadScore, TestPreScoreSkip ----

  private static void score(List<UpstreamCase> c) {
    Pod host1 = spread(labelled("p", "foo", ""), sc(1, HOST, SOFT, FOO));
    List<Node> abcdHost = List.of(node("node-a", HOST, "node-a"), node("node-b", HOST, "node-b"),
        node("node-c", HOST, "node-c"), node("node-d", HOST, "node-d"));
    List<Placed> s2103 = all(foos("node-a", "p-a", 2), foos("node-b", "p-b", 1), foos("node-d", "p-d", 3));
    List<Placed> s4321 = all(foos("node-a", "p-a", 4), foos("node-b", "p-b", 3), foos("node-c", "p-c", 2),
        foos("node-d", "p-d", 1));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "one constraint on node, no existing pods", () ->
        assertScore(host1, List.of(node("node-a", HOST, "node-a"), node("node-b", HOST, "node-b")), List.of(), List.of(),
            100, 100)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "one constraint on node, only one node is candidate", () ->
        assertScore(host1, List.of(node("node-a", HOST, "node-a")), List.of(node("node-b", HOST, "node-b")),
            all(foos("node-a", "p-a", 2), foos("node-b", "p-b", 1)), 100)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "one constraint on node, all nodes have the same number of matching pods", () ->
        assertScore(host1, List.of(node("node-a", HOST, "node-a"), node("node-b", HOST, "node-b")), List.of(),
            all(foos("node-a", "p-a", 1), foos("node-b", "p-b", 1)), 100, 100)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "one constraint on node, all 4 nodes are candidates", () ->
        assertScore(host1, abcdHost, List.of(), s2103, 20, 60, 100, 0)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "one constraint on node, null selector", () ->
        assertScore(spread(labelled("p", "foo", ""), sc(1, HOST, SOFT, null)), abcdHost, List.of(), s2103,
            100, 100, 100, 100)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "one constraint on node, all 4 nodes are candidates, maxSkew=2", () ->
        assertScore(spread(labelled("p", "foo", ""), sc(2, HOST, SOFT, FOO)), abcdHost, List.of(), s2103,
            33, 66, 100, 16)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "one constraint on node, all 4 nodes are candidates, maxSkew=3", () ->
        assertScore(spread(labelled("p", "foo", ""), sc(3, HOST, SOFT, FOO)), abcdHost, List.of(), s4321,
            44, 66, 77, 100)));
    // The Service selecting foo="" is what DefaultSelector returns; the twin models no Services, so
    // the selector is supplied directly, which is what the plugin consumes.
    LabelSelector fooEquals = LabelSelector.matching(Labels.of("foo", ""));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "system defaulting, nodes don't have zone, pods match service", () ->
        assertScore(new PodTopologySpread(p -> Optional.of(fooEquals)), labelled("p", "foo", ""), abcdHost, List.of(),
            s4321, 44, 66, 77, 100)));
    List<Placed> s4213 = all(foos("node-a", "p-a", 4), foos("node-b", "p-b", 2), foos("node-x", "p-x", 1),
        foos("node-y", "p-y", 3));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "one constraint on node, 3 out of 4 nodes are candidates", () ->
        assertScore(host1, List.of(node("node-a", HOST, "node-a"), node("node-b", HOST, "node-b"),
            node("node-x", HOST, "node-x")), List.of(node("node-y", HOST, "node-y")), s4213, 33, 83, 100)));
    c.add(UpstreamCase.of(PLUGIN, SCORING,
        "one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key", () ->
        assertScore(host1, List.of(node("node-a", HOST, "node-a"), node("node-b", "n", "node-b"),
            node("node-x", HOST, "node-x")), List.of(node("node-y", HOST, "node-y")), s4213, 16, 0, 100)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "one constraint on zone, 3 out of 4 nodes are candidates", () ->
        assertScore(spread(labelled("p", "foo", ""), sc(1, "zone", SOFT, FOO)),
            List.of(node("node-a", "zone", "zone1", HOST, "node-a"), node("node-b", "zone", "zone1", HOST, "node-b"),
                node("node-x", "zone", "zone2", HOST, "node-x")),
            List.of(node("node-y", "zone", "zone2", HOST, "node-y")), s4213, 75, 75, 100)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "two Constraints on zone and node, 2 out of 4 nodes are candidates", () ->
        assertScore(spread(labelled("p", "foo", ""), sc(1, "zone", SOFT, FOO), sc(1, HOST, SOFT, FOO)),
            List.of(node("node-a", "zone", "zone1", HOST, "node-a"), node("node-x", "zone", "zone2", HOST, "node-x")),
            List.of(node("node-b", "zone", "zone1", HOST, "node-b"), node("node-y", "zone", "zone2", HOST, "node-y")),
            all(foos("node-a", "p-a", 2), foos("node-b", "p-b", 1), foos("node-x", "p-x", 2), foos("node-y", "p-y", 4)),
            100, 63)));
    Pod fooBar = spread(labelled("p", "foo", "", "bar", ""), sc(1, "zone", SOFT, FOO), sc(1, HOST, SOFT, BAR));
    List<Node> zoned = List.of(node("node-a", "zone", "zone1", HOST, "node-a"),
        node("node-b", "zone", "zone1", HOST, "node-b"), node("node-x", "zone", "zone2", HOST, "node-x"),
        node("node-y", "zone", "zone2", HOST, "node-y"));
    List<Placed> mixedLabels = List.of(on("node-a", "p-a1", "foo", ""), on("node-b", "p-b1", "foo", "", "bar", ""),
        on("node-y", "p-y1", "foo", ""), on("node-y", "p-y2", "bar", ""));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "two Constraints on zone and node, with different labelSelectors", () ->
        assertScore(fooBar, zoned, List.of(), mixedLabels, 60, 20, 100, 60)));
    c.add(UpstreamCase.of(PLUGIN, SCORING,
        "two Constraints on zone and node, with different labelSelectors, some nodes have 0 pods", () ->
        assertScore(fooBar, zoned, List.of(), List.of(on("node-b", "p-b1", "bar", ""), on("node-x", "p-x1", "foo", ""),
            on("node-y", "p-y1", "foo", "", "bar", "")), 100, 60, 40, 0)));
    c.add(UpstreamCase.of(PLUGIN, SCORING,
        "two Constraints on zone and node, with different labelSelectors, 3 out of 4 nodes are candidates", () ->
        assertScore(fooBar, zoned.subList(0, 3), zoned.subList(3, 4), mixedLabels, 50, 25, 100)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "existing pods in a different namespace do not count", () ->
        assertScore(host1, List.of(node("node-a", HOST, "node-a"), node("node-b", HOST, "node-b")), List.of(),
            List.of(onNs("node-a", "p-a1", "ns1", "foo", ""), on("node-a", "p-a2", "foo", ""),
                on("node-b", "p-b1", "foo", ""), on("node-b", "p-b2", "foo", "")), 100, 33)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "terminating Pods should be excluded", () ->
        assertScore(host1, List.of(node("node-a", HOST, "node-a"), node("node-b", HOST, "node-b")), List.of(),
            List.of(on("node-a", "p-a", "foo", ""), on("node-b", "p-b", "foo", "")), 100, 0))
        .differs("the twin's pods carry no deletionTimestamp: a pod leaves the scheduler's image when it is evicted, "
            + "so a terminating pod cannot be set up in it"));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "minDomains has no effect when ScheduleAnyway", () ->
        assertScore(spread(labelled("p", "foo", ""), sc(2, "node", SOFT, FOO, 10, null, null, List.of())),
            List.of(node("node-a", "node", "node-a"), node("node-b", "node", "node-b"), node("node-c", "node", "node-c")),
            List.of(), all(foos("node-a", "p-a", 2), foos("node-b", "p-b", 2), foos("node-c", "p-c", 1)),
            75, 75, 100)));
    List<Node> abFoo = List.of(node("node-a", "node", "node-a", "foo", ""), node("node-b", "node", "node-b", "foo", ""),
        node("node-c", "node", "node-c"));
    List<Placed> a2b1c1 = all(foos("node-a", "p-a", 2), foos("node-b", "p-b", 1), foos("node-c", "p-c", 1));
    Pod fooNodeSoft = spread(labelled("p", "foo", ""), sc(1, "node", SOFT, FOO));
    Pod fooNodeSoftIgnore = spread(labelled("p", "foo", ""), sc(1, "node", SOFT, FOO, null, IGNORE, null, List.of()));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "NodeAffinityPolicy honoed with labelSelectors", () ->
        assertScore(selecting(fooNodeSoft, "foo", ""), abFoo, List.of(), a2b1c1, 0, 33, 100)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "NodeAffinityPolicy ignored with labelSelectors", () ->
        assertScore(selecting(fooNodeSoftIgnore, "foo", ""), abFoo, List.of(), a2b1c1, 66, 100, 100)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "NodeAffinityPolicy honoed with nodeAffinity", () ->
        assertScore(requiring(fooNodeSoft, expr(Requirement.in("foo", ""))), abFoo, List.of(), a2b1c1, 0, 33, 100)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "NodeAffinityPolicy ignored with nodeAffinity", () ->
        assertScore(requiring(fooNodeSoftIgnore, expr(Requirement.in("foo", ""))), abFoo, List.of(), a2b1c1,
            66, 100, 100)));
    List<Node> taintedC = List.of(node("node-a", "node", "node-a"), node("node-b", "node", "node-b"),
        taintedNode("node-c", UNSCHEDULABLE, "node", "node-c"));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "NodeTaintsPolicy honored", () ->
        assertScore(spread(labelled("p", "foo", ""), sc(1, "node", SOFT, FOO, null, null, HONOR, List.of())), taintedC,
            List.of(), a2b1c1, 0, 33, 100)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "NodeTaintsPolicy ignored", () ->
        assertScore(fooNodeSoft, taintedC, List.of(), a2b1c1, 66, 100, 100)));
    List<Node> zonedAbcd = List.of(node("node-a", "zone", "zone1", HOST, "node-a"),
        node("node-b", "zone", "zone1", HOST, "node-b"), node("node-c", "zone", "zone2", HOST, "node-c"),
        node("node-d", "zone", "zone2", HOST, "node-d"));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "matchLabelKeys ANDed with LabelSelector when LabelSelector is empty", () ->
        assertScore(spread(labelled("p", "foo", "", "bar", ""), sc(1, "zone", SOFT, EMPTY, null, null, null, List.of("foo")),
                sc(1, HOST, SOFT, EMPTY, null, null, null, List.of("bar"))), zonedAbcd, List.of(),
            List.of(on("node-a", "p-a1", "foo", ""), on("node-b", "p-b1", "foo", "", "bar", ""),
                on("node-c", "p-y1", "foo", ""), on("node-c", "p-y2", "bar", "")), 60, 20, 60, 100)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty", () ->
        assertScore(spread(labelled("p", "foo", "", "bar", "", "baz", ""), sc(1, "zone", SOFT, FOO),
                sc(1, HOST, SOFT, BAR, null, null, null, List.of("baz"))), zonedAbcd, List.of(),
            List.of(on("node-a", "p-a1", "foo", ""), on("node-b", "p-b1", "foo", "", "bar", "", "baz", ""),
                on("node-c", "p-c1", "foo", ""), on("node-c", "p-c2", "bar", ""), on("node-c", "p-d3", "bar", "", "baz", "")),
            60, 20, 60, 100)));
    // TestPreScoreSkip: upstream skips for want of soft constraints; the twin's defaults skip a pod no controller owns.
    c.add(UpstreamCase.of(PLUGIN, SCORING, "the pod doesn't have soft topology spread Constraints", () ->
        assertSkipped(new PodTopologySpread(ControllerSelectors.of(List.of())),
            spread(pod("p"), sc(1, "zone", HARD, FOO)))));
    io.gpufleet.model.workload.Workload rs1 = new io.gpufleet.model.workload.Workload.ReplicaSet(ObjectMeta.named("rs1"),
        1, new LabelSelector(Labels.EMPTY, List.of(Requirement.exists("tar"))),
        new io.gpufleet.model.workload.PodTemplate(Labels.of("tar", ""), Labels.EMPTY, pod("t").spec()));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "default constraints and a replicaset that doesn't match", () ->
        assertSkipped(new PodTopologySpread(ControllerSelectors.of(List.of(rs1))),
            owned(labelled("p", "foo", "bar", "baz", "sup"), "rs2"))));
  }
}
