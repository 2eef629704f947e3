package io.gpufleet.engine.scheduler.conformance;

import static io.gpufleet.engine.scheduler.conformance.K.node;
import static io.gpufleet.engine.scheduler.conformance.K.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.engine.scheduler.plugin.FilterPlugin;
import io.gpufleet.engine.scheduler.plugin.InterPodAffinity;
import io.gpufleet.engine.scheduler.plugin.NamespaceLabels;
import io.gpufleet.model.affinity.PodAffinity;
import io.gpufleet.model.affinity.PodAffinityTerm;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * InterPodAffinity: {@code pkg/scheduler/framework/plugins/interpodaffinity/filtering_test.go}
 * (TestRequiredAffinitySingleNode, TestRequiredAffinityMultipleNodes) and {@code scoring_test.go}
 * (TestPreferredAffinity). Upstream runs PreFilter then Filter (PreScore, Score, NormalizeScore)
 * over a snapshot of existing pods; so do these, through the plugin's per-cycle filter and scorer. Its
 * namespaces are the test's Namespace objects (team labels), given through {@link NamespaceLabels}.
 */
final class InterPodAffinityCases {
  private InterPodAffinityCases() {}

  static final String FILTERING = "pkg/scheduler/framework/plugins/interpodaffinity/filtering_test.go";
  static final String SCORING = "pkg/scheduler/framework/plugins/interpodaffinity/scoring_test.go";
  private static final String PLUGIN = "InterPodAffinity";

  /** The test's Namespace objects: subteamN.teamM labelled team=teamM. */
  private static final Map<String, String> TEAMS = Map.of("subteam1.team1", "team1", "subteam2.team1", "team1",
      "subteam1.team2", "team2", "subteam2.team2", "team2");
  private static final NamespaceLabels NAMESPACES = ns -> TEAMS.containsKey(ns)
      ? Labels.of(NamespaceLabels.NAME_LABEL, ns, "team", TEAMS.get(ns)) : NamespaceLabels.NAME_ONLY.of(ns);

  private static int serial;

  /** A pod in a namespace with labels (key, value pairs); a fresh name each time. */
  private static Pod inNs(String namespace, String... labels) {
    String name = "p" + (++serial);
    return pod(name).withMeta(new ObjectMeta(name, namespace, Labels.of(labels), Labels.EMPTY, Optional.empty()));
  }

  private static Pod p(String... labels) {
    return inNs(ObjectMeta.DEFAULT_NAMESPACE, labels);
  }

  private static LabelSelector in(String key, String... values) {
    return new LabelSelector(Labels.EMPTY, List.of(Requirement.in(key, values)));
  }

  private static LabelSelector notIn(String key, String... values) {
    return new LabelSelector(Labels.EMPTY, List.of(Requirement.notIn(key, values)));
  }

  private static LabelSelector exists(String key) {
    return new LabelSelector(Labels.EMPTY, List.of(Requirement.exists(key)));
  }

  private static LabelSelector all(Requirement... r) {
    return new LabelSelector(Labels.EMPTY, List.of(r));
  }

  private static PodAffinityTerm term(LabelSelector s, String topologyKey) {
    return PodAffinityTerm.of(s, topologyKey);
  }

  private static Pod affinity(Pod pod, PodAffinityTerm... terms) {
    PodAffinity a = pod.spec().podAffinity();
    List<PodAffinityTerm> req = new ArrayList<>(a.required());
    req.addAll(Arrays.asList(terms));
    return pod.withSpec(pod.spec().withPodAffinity(new PodAffinity(req, a.preferred()), pod.spec().podAntiAffinity()));
  }

  private static Pod anti(Pod pod, PodAffinityTerm... terms) {
    PodAffinity a = pod.spec().podAntiAffinity();
    List<PodAffinityTerm> req = new ArrayList<>(a.required());
    req.addAll(Arrays.asList(terms));
    return pod.withSpec(pod.spec().withPodAffinity(pod.spec().podAffinity(), new PodAffinity(req, a.preferred())));
  }

  private record Placed(String node, Pod pod) {}

  private static Placed on(String node, Pod pod) {
    return new Placed(node, pod);
  }

  /** An expected Filter status: {@code null} for success. */
  private record Want(Status.Code code, String reason) {}

  private static final Want OK = null;
  private static final Want AFFINITY = new Want(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
      InterPodAffinity.REASON_AFFINITY);
  private static final Want ANTI = new Want(Status.Code.UNSCHEDULABLE, InterPodAffinity.REASON_ANTI_AFFINITY);
  private static final Want EXISTING = new Want(Status.Code.UNSCHEDULABLE, InterPodAffinity.REASON_EXISTING_ANTI_AFFINITY);

  private static ClusterSnapshot snapshot(List<Node> nodes, List<Placed> pods) {
    List<NodeInfo> infos = new ArrayList<>();
    for (Node n : nodes) {
      NodeInfo info = NodeInfo.of(n);
      for (Placed p : pods) {
        if (p.node().equals(n.name())) {
          info = info.withPod(PodInfo.of(p.pod()));
        }
      }
      infos.add(info);
    }
    return ClusterSnapshot.ofInfos(infos);
  }

  private static void assertFilter(Pod pod, List<Node> nodes, List<Placed> pods, Want... want) {
    ClusterSnapshot snap = snapshot(nodes, pods);
    PodInfo p = PodInfo.of(pod);
    FilterPlugin cycle = new InterPodAffinity(NAMESPACES).forCycle(p, snap)
        .orElseThrow(() -> new AssertionError("PreFilter skipped"));
    List<Want> got = new ArrayList<>();
    for (NodeInfo n : snap.nodes()) {
      Status s = cycle.filter(p, n);
      got.add(s.isSuccess() ? null : new Want(s.code(), s.reasons().getFirst()));
    }
    assertThat(got).as("filter statuses").containsExactly(want);
  }

  private static void assertSkipped(Pod pod, List<Node> nodes, List<Placed> pods) {
    assertThat(new InterPodAffinity(NAMESPACES).forCycle(PodInfo.of(pod), snapshot(nodes, pods)))
        .as("PreFilter skips").isEmpty();
  }

  /** Upstream's PreFilter rejects the pod on every node with this status; the twin has no such PreFilter. */
  private static void assertRejectedAtPreFilter(Pod pod, List<Node> nodes, String message) {
    ClusterSnapshot snap = snapshot(nodes, List.of());
    PodInfo p = PodInfo.of(pod);
    Status s = new InterPodAffinity(NAMESPACES).forCycle(p, snap).orElseThrow().filter(p, snap.get(0));
    assertThat(s.code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
    assertThat(s.reasons()).containsExactly(message);
  }

  private static Node n(String name, String... labels) {
    return node(name, labels);
  }

  static List<UpstreamCase> cases() {
    List<UpstreamCase> c = new ArrayList<>();
    single(c);
    multiple(c);
    preferred(c);
    return c;
  }

  // ---- TestRequiredAffinitySingleNode ----

  private static void single(List<UpstreamCase> c) {
    String[] podLabel = {"service", "securityscan"};
    String[] podLabel2 = {"security", "S1"};
    List<Node> node1 = List.of(n("node1", "region", "r1", "zone", "z11"));
    List<Placed> existing = List.of(on("node1", p(podLabel)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING,
        "A pod that has no required pod affinity scheduling rules can schedule onto a node with no existing pods", () ->
        assertSkipped(p(), node1, List.of())));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity "
        + "using In operator that matches the existing pod", () ->
        assertFilter(affinity(p(podLabel2), term(in("service", "securityscan", "value2"), "region")), node1, existing, OK)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in "
        + "PodAffinity using not in operator in labelSelector that matches the existing pod", () ->
        assertFilter(affinity(p(podLabel2), term(notIn("service", "securityscan3", "value3"), "region")), node1, existing,
            OK)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "Does not satisfy the PodAffinity with labelSelector because of diff Namespace",
        () -> assertFilter(affinity(p(podLabel2), term(in("service", "securityscan", "value2"), "")
                .withNamespaces(List.of("DiffNameSpace"), null)), node1,
            List.of(on("node1", inNs("ns", "service", "securityscan"))), AFFINITY)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING,
        "Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod", () ->
        assertFilter(affinity(p(podLabel), term(in("service", "antivirusscan", "value2"), "")), node1, existing,
            AFFINITY)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "satisfies the PodAffinity with different label Operators in multiple "
        + "RequiredDuringSchedulingIgnoredDuringExecution ", () ->
        assertFilter(affinity(p(podLabel2),
            term(all(Requirement.exists("service"), Requirement.doesNotExist("wrongkey")), "region"),
            term(all(Requirement.in("service", "securityscan"), Requirement.notIn("service", "WrongValue")), "region")),
            node1, existing, OK)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "The labelSelector requirements(items of matchExpressions) are ANDed, the pod "
        + "cannot schedule onto the node because one of the matchExpression item don't match.", () ->
        assertFilter(affinity(p(podLabel2),
            term(all(Requirement.exists("service"), Requirement.doesNotExist("wrongkey")), "region"),
            term(all(Requirement.in("service", "securityscan2"), Requirement.notIn("service", "WrongValue")), "region")),
            node1, existing, AFFINITY)));
    Pod affAndAnti = anti(affinity(p(podLabel2), term(in("service", "securityscan", "value2"), "region")),
        term(in("service", "antivirusscan", "value2"), "node"));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "satisfies the PodAffinity and PodAntiAffinity with the existing pod", () ->
        assertFilter(affAndAnti, node1, existing, OK)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING,
        "satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity symmetry with the existing pod", () ->
        assertFilter(affAndAnti, node1, List.of(on("node1", anti(p(podLabel),
            term(in("service", "antivirusscan", "value2"), "node")))), OK)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING,
        "satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with the existing pod", () ->
        assertFilter(anti(affinity(p(podLabel2), term(in("service", "securityscan", "value2"), "region")),
            term(in("service", "securityscan", "value2"), "zone")), node1, existing, ANTI)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy "
        + "PodAntiAffinity symmetry with the existing pod", () ->
        assertFilter(anti(affinity(p(podLabel), term(in("service", "securityscan", "value2"), "region")),
                term(in("service", "antivirusscan", "value2"), "node")), node1,
            List.of(on("node1", anti(p(podLabel), term(in("service", "securityscan", "value2"), "zone")))), EXISTING)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING,
        "pod matches its own Label in PodAffinity and that matches the existing pod Labels", () ->
        assertFilter(affinity(p(podLabel), term(notIn("service", "securityscan", "value2"), "region")), node1,
            List.of(on("node2", p("service", "securityscan"))), AFFINITY)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "verify that PodAntiAffinity from existing pod is respected when pod has no "
        + "AntiAffinity constraints. doesn't satisfy PodAntiAffinity symmetry with the existing pod", () ->
        assertFilter(p(podLabel), node1, List.of(on("node1", anti(p(podLabel),
            term(in("service", "securityscan", "value2"), "zone")))), EXISTING)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "verify that PodAntiAffinity from existing pod is respected when pod has no "
        + "AntiAffinity constraints. satisfy PodAntiAffinity symmetry with the existing pod", () ->
        assertSkipped(p(podLabel), node1, List.of(on("node1", anti(p(podLabel),
            term(notIn("service", "securityscan", "value2"), "zone")))))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "satisfies the PodAntiAffinity with existing pod but doesn't satisfy "
        + "PodAntiAffinity symmetry with incoming pod", () ->
        assertFilter(anti(p(podLabel), term(exists("service"), "region"), term(exists("security"), "region")), node1,
            List.of(on("node1", anti(p(podLabel2), term(exists("security"), "zone")))), ANTI)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "PodAntiAffinity symmetry check a1: incoming pod and existing pod partially "
        + "match each other on AffinityTerms", () ->
        assertFilter(anti(p(podLabel), term(exists("service"), "zone"), term(exists("security"), "zone")), node1,
            List.of(on("node1", anti(p(podLabel2), term(exists("security"), "zone")))), ANTI)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "PodAntiAffinity symmetry check a2: incoming pod and existing pod partially "
        + "match each other on AffinityTerms", () ->
        assertFilter(anti(p(podLabel2), term(exists("security"), "zone")), node1,
            List.of(on("node1", anti(p(podLabel), term(exists("service"), "zone"), term(exists("security"), "zone")))),
            EXISTING)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "PodAntiAffinity symmetry check b1: incoming pod and existing pod partially "
        + "match each other on AffinityTerms", () ->
        assertFilter(anti(p("abc", "", "xyz", ""), term(exists("abc"), "zone"), term(exists("def"), "zone")), node1,
            List.of(on("node1", anti(p("def", "", "xyz", ""), term(exists("abc"), "zone"), term(exists("def"), "zone")))),
            ANTI)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "PodAntiAffinity symmetry check b2: incoming pod and existing pod partially "
        + "match each other on AffinityTerms", () ->
        assertFilter(anti(p("def", "", "xyz", ""), term(exists("abc"), "zone"), term(exists("def"), "zone")), node1,
            List.of(on("node1", anti(p("abc", "", "xyz", ""), term(exists("abc"), "zone"), term(exists("def"), "zone")))),
            ANTI)));
    String badValue = "parsing pod: requiredAffinityTerms: values[0][service]: Invalid value: \"{{.bad-value.}}\": a "
        + "valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start "
        + "and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
        + "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
    String parse = "the manifest reader rejects an invalid label value in a selector, as the API server does "
        + "(LabelSyntax); the engine's PreFilter does not parse selectors again";
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "PodAffinity fails PreFilter with an invalid affinity label syntax", () ->
        assertRejectedAtPreFilter(affinity(p(podLabel), term(in("service", "{{.bad-value.}}"), "region"),
            term(in("service", "antivirusscan", "value2"), "node")), node1, badValue)).differs(parse));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "PodAntiAffinity fails PreFilter with an invalid antiaffinity label syntax",
        () -> assertRejectedAtPreFilter(affinity(p(podLabel), term(in("service", "foo"), "region"),
            term(in("service", "{{.bad-value.}}"), "node")), node1, badValue)).differs(parse));
    LabelSelector team1 = in("team", "team1");
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "affinity with NamespaceSelector", () ->
        assertFilter(affinity(p(podLabel2), term(in("service", "securityscan", "value2"), "region")
                .withNamespaces(List.of(), team1)), node1,
            List.of(on("node1", inNs("subteam1.team1", podLabel))), OK)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "affinity with non-matching NamespaceSelector", () ->
        assertFilter(affinity(p(podLabel2), term(in("service", "securityscan", "value2"), "region")
                .withNamespaces(List.of(), team1)), node1,
            List.of(on("node1", inNs("subteam1.team2", podLabel))), AFFINITY)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "anti-affinity with matching NamespaceSelector", () ->
        assertFilter(anti(inNs("subteam1.team1", podLabel2), term(in("service", "securityscan", "value2"), "zone")
                .withNamespaces(List.of(), team1)), node1,
            List.of(on("node1", inNs("subteam2.team1", podLabel))), ANTI)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "anti-affinity with matching all NamespaceSelector", () ->
        assertFilter(anti(inNs("subteam1.team1", podLabel2), term(in("service", "securityscan", "value2"), "zone")
                .withNamespaces(List.of(), LabelSelector.EVERYTHING)), node1,
            List.of(on("node1", inNs("subteam2.team1", podLabel))), ANTI)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "anti-affinity with non-matching NamespaceSelector", () ->
        assertFilter(anti(inNs("subteam1.team1", podLabel2), term(in("service", "securityscan", "value2"), "zone")
                .withNamespaces(List.of(), team1)), node1,
            List.of(on("node1", inNs("subteam1.team2", podLabel))), OK)));
  }

  // ---- TestRequiredAffinityMultipleNodes ----

  private static void multiple(List<UpstreamCase> c) {
    List<Node> chinaIndia = List.of(n("node1", "region", "China"), n("node2", "region", "China", "az", "az1"),
        n("node3", "region", "India"));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "A pod can be scheduled onto all the nodes that have the same topology key & "
        + "label value with one of them has an existing pod that matches the affinity rules", () ->
        assertFilter(affinity(p(), term(in("foo", "bar"), "region")), chinaIndia,
            List.of(on("node1", p("foo", "bar"))), OK, OK, AFFINITY)));
    Pod series = affinity(p("foo", "bar", "service", "securityscan"), term(in("foo", "bar"), "zone"),
        term(in("service", "securityscan"), "zone"));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "The affinity rule is to schedule all of the pods of this collection to the "
        + "same zone. The first pod of the collection should not be blocked from being scheduled onto any node, even "
        + "there's no existing pod that matches the rule anywhere.", () ->
        assertFilter(series, List.of(n("nodeA", "zone", "az1", "hostname", "h1"), n("nodeB", "zone", "az2", "hostname", "h2")),
            List.of(on("nodeA", p("foo", "bar"))), OK, OK)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING,
        "The first pod of the collection can only be scheduled on nodes labelled with the requested topology keys", () ->
        assertFilter(series, List.of(n("nodeA", "zoneLabel", "az1", "hostname", "h1"),
                n("nodeB", "zoneLabel", "az2", "hostname", "h2")),
            List.of(on("nodeA", p("foo", "bar"))), AFFINITY, AFFINITY)));
    List<Node> r1 = List.of(n("nodeA", "region", "r1", "hostname", "nodeA"), n("nodeB", "region", "r1", "hostname", "nodeB"));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "NodeA and nodeB have same topologyKey and label value. NodeA has an existing "
        + "pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB.", () ->
        assertFilter(anti(p(), term(in("foo", "abc"), "region")), r1, List.of(on("nodeA", p("foo", "abc"))), ANTI, ANTI)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "This test ensures that anti-affinity matches a pod when any term of the "
        + "anti-affinity rule matches a pod.", () ->
        assertFilter(anti(p(), term(in("foo", "abc"), "region"), term(in("service", "securityscan"), "zone")),
            List.of(n("nodeA", "region", "r1", "zone", "z1", "hostname", "nodeA"),
                n("nodeB", "region", "r1", "zone", "z2", "hostname", "nodeB")),
            List.of(on("nodeA", p("foo", "abc", "service", "securityscan"))), ANTI, ANTI)));
    List<Node> abc = List.of(n("nodeA", "region", "China"), n("nodeB", "region", "China", "az", "az1"),
        n("nodeC", "region", "India"));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "NodeA and nodeB have same topologyKey and label value. NodeA has an existing "
        + "pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB but can be "
        + "scheduled onto nodeC", () ->
        assertFilter(anti(p(), term(in("foo", "abc"), "region")), abc, List.of(on("nodeA", p("foo", "abc"))),
            ANTI, ANTI, OK)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "NodeA and nodeB have same topologyKey and label value. NodeA has an existing "
        + "pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA, nodeB, but can be "
        + "scheduled onto nodeC (NodeC has an existing pod that match the inter pod affinity rule but in different "
        + "namespace)", () ->
        assertFilter(anti(inNs("NS1", "foo", "123"), term(in("foo", "bar"), "region")), abc,
            List.of(on("nodeA", inNs("NS1", "foo", "bar")), on("nodeC", anti(inNs("NS2"), term(in("foo", "123"), "region")))),
            ANTI, ANTI, OK)));
    List<Node> z1z1 = List.of(n("nodeA", "region", "r1", "zone", "z1", "hostname", "nodeA"),
        n("nodeB", "region", "r1", "zone", "z1", "hostname", "nodeB"));
    List<Node> z1z2 = List.of(n("nodeA", "region", "r1", "zone", "z1", "hostname", "nodeA"),
        n("nodeB", "region", "r1", "zone", "z2", "hostname", "nodeB"));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "Test existing pod's anti-affinity: if an existing pod has a term with invalid "
        + "topologyKey, labelSelector of the term is firstly checked, and then topologyKey of the term is also checked", () ->
        assertSkipped(p("foo", ""), z1z1, List.of(on("nodeA", anti(p(), term(exists("foo"), "invalid-node-label")))))));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "Test incoming pod's anti-affinity: even if labelSelector matches, we still "
        + "check if topologyKey matches", () ->
        assertFilter(anti(p(), term(exists("foo"), "invalid-node-label")), z1z1, List.of(on("nodeA", p("foo", ""))),
            OK, OK)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "Test existing pod's anti-affinity: incoming pod wouldn't considered as a fit "
        + "as it violates each existingPod's terms on all nodes", () ->
        assertFilter(p("foo", "", "bar", ""), z1z2, List.of(on("nodeA", anti(p(), term(exists("foo"), "zone"))),
            on("nodeA", anti(p(), term(exists("bar"), "region")))), EXISTING, EXISTING)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "Test incoming pod's anti-affinity: incoming pod wouldn't considered as a fit as "
        + "it at least violates one anti-affinity rule of existingPod", () ->
        assertFilter(anti(p(), term(exists("foo"), "zone"), term(exists("bar"), "region")), z1z2,
            List.of(on("nodeA", p("foo", "")), on("nodeB", p("bar", ""))), ANTI, ANTI)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "Test existing pod's anti-affinity: only when labelSelector and topologyKey "
        + "both match, it's counted as a single term match - case when one term has invalid topologyKey", () ->
        assertFilter(p("foo", "", "bar", ""), z1z2, List.of(on("nodeA", anti(p(),
            term(exists("foo"), "invalid-node-label"), term(exists("bar"), "zone")))), EXISTING, OK)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "Test incoming pod's anti-affinity: only when labelSelector and topologyKey "
        + "both match, it's counted as a single term match - case when one term has invalid topologyKey", () ->
        assertFilter(anti(p(), term(exists("foo"), "invalid-node-label"), term(exists("bar"), "zone")), z1z2,
            List.of(on("nodeA", p("foo", "", "bar", ""))), ANTI, OK)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "Test existing pod's anti-affinity: only when labelSelector and topologyKey "
        + "both match, it's counted as a single term match - case when all terms have valid topologyKey", () ->
        assertFilter(p("foo", "", "bar", ""), z1z2, List.of(on("nodeA", anti(p(),
            term(exists("foo"), "region"), term(exists("bar"), "zone")))), EXISTING, EXISTING)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "Test incoming pod's anti-affinity: only when labelSelector and topologyKey "
        + "both match, it's counted as a single term match - case when all terms have valid topologyKey", () ->
        assertFilter(anti(p(), term(exists("foo"), "region"), term(exists("bar"), "zone")), z1z2,
            List.of(on("nodeA", p("foo", "", "bar", ""))), ANTI, ANTI)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "Test existing pod's anti-affinity: existingPod on nodeA and nodeB has at "
        + "least one anti-affinity term matches incoming pod, so incoming pod can only be scheduled to nodeC", () ->
        assertFilter(p("foo", "", "bar", ""), List.of(n("nodeA", "region", "r1", "zone", "z1", "hostname", "nodeA"),
                n("nodeB", "region", "r1", "zone", "z2", "hostname", "nodeB"),
                n("nodeC", "region", "r1", "zone", "z3", "hostname", "nodeC")),
            List.of(on("nodeA", anti(p(), term(exists("foo"), "zone"), term(exists("labelA"), "zone"))),
                on("nodeB", anti(p(), term(exists("bar"), "zone"), term(exists("labelB"), "zone")))),
            EXISTING, EXISTING, OK)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "Test incoming pod's affinity: firstly check if all affinityTerms match, and "
        + "then check if all topologyKeys match", () ->
        assertFilter(affinity(p(), term(exists("foo"), "region"), term(exists("bar"), "zone")), z1z1,
            List.of(on("nodeA", p("foo", "", "bar", ""))), OK, OK)));
    c.add(UpstreamCase.of(PLUGIN, FILTERING, "Test incoming pod's affinity: firstly check if all affinityTerms match, and "
        + "then check if all topologyKeys match, and the match logic should be satisfied on the same pod", () ->
        assertFilter(affinity(p(), term(exists("foo"), "region"), term(exists("bar"), "zone")), z1z2,
            List.of(on("nodeA", p("foo", "")), on("nodeB", p("bar", ""))), AFFINITY, AFFINITY)));
  }

  // ---- scoring_test.go TestPreferredAffinity ----

  private static io.gpufleet.model.affinity.WeightedPodAffinityTerm w(int weight, PodAffinityTerm t) {
    return new io.gpufleet.model.affinity.WeightedPodAffinityTerm(weight, t);
  }

  private static PodAffinity prefer(io.gpufleet.model.affinity.WeightedPodAffinityTerm... terms) {
    return new PodAffinity(List.of(), List.of(terms));
  }

  private static Pod with(Pod pod, PodAffinity affinity, PodAffinity antiAffinity) {
    return pod.withSpec(pod.spec().withPodAffinity(affinity, antiAffinity));
  }

  private static void assertScores(Pod pod, List<Node> nodes, List<Placed> pods, long... want) {
    ClusterSnapshot snap = snapshot(nodes, pods);
    PodInfo p = PodInfo.of(pod);
    var cycle = new InterPodAffinity(NAMESPACES).preScore(p, snap)
        .orElseThrow(() -> new AssertionError("PreScore skipped"));
    long[] got = new long[snap.size()];
    for (int i = 0; i < got.length; i++) {
      got[i] = cycle.score(p, snap.get(i));
    }
    cycle.normalize(p, got);
    assertThat(got).as("scores").isEqualTo(want);
  }

  private static void preferred(List<UpstreamCase> c) {
    String[] s1 = {"security", "S1"};
    String[] s2 = {"security", "S2"};
    PodAffinity none = PodAffinity.NONE;
    PodAffinity stayWithS1InRegion = prefer(w(5, term(in("security", "S1"), "region")));
    PodAffinity stayWithS2InRegion = prefer(w(6, term(in("security", "S2"), "region")));
    PodAffinity affinity3 = prefer(w(8, term(all(Requirement.notIn("security", "S1"), Requirement.in("security", "S2")),
        "region")), w(2, term(all(Requirement.exists("security"), Requirement.doesNotExist("wrongkey")), "region")));
    PodAffinity hardAffinity = new PodAffinity(List.of(term(in("security", "S1", "value2"), "region"),
        term(all(Requirement.exists("security"), Requirement.doesNotExist("wrongkey")), "region")), List.of());
    PodAffinity awayFromS1InAz = prefer(w(5, term(in("security", "S1"), "az")));
    PodAffinity awayFromS2InAz = prefer(w(5, term(in("security", "S2"), "az")));
    PodAffinity stayS1 = prefer(w(8, term(in("security", "S1"), "region")));
    PodAffinity awayS2 = prefer(w(5, term(in("security", "S2"), "az")));
    PodAffinity byNamespaceSelector = prefer(w(5, term(in("security", "S1"), "region")
        .withNamespaces(List.of("subteam2.team2"), in("team", "team1"))));
    List<Node> chinaIndiaAz1 = List.of(n("node1", "region", "China"), n("node2", "region", "India"), n("node3", "az", "az1"));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "all nodes are same priority as Affinity is nil", () ->
        assertThat(new InterPodAffinity(NAMESPACES).preScore(PodInfo.of(p(s1)), snapshot(chinaIndiaAz1, List.of())))
            .as("PreScore skips").isEmpty()));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "Affinity: pod that matches topology key & pods in nodes will get high score "
        + "comparing to otherswhich doesn't match either pods in nodes or in topology key", () ->
        assertScores(with(p(s1), stayWithS1InRegion, none), chinaIndiaAz1,
            List.of(on("node1", p(s1)), on("node2", p(s2)), on("node3", p(s1))), 100, 0, 0)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "All the nodes that have the same topology key & label value with one of them "
        + "has an existing pod that match the affinity rules, have the same score", () ->
        assertScores(with(p(), stayWithS1InRegion, none), List.of(n("node1", "region", "China"),
                n("node2", "region", "China", "az", "az1"), n("node3", "region", "India")),
            List.of(on("node1", p(s1))), 100, 100, 0)));
    List<Node> fiveRegions = List.of(n("node1", "region", "China"), n("node2", "region", "India"),
        n("node3", "region", "China"), n("node4", "region", "China"), n("node5", "region", "India"));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "Affinity: nodes in one region has more matching pods comparing to other region, "
        + "so the region which has more matches will get high score", () ->
        assertScores(with(p(s1), stayWithS2InRegion, none), fiveRegions,
            List.of(on("node1", p(s2)), on("node1", p(s2)), on("node2", p(s2)), on("node3", p(s2)), on("node4", p(s2)),
                on("node5", p(s2))), 100, 0, 100, 100, 0)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "Affinity: different Label operators and values for pod affinity scheduling "
        + "preference, including some match failures ", () ->
        assertScores(with(p(s1), affinity3, none), chinaIndiaAz1,
            List.of(on("node1", p(s1)), on("node2", p(s2)), on("node3", p(s1))), 20, 100, 0)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "Affinity symmetry: considered only the preferredDuringSchedulingIgnoredDuring"
        + "Execution in pod affinity symmetry", () ->
        assertScores(p(s2), chinaIndiaAz1, List.of(on("node1", with(p(s1), stayWithS1InRegion, none)),
            on("node2", with(p(s2), stayWithS2InRegion, none))), 0, 100, 0)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "Affinity symmetry with namespace selector", () ->
        assertScores(inNs("subteam1.team1", s1), chinaIndiaAz1, List.of(on("node1", with(p(s1), byNamespaceSelector, none)),
            on("node2", with(p(s2), stayWithS2InRegion, none))), 100, 0, 0)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "AntiAffinity symmetry with namespace selector", () ->
        assertScores(inNs("subteam1.team1", s1), chinaIndiaAz1, List.of(on("node1", with(p(s1), none, byNamespaceSelector)),
            on("node2", with(p(s2), stayWithS2InRegion, none))), 0, 100, 100)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "Affinity symmetry: considered RequiredDuringSchedulingIgnoredDuringExecution "
        + "in pod affinity symmetry", () ->
        assertScores(p(s1), chinaIndiaAz1, List.of(on("node1", with(p(s1), hardAffinity, none)),
            on("node2", with(p(s2), hardAffinity, none))), 100, 100, 0)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "Anti Affinity: pod that does not match existing pods in node will get high "
        + "score ", () ->
        assertScores(with(p(s1), none, awayFromS1InAz), List.of(n("node1", "az", "az1"), n("node2", "region", "China")),
            List.of(on("node1", p(s1)), on("node2", p(s2))), 0, 100)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "Anti Affinity: pod that does not match topology key & match the pods in nodes "
        + "will get higher score comparing to others ", () ->
        assertScores(with(p(s1), none, awayFromS1InAz), List.of(n("node1", "az", "az1"), n("node2", "region", "China")),
            List.of(on("node1", p(s1)), on("node2", p(s1))), 0, 100)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "Anti Affinity: one node has more matching pods comparing to other node, so the "
        + "node which has more unmatches will get high score", () ->
        assertScores(with(p(s1), none, awayFromS1InAz), List.of(n("node1", "az", "az1"), n("node2", "region", "India")),
            List.of(on("node1", p(s1)), on("node1", p(s1)), on("node2", p(s2))), 0, 100)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "Anti Affinity symmetry: the existing pods in node which has anti affinity "
        + "match will get high score", () ->
        assertScores(p(s2), List.of(n("node1", "az", "az1"), n("node2", "az", "az2")),
            List.of(on("node1", with(p(s1), none, awayFromS2InAz)), on("node2", with(p(s2), none, awayFromS1InAz))),
            0, 100)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "Affinity and Anti Affinity: considered only preferredDuringSchedulingIgnored"
        + "DuringExecution in both pod affinity & anti affinity", () ->
        assertScores(with(p(s1), stayS1, awayS2), List.of(n("node1", "region", "China"), n("node2", "az", "az1")),
            List.of(on("node1", p(s1)), on("node2", p(s1))), 100, 0)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "Affinity and Anti Affinity: considering both affinity and anti-affinity, the "
        + "pod to schedule and existing pods have the same labels", () ->
        assertScores(with(p(s1), stayS1, awayS2), List.of(n("node1", "region", "China", "az", "az1"),
                n("node2", "region", "India"), n("node3", "region", "China"), n("node4", "region", "China"),
                n("node5", "region", "India")),
            List.of(on("node1", p(s1)), on("node1", p(s1)), on("node2", p(s1)), on("node3", p(s1)), on("node3", p(s1)),
                on("node4", p(s1)), on("node5", p(s1))), 100, 0, 100, 100, 0)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "Affinity and Anti Affinity and symmetry: considered only preferredDuring"
        + "SchedulingIgnoredDuringExecution in both pod affinity & anti affinity & symmetry", () ->
        assertScores(with(p(s1), stayS1, awayS2), List.of(n("node1", "region", "China"), n("node2", "az", "az1"),
                n("node3", "region", "India"), n("node4", "az", "az2")),
            List.of(on("node1", p(s1)), on("node2", p(s2)), on("node3", with(p(), stayS1, awayS2)),
                on("node4", with(p(), none, awayFromS1InAz))), 100, 0, 100, 0)));
    c.add(UpstreamCase.of(PLUGIN, SCORING, "Avoid panic when partial nodes in a topology don't have pods with affinity", () ->
        assertScores(p(s1), List.of(n("node1", "region", "China"), n("node2", "region", "China")),
            List.of(on("node1", p(s1)), on("node2", with(p(), stayS1, awayS2))), 0, 0)));
  }
}
