package io.gpufleet.queue.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.queue.api.ClusterQueue;
import io.gpufleet.queue.api.Cohort;
import io.gpufleet.queue.api.FlavorQuotas;
import io.gpufleet.queue.api.ResourceGroup;
import io.gpufleet.queue.api.ResourceQuota;
import io.gpufleet.queue.quota.FlavorResource;
import io.gpufleet.queue.quota.QuotaTree;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code pkg/cache/scheduler/resource_test.go} TestAvailable: each ClusterQueue's available and
 * potentially available quota before usage (equal), with usage added, and with it removed again.
 * Quotas are upstream's {@code Resource(name, nominal, borrowingLimit, lendingLimit)}; amounts in
 * millicores as upstream's {@code resources.NewAmount}.
 */
final class QuotaCases {

  private static final String FILE = "pkg/cache/scheduler/resource_test.go";
  private static final FlavorResource RED = FlavorResource.of("red", "cpu");
  private static final FlavorResource BLUE = FlavorResource.of("blue", "cpu");

  private QuotaCases() {}

  private static ClusterQueue cq(String name, String cohort, FlavorQuotas... f) {
    ClusterQueue q = ClusterQueue.named(name, ResourceGroup.of(f));
    return cohort.isEmpty() ? q : q.inCohort(cohort);
  }

  private static FlavorQuotas red(String nominal, String borrowing, String lending) {
    return FlavorQuotas.of("red", ResourceQuota.of("cpu", nominal, borrowing, lending));
  }

  private static Cohort cohort(String name, String parent, FlavorQuotas... f) {
    Cohort c = f.length == 0 ? Cohort.named(name) : Cohort.named(name, ResourceGroup.of(f));
    return parent.isEmpty() ? c : c.withParent(parent);
  }

  private static Runnable check(List<ClusterQueue> cqs, List<Cohort> cohorts,
      Map<String, Map<FlavorResource, Long>> usage, Map<String, Map<FlavorResource, Long>> wantAvailable,
      Map<String, Map<FlavorResource, Long>> wantPotential) {
    return () -> {
      QuotaTree tree = QuotaTree.of(cqs, cohorts);
      assertThat(measure(tree, cqs, true)).as("available before usage").isEqualTo(wantPotential);
      assertThat(measure(tree, cqs, false)).as("potentially available before usage").isEqualTo(wantPotential);
      usage.forEach(tree::addUsage);
      assertThat(measure(tree, cqs, true)).as("available with usage").isEqualTo(wantAvailable);
      assertThat(measure(tree, cqs, false)).as("potentially available with usage").isEqualTo(wantPotential);
      usage.forEach(tree::removeUsage);
      assertThat(measure(tree, cqs, true)).as("available after removal").isEqualTo(wantPotential);
    };
  }

  private static Map<String, Map<FlavorResource, Long>> measure(QuotaTree t, List<ClusterQueue> cqs, boolean now) {
    Map<String, Map<FlavorResource, Long>> out = new TreeMap<>();
    for (ClusterQueue q : cqs) {
      Map<FlavorResource, Long> m = new TreeMap<>();
      q.resourceGroups().forEach(g -> g.flavors().forEach(f -> f.resources().forEach(r -> {
        FlavorResource fr = new FlavorResource(f.name(), r.name());
        m.put(fr, now ? t.available(q.name(), fr) : t.potentialAvailable(q.name(), fr));
      })));
      out.put(q.name(), m);
    }
    return out;
  }

  private static Map<FlavorResource, Long> red(long v) {
    return Map.of(RED, v);
  }

  static List<UpstreamCase> all() {
    List<UpstreamCase> out = new ArrayList<>();
    String t = "TestAvailable: ";
    out.add(UpstreamCase.of("quota", FILE, t + "base cqs", check(
        List.of(cq("cq1", "", red("0", "", "")),
            cq("cq2", "", red("5", "", ""), FlavorQuotas.of("blue", ResourceQuota.of("cpu", "10")))),
        List.of(),
        Map.of("cq1", red(1000), "cq2", Map.of(RED, 2_500L, BLUE, 1_000L)),
        Map.of("cq1", red(0), "cq2", Map.of(RED, 2_500L, BLUE, 9_000L)),
        Map.of("cq1", red(0), "cq2", Map.of(RED, 5_000L, BLUE, 10_000L)))));
    out.add(UpstreamCase.of("quota", FILE, t + "cqs with cohort", check(
        List.of(cq("cq1", "cohort", red("10", "", "")), cq("cq2", "cohort", red("10", "", "9"))),
        List.of(cohort("cohort", "", red("10", "", ""))),
        Map.of("cq1", red(1000), "cq2", red(500)),
        Map.of("cq1", red(28_000), "cq2", red(28_500)),
        Map.of("cq1", red(29_000), "cq2", red(30_000)))));
    out.add(UpstreamCase.of("quota", FILE, t + "cq borrows from cohort", check(
        List.of(cq("cq1", "cohort", red("10", "", ""))),
        List.of(cohort("cohort", "", red("10", "", ""))),
        Map.of("cq1", red(11_000)),
        Map.of("cq1", red(9_000)),
        Map.of("cq1", red(20_000)))));
    out.add(UpstreamCase.of("quota", FILE, t + "cq oversubscription spills into cohort", check(
        List.of(cq("cq1", "cohort", red("10", "", "")), cq("cq2", "cohort", red("10", "0", "0"))),
        List.of(cohort("cohort", "", red("10", "", ""))),
        Map.of("cq1", red(31_000)),
        Map.of("cq1", red(0), "cq2", red(0)),
        Map.of("cq1", red(20_000), "cq2", red(10_000)))));
    out.add(UpstreamCase.of("quota", FILE, t + "lending and borrowing limits respected", check(
        List.of(cq("cq1", "cohort", red("10", "", "")), cq("cq2", "cohort", red("10", "2", "")),
            cq("cq3", "cohort", red("10", "", "5"))),
        List.of(cohort("cohort", "", red("10", "", ""))),
        Map.of("cq1", red(20_000), "cq2", red(10_000), "cq3", red(6_000)),
        Map.of("cq1", red(4_000), "cq2", red(2_000), "cq3", red(4_000)),
        Map.of("cq1", red(35_000), "cq2", red(12_000), "cq3", red(40_000)))));
    out.add(UpstreamCase.of("quota", FILE, t + "hierarchical cohort", check(
        List.of(cq("cq1", "left", red("10", "", "")), cq("cq2", "right", red("10", "", "0"))),
        List.of(cohort("root", ""), cohort("left", "root", red("10", "", "")),
            cohort("right", "root", red("10", "", ""))),
        Map.of("cq1", red(10_000), "cq2", red(5_000)),
        Map.of("cq1", red(20_000), "cq2", red(25_000)),
        Map.of("cq1", red(30_000), "cq2", red(40_000)))));
    out.add(UpstreamCase.of("quota", FILE, t + "hierarchical cohort respects borrowing limit", check(
        List.of(cq("left-cq1", "left", red("10", "", "")), cq("left-cq2", "left", red("10", "5", "")),
            cq("right-cq", "right", red("10", "", ""))),
        List.of(cohort("root", ""), cohort("left", "root", red("10", "5", "")),
            cohort("right", "root", red("10", "", ""))),
        Map.of(),
        Map.of("left-cq1", red(35_000), "left-cq2", red(15_000), "right-cq", red(50_000)),
        Map.of("left-cq1", red(35_000), "left-cq2", red(15_000), "right-cq", red(50_000)))));
    out.add(UpstreamCase.of("quota", FILE, t + "hierarchical cohort respects lending limit", check(
        List.of(cq("left-cq1", "left", red("10", "", "5")), cq("left-cq2", "left", red("10", "", "")),
            cq("right-cq", "right", red("0", "", "")), cq("root-cq", "root", red("0", "", ""))),
        List.of(cohort("root", ""), cohort("left", "root", red("0", "", "5")),
            cohort("right", "root", red("0", "", ""))),
        Map.of(),
        Map.of("left-cq1", red(20_000), "left-cq2", red(15_000), "right-cq", red(5_000), "root-cq", red(5_000)),
        Map.of("left-cq1", red(20_000), "left-cq2", red(15_000), "right-cq", red(5_000), "root-cq", red(5_000)))));
    return out;
  }
}
