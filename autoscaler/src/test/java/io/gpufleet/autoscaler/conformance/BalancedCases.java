package io.gpufleet.autoscaler.conformance;

import static io.gpufleet.autoscaler.conformance.K.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.AutoscalerSettings.GpuSizing;
import io.gpufleet.autoscaler.disruption.BalancedScoring;
import io.gpufleet.autoscaler.disruption.Candidate;
import io.gpufleet.autoscaler.disruption.DisruptionCommand;
import io.gpufleet.autoscaler.disruption.DisruptionController;
import io.gpufleet.autoscaler.gpu.NvidiaDevicePlugin;
import io.gpufleet.autoscaler.provisioning.Provisioner;
import io.gpufleet.autoscaler.provisioning.ProvisioningModel;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * The Balanced consolidation policy's cases, from kubernetes-sigs/karpenter's
 * {@code pkg/controllers/disruption/balanced_test.go} (ScoreMove on the RFC's example pool),
 * {@code balanced_scoring_test.go} (EvaluateBalancedMove) and {@code balanced_integration_test.go}
 * (the disruption controller's poll on a Balanced NodePool, budgets 100%, consolidateAfter 0s).
 * Upstream's fake instance types become the catalogue's m5 types: its most expensive type
 * m5.4xlarge, its cheapest with room for the pods m5.8xlarge.
 */
final class BalancedCases {
  private BalancedCases() {}

  static final String SCORE = "pkg/controllers/disruption/balanced_test.go";
  static final String SCORING = "pkg/controllers/disruption/balanced_scoring_test.go";
  static final String INTEGRATION = "pkg/controllers/disruption/balanced_integration_test.go";
  static final String AREA = "balanced consolidation";

  /** The RFC example pool: eight m7i.xlarge and two m7i.2xlarge, 80 pods. */
  static final BalancedScoring.Totals DEFAULT = new BalancedScoring.Totals(58.08, 90);

  static double expected(double savings, double disruption, BalancedScoring.Totals t) {
    return (savings / t.totalCost()) / (disruption / t.totalDisruptionCost());
  }

  static BalancedScoring.Score score(double savings, double disruption, BalancedScoring.Totals t, int k) {
    return BalancedScoring.scoreMove(savings, disruption, t, k);
  }

  static List<UpstreamCase> all() {
    List<UpstreamCase> c = new ArrayList<>();
    scoreMove(c);
    evaluate(c);
    integration(c);
    return c;
  }

  // ---- ScoreMove ----

  private static void scoreMove(List<UpstreamCase> c) {
    c.add(UpstreamCase.of(AREA, SCORE, "should approve an oversized node consolidation", () -> {
      BalancedScoring.Score r = score(7.26, 4.0, DEFAULT, BalancedScoring.K);
      assertThat(r.approved()).isTrue();
      assertThat(r.score()).isCloseTo(expected(7.26, 4.0, DEFAULT), within(0.02));
      assertThat(r.savingsFraction()).isCloseTo(7.26 / 58.08, within(0.001));
      assertThat(r.disruptionFraction()).isCloseTo(4.0 / 90, within(0.001));
    }));
    c.add(UpstreamCase.of(AREA, SCORE, "should approve a spare capacity delete", () -> {
      BalancedScoring.Score r = score(4.84, 5.0, DEFAULT, BalancedScoring.K);
      assertThat(r.approved()).isTrue();
      assertThat(r.score()).isCloseTo(expected(4.84, 5.0, DEFAULT), within(0.02));
    }));
    c.add(UpstreamCase.of(AREA, SCORE, "should reject a marginal move", () -> {
      BalancedScoring.Score r = score(2.42, 9.0, DEFAULT, BalancedScoring.K);
      assertThat(r.approved()).isFalse();
      assertThat(r.score()).isCloseTo(expected(2.42, 9.0, DEFAULT), within(0.01));
    }));
    c.add(UpstreamCase.of(AREA, SCORE, "should reject a well-packed node with zero savings", () -> {
      BalancedScoring.Score r = score(0, 11.0, DEFAULT, BalancedScoring.K);
      assertThat(r.approved()).isFalse();
      assertThat(r.score()).isZero();
    }));
    c.add(UpstreamCase.of(AREA, SCORE, "should approve a replace in a uniform pool", () -> {
      BalancedScoring.Totals uniform = new BalancedScoring.Totals(48.40, 90);
      BalancedScoring.Score r = score(2.42, 9.0, uniform, BalancedScoring.K);
      assertThat(r.approved()).isTrue();
      assertThat(r.score()).isCloseTo(expected(2.42, 9.0, uniform), within(0.01));
    }));
    c.add(UpstreamCase.of(AREA, SCORE, "should approve low-disruption nodes and reject high-disruption nodes", () -> {
      BalancedScoring.Totals het = new BalancedScoring.Totals(58.08, 117);
      BalancedScoring.Score a = score(4.84, 5.0, het, BalancedScoring.K);
      assertThat(a.approved()).isTrue();
      assertThat(a.score()).isCloseTo(expected(4.84, 5.0, het), within(0.02));
      BalancedScoring.Score b = score(4.84, 32.0, het, BalancedScoring.K);
      assertThat(b.approved()).isFalse();
      assertThat(b.score()).isCloseTo(expected(4.84, 32.0, het), within(0.01));
    }));
    c.add(UpstreamCase.of(AREA, SCORE, "should produce the same score regardless of pool size", () -> {
      BalancedScoring.Score ten = score(7.26, 4.0, DEFAULT, BalancedScoring.K);
      BalancedScoring.Score hundred = score(7.26, 4.0, new BalancedScoring.Totals(580.80, 900), BalancedScoring.K);
      assertThat(ten.score()).isCloseTo(hundred.score(), within(0.01));
      assertThat(ten.score()).isCloseTo(expected(7.26, 4.0, DEFAULT), within(0.02));
    }));
    c.add(UpstreamCase.of(AREA, SCORE, "should approve with +Inf score when move disruption is zero and savings "
        + "positive", () -> {
      BalancedScoring.Score r = score(4.84, 0, DEFAULT, BalancedScoring.K);
      assertThat(r.approved()).isTrue();
      assertThat(r.score()).isEqualTo(Double.POSITIVE_INFINITY);
    }));
    c.add(UpstreamCase.of(AREA, SCORE, "should reject when both savings and disruption are zero", () ->
        assertThat(score(0, 0, DEFAULT, BalancedScoring.K).approved()).isFalse()));
    c.add(UpstreamCase.of(AREA, SCORE, "should reject when nodepool cost is zero", () ->
        assertThat(score(4.84, 5.0, new BalancedScoring.Totals(0, 90), BalancedScoring.K).approved()).isFalse()));
    c.add(UpstreamCase.of(AREA, SCORE, "should approve when move disruption is zero (division by zero guard)", () ->
        assertThat(score(4.84, 0, DEFAULT, BalancedScoring.K).approved()).isTrue()));
    c.add(UpstreamCase.of(AREA, SCORE, "should reject at k=2 for a marginal move", () ->
        assertThat(score(2.42, 9.0, DEFAULT, 2).approved()).isFalse()));
    c.add(UpstreamCase.of(AREA, SCORE, "should approve at k=3 for the same move", () ->
        assertThat(score(2.42, 9.0, DEFAULT, 3).approved()).isTrue()));
    c.add(UpstreamCase.of(AREA, SCORE, "should reject at k=1 for the same move", () ->
        assertThat(score(2.42, 9.0, DEFAULT, 1).approved()).isFalse()));
    c.add(UpstreamCase.of(AREA, SCORE, "should produce identical scores for proportionally equivalent moves", () -> {
      BalancedScoring.Score od = score(4.84, 4.0, new BalancedScoring.Totals(48.40, 90), BalancedScoring.K);
      BalancedScoring.Score spot = score(1.45, 4.0, new BalancedScoring.Totals(14.50, 90), BalancedScoring.K);
      assertThat(od.score()).isCloseTo(spot.score(), within(0.01));
      assertThat(od.approved()).isTrue();
      assertThat(spot.approved()).isTrue();
    }));
  }

  // ---- EvaluateBalancedMove ----

  static NodePool balanced(String name) {
    return consolidating(name, ConsolidationPolicy.BALANCED, Duration.ZERO, 100, "on-demand");
  }

  /** {@code count} m5.xlarge nodes of the pool, one default pod each (disruption cost 1 + 1), from seed {@code from}. */
  static List<StateNode> nodes(NodePool pool, int count, int from) {
    return IntStream.range(from, from + count).mapToObj(i -> node(pool, "m5.xlarge", i,
        owned(pod(pool.name() + "-p" + i, "cpu", "100m")))).toList();
  }

  /** makeCandidate: the node as a candidate, its price the claim's, its disruption cost 1 + its pods'. */
  static Candidate candidate(StateNode n, NodePool pool) {
    return new Candidate(n, n.claim().orElseThrow(), pool, n.reschedulablePods(), n.claim().get().pricePerHour(),
        1.0 + n.reschedulablePods().size());
  }

  static BalancedScoring totals(List<NodePool> pools, List<StateNode> nodes) {
    return BalancedScoring.of(new ClusterView(T0.plus(Duration.ofHours(1)), pools, CATALOG, OfferingAvailability.ALL,
        nodes, List.of(), List.of(), PdbIndex.NONE));
  }

  private static void evaluate(List<UpstreamCase> c) {
    c.add(UpstreamCase.of(AREA, SCORING, "should reject when command has zero candidates", () -> {
      BalancedScoring.Verdict v = new BalancedScoring(Map.of("pool-a",
          new BalancedScoring.Totals(100, 50))).evaluate(List.of(), 0);
      assertThat(v.approved()).isFalse();
      assertThat(v.perPool()).isEmpty();
    }));
    c.add(UpstreamCase.of(AREA, SCORING, "should skip non-Balanced pools and approve unconditionally", () -> {
      NodePool np = consolidating("pool-nobalanced", ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, Duration.ZERO,
          100, "on-demand");
      List<StateNode> ns = nodes(np, 5, 1);
      BalancedScoring.Verdict v = totals(List.of(np), ns).evaluate(List.of(candidate(ns.get(0), np),
          candidate(ns.get(1), np)), 0);
      assertThat(v.perPool()).doesNotContainKey("pool-nobalanced");
      assertThat(v.approved()).isTrue();
    }));
    c.add(UpstreamCase.of(AREA, SCORING, "should reject when candidate NodePool is missing from totals map", () -> {
      NodePool np = balanced("pool-missing");
      StateNode n = nodes(np, 1, 1).getFirst();
      BalancedScoring.Verdict v = new BalancedScoring(Map.of()).evaluate(List.of(candidate(n, np)), 0.8);
      assertThat(v.perPool().get("pool-missing").score()).isZero();
      assertThat(v.perPool().get("pool-missing").approved()).isFalse();
      assertThat(v.approved()).isFalse();
    }));
    c.add(UpstreamCase.of(AREA, SCORING, "should approve a delete command for a single Balanced NodePool", () -> {
      // Ten nodes; deleting one saves a tenth of the cost and causes a tenth of the disruption.
      NodePool np = balanced("pool-single");
      List<StateNode> ns = nodes(np, 10, 1);
      Candidate first = candidate(ns.getFirst(), np);
      BalancedScoring.Verdict v = totals(List.of(np), ns).evaluate(List.of(first), first.price());
      assertThat(v.approved()).isTrue();
      assertThat(v.perPool().get("pool-single").score()).isCloseTo(1.0, within(0.05));
    }));
    c.add(UpstreamCase.of(AREA, SCORING, "should attribute savings proportionally in cross-NodePool scenarios", () -> {
      NodePool b = balanced("pool-balanced");
      NodePool e = consolidating("pool-empty", ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, Duration.ZERO, 100,
          "on-demand");
      List<StateNode> bs = nodes(b, 5, 1);
      List<StateNode> es = nodes(e, 5, 11);
      List<StateNode> all = new ArrayList<>(bs);
      all.addAll(es);
      Candidate cb = candidate(bs.getFirst(), b);
      Candidate ce = candidate(es.getFirst(), e);
      BalancedScoring.Verdict v = totals(List.of(b, e), all).evaluate(List.of(cb, ce), cb.price() + ce.price());
      assertThat(v.approved()).isTrue();
      assertThat(v.perPool().get("pool-balanced").score()).isCloseTo(1.0, within(0.05));
    }));
  }

  // ---- the disruption controller on Balanced NodePools ----

  static Optional<DisruptionCommand> poll(List<NodePool> pools, List<StateNode> nodes) {
    ClusterView view = new ClusterView(T0.plus(Duration.ofHours(1)), pools, CATALOG, OfferingAvailability.ALL, nodes,
        List.of(), List.of(), PdbIndex.NONE);
    Provisioner p = new Provisioner(ProvisioningModel.of(pools, CATALOG, List.of(), NvidiaDevicePlugin.DEFAULTS,
        GpuSizing.PHYSICAL));
    return new DisruptionController(AutoscalerSettings.DEFAULTS, p).poll(view, new SplittableRandom(7));
  }

  static void assertScored(DisruptionCommand cmd, String object) {
    assertThat(cmd.approvals()).containsKey(object);
    assertThat(cmd.approvals().get(object)).contains("k: 2").contains(">= threshold 0.50");
  }

  private static void integration(List<UpstreamCase> c) {
    c.add(UpstreamCase.of(AREA, INTEGRATION, "should approve replacing an oversized node", () -> {
      NodePool np = balanced("balanced");
      StateNode n = node(np, "m5.4xlarge", 1, owned(pod("p", "cpu", "500m")));
      DisruptionCommand cmd = poll(List.of(np), List.of(n)).orElseThrow();
      assertThat(cmd.candidates()).containsExactly(n.name());
      assertThat(cmd.replacements()).singleElement()
          .satisfies(r -> assertThat(r.instanceType().name()).isNotEqualTo("m5.4xlarge"));
      assertScored(cmd, n.name());
    }));
    c.add(UpstreamCase.of(AREA, INTEGRATION, "should reject replacing a well-packed node", () -> {
      // Four 3500m pods on the cheapest m5 they fit on: no cheaper move, nothing approved.
      NodePool np = balanced("balanced");
      Pod[] pods = IntStream.range(0, 4).mapToObj(i -> owned(pod("p" + i, "cpu", "3500m"))).toArray(Pod[]::new);
      StateNode n = node(np, "m5.4xlarge", 1, pods);
      assertThat(poll(List.of(np), List.of(n))).isEmpty();
    }));
    c.add(UpstreamCase.of(AREA, INTEGRATION, "should approve consolidating multiple underutilized nodes", () -> {
      NodePool np = balanced("balanced");
      List<StateNode> ns = IntStream.range(1, 4).mapToObj(i -> node(np, "m5.4xlarge", i,
          owned(pod("p" + i, "cpu", "1")))).toList();
      DisruptionCommand cmd = poll(List.of(np), ns).orElseThrow();
      assertThat(cmd.candidates().size()).isGreaterThanOrEqualTo(2);
      assertScored(cmd, "balanced");
    }));
    c.add(UpstreamCase.of(AREA, INTEGRATION, "should block disruption when budget is 0%", () -> {
      NodePool np = consolidating("balanced", ConsolidationPolicy.BALANCED, Duration.ZERO, 0, "on-demand");
      List<StateNode> ns = IntStream.range(1, 4).mapToObj(i -> node(np, "m5.4xlarge", i,
          owned(pod("p" + i, "cpu", "1")))).toList();
      assertThat(poll(List.of(np), ns)).isEmpty();
    }));
    c.add(UpstreamCase.of(AREA, INTEGRATION, "should apply scoring to Balanced pools while non-Balanced pools "
        + "consolidate normally", () -> {
      NodePool b = balanced("balanced");
      NodePool d = consolidating("default", ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, Duration.ZERO, 100,
          "on-demand");
      StateNode nb = node(b, "m5.4xlarge", 1, owned(pod("pb", "cpu", "500m")));
      StateNode nd = node(d, "m5.4xlarge", 2, owned(pod("pd", "cpu", "500m")));
      DisruptionCommand cmd = poll(List.of(b, d), List.of(nb, nd)).orElseThrow();
      assertThat(cmd.candidates()).containsExactlyInAnyOrder(nb.name(), nd.name());
      assertThat(cmd.approvals()).containsOnlyKeys("balanced");
      assertScored(cmd, "balanced");
    }));
  }
}
