package io.gpufleet.queue.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.queue.admission.ClusterQueuePreemptor;
import io.gpufleet.queue.api.Admission;
import io.gpufleet.queue.api.ClusterQueue;
import io.gpufleet.queue.api.FlavorQuotas;
import io.gpufleet.queue.api.PodSet;
import io.gpufleet.queue.api.PreemptionPolicy;
import io.gpufleet.queue.api.ResourceGroup;
import io.gpufleet.queue.api.ResourceQuota;
import io.gpufleet.queue.api.Workload;
import io.gpufleet.queue.quota.Amounts;
import io.gpufleet.queue.quota.FlavorResource;
import io.gpufleet.queue.quota.QuotaTree;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code pkg/scheduler/preemption/preemption_test.go} TestPreemption: entries within a ClusterQueue and
 * across the flat cohort "cohort", over the test's ClusterQueues
 * standalone, c1/c2 (cohort "cohort") and preventStarvation; the incoming workload, its assignment
 * (which flavors need preemption) and the admitted workloads as upstream writes them; compared: the
 * set of workloads preempted with the reason of their Preempted condition ({@code wantWorkloads}).
 */
final class PreemptionCases {

  private static final String FILE = "pkg/scheduler/preemption/preemption_test.go";
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private PreemptionCases() {}

  private static final PreemptionPolicy LOWER = new PreemptionPolicy(PreemptionPolicy.Policy.NEVER,
      PreemptionPolicy.Policy.NEVER, PreemptionPolicy.Policy.LOWER_PRIORITY);

  static final List<ClusterQueue> QUEUES = List.of(
      ClusterQueue.named("standalone", ResourceGroup.of(FlavorQuotas.of("default", ResourceQuota.of("cpu", "6"))),
          ResourceGroup.of(FlavorQuotas.of("alpha", ResourceQuota.of("memory", "3Gi")),
              FlavorQuotas.of("beta", ResourceQuota.of("memory", "3Gi")))).withPreemption(LOWER),
      ClusterQueue.named("c1", ResourceGroup.of(new FlavorQuotas("default", List.of(ResourceQuota.of("cpu", "6", "6", ""),
          ResourceQuota.of("memory", "3Gi", "3Gi", ""))))).inCohort("cohort")
          .withPreemption(new PreemptionPolicy(PreemptionPolicy.Policy.LOWER_PRIORITY, PreemptionPolicy.Policy.NEVER,
              PreemptionPolicy.Policy.LOWER_PRIORITY)),
      ClusterQueue.named("c2", ResourceGroup.of(new FlavorQuotas("default", List.of(ResourceQuota.of("cpu", "6", "6", ""),
          ResourceQuota.of("memory", "3Gi", "3Gi", ""))))).inCohort("cohort")
          .withPreemption(new PreemptionPolicy(PreemptionPolicy.Policy.ANY, PreemptionPolicy.Policy.NEVER,
              PreemptionPolicy.Policy.NEVER)),
      ClusterQueue.named("preventStarvation", ResourceGroup.of(FlavorQuotas.of("default", ResourceQuota.of("cpu", "6"))))
          .withPreemption(new PreemptionPolicy(PreemptionPolicy.Policy.NEVER, PreemptionPolicy.Policy.NEVER,
              PreemptionPolicy.Policy.LOWER_OR_NEWER_EQUAL_PRIORITY)),
      lender("lend1", "4"), lender("lend2", "2"));

  /** Cohort "cohort-lend": 6 cpu each, lending at most {@code lendingLimit}, both policies LowerPriority. */
  private static ClusterQueue lender(String name, String lendingLimit) {
    return ClusterQueue.named(name, ResourceGroup.of(new FlavorQuotas("default",
        List.of(ResourceQuota.of("cpu", "6", "", lendingLimit))))).inCohort("cohort-lend")
        .withPreemption(new PreemptionPolicy(PreemptionPolicy.Policy.LOWER_PRIORITY, PreemptionPolicy.Policy.NEVER,
            PreemptionPolicy.Policy.LOWER_PRIORITY));
  }

  /** An admitted workload of one pod set {@code main}: {@code MakeWorkload(name).Priority(p).Request(r, q).ReserveQuotaAt(...)}. */
  private static Workload admitted(String name, int priority, String cq, String resource, String quantity, String flavor,
      Instant reservedAt, Instant created) {
    ResourceName r = ResourceName.of(resource);
    Admission a = new Admission(cq, List.of(new Admission.PodSetAssignment(PodSet.MAIN, new TreeMap<>(Map.of(r, flavor)),
        new TreeMap<>(Map.of(r, Amounts.of(r, Quantity.parse(quantity)))), 1)));
    return new Workload("", name, "", List.of(PodSet.of(PodSet.MAIN, 1, ResourceList.of(resource, quantity))), priority,
        created, io.gpufleet.model.label.Labels.EMPTY).admitted(a, reservedAt);
  }

  private static Workload admitted(String name, int priority, String cq, String resource, String quantity,
      String flavor) {
    return admitted(name, priority, cq, resource, quantity, flavor, NOW, NOW);
  }

  /** A pod set of the incoming workload with the flavor (and mode) the test's assignment gives each resource. */
  record Assigned(PodSet podSet, Map<String, String> flavorMode) {}

  private static Assigned main(String resource, String quantity, String flavor, String mode) {
    return new Assigned(PodSet.of(PodSet.MAIN, 1, ResourceList.of(resource, quantity)), Map.of(resource, flavor + "/" + mode));
  }

  private static Runnable check(List<Workload> admittedWls, int priority, Instant created, String cq,
      List<Assigned> assignment, Set<String> wantPreempted) {
    return check(QUEUES, List.of(), admittedWls, priority, created, cq, assignment, wantPreempted);
  }

  private static Runnable check(List<ClusterQueue> queues, List<io.gpufleet.queue.api.Cohort> cohorts,
      List<Workload> admittedWls, int priority, Instant created, String cq, List<Assigned> assignment,
      Set<String> wantPreempted) {
    return () -> {
      QuotaTree tree = QuotaTree.of(queues, cohorts);
      for (Workload w : admittedWls) {
        Map<FlavorResource, Long> u = new TreeMap<>();
        w.admission().get().podSetAssignments().forEach(ps -> ps.flavors().forEach((r, f) ->
            u.merge(new FlavorResource(f, r), ps.resourceUsage().get(r), Long::sum)));
        tree.addUsage(w.admission().get().clusterQueue(), u);
      }
      Workload incoming = new Workload("", "in", "", assignment.stream().map(Assigned::podSet).toList(), priority,
          created, io.gpufleet.model.label.Labels.EMPTY);
      Map<FlavorResource, Long> usage = new TreeMap<>();
      Set<FlavorResource> need = new TreeSet<>();
      for (Assigned a : assignment) {
        a.flavorMode().forEach((res, fm) -> {
          String[] parts = fm.split("/");
          ResourceName r = ResourceName.of(res);
          FlavorResource fr = new FlavorResource(parts[0], r);
          usage.merge(fr, Amounts.requestValue(r, a.podSet().requests().getOrZero(r)) * a.podSet().count(), Long::sum);
          if (parts[1].equals("Preempt")) {
            need.add(fr);
          }
        });
      }
      Map<String, ClusterQueue> byName = new LinkedHashMap<>();
      queues.forEach(q -> byName.put(q.name(), q));
      List<ClusterQueuePreemptor.Target> targets = new ClusterQueuePreemptor(byName, admittedWls, NOW)
          .targets(tree, cq, incoming, usage, need);
      Set<String> got = new TreeSet<>();
      targets.forEach(t -> got.add(t.workload().name() + ":" + t.reason()));
      Set<String> want = new TreeSet<>();
      wantPreempted.forEach(w -> want.add(w.contains(":") ? w : w + ":InClusterQueue"));
      assertThat(got).as("preempted, with reason").isEqualTo(want);
    };
  }

  static List<UpstreamCase> all() {
    List<UpstreamCase> out = new ArrayList<>();
    String t = "TestPreemption: ";
    List<Workload> lowMidHigh = List.of(admitted("low", -1, "standalone", "cpu", "2", "default"),
        admitted("mid", 0, "standalone", "cpu", "2", "default"), admitted("high", 1, "standalone", "cpu", "2", "default"));
    out.add(UpstreamCase.of("preemption", FILE, t + "preempt lowest priority", check(lowMidHigh, 1, NOW, "standalone",
        List.of(main("cpu", "2", "default", "Preempt")), Set.of("low"))));
    out.add(UpstreamCase.of("preemption", FILE, t + "preempt multiple", check(lowMidHigh, 1, NOW, "standalone",
        List.of(main("cpu", "3", "default", "Preempt")), Set.of("low", "mid"))));
    List<Workload> lowMid3 = List.of(admitted("low", -1, "standalone", "cpu", "3", "default"),
        admitted("mid", 0, "standalone", "cpu", "3", "default"));
    out.add(UpstreamCase.of("preemption", FILE, t + "no preemption for low priority", check(lowMid3, -1, NOW,
        "standalone", List.of(main("cpu", "1", "default", "Preempt")), Set.of())));
    out.add(UpstreamCase.of("preemption", FILE, t + "not enough low priority workloads", check(lowMid3, 0, NOW,
        "standalone", List.of(main("cpu", "4", "default", "Preempt")), Set.of())));
    out.add(UpstreamCase.of("preemption", FILE, t + "some free quota, preempt low priority", check(List.of(
        admitted("low", -1, "standalone", "cpu", "1", "default"), admitted("mid", 0, "standalone", "cpu", "1", "default"),
        admitted("high", 1, "standalone", "cpu", "3", "default")), 1, NOW, "standalone",
        List.of(main("cpu", "2", "default", "Preempt")), Set.of("low"))));
    out.add(UpstreamCase.of("preemption", FILE, t + "minimal set excludes low priority", check(List.of(
        admitted("low", -1, "standalone", "cpu", "1", "default"), admitted("mid", 0, "standalone", "cpu", "2", "default"),
        admitted("high", 1, "standalone", "cpu", "3", "default")), 1, NOW, "standalone",
        List.of(main("cpu", "2", "default", "Preempt")), Set.of("mid"))));
    out.add(UpstreamCase.of("preemption", FILE, t + "only preempt workloads using the chosen flavor", check(List.of(
        admitted("low", -1, "standalone", "memory", "2Gi", "alpha"),
        admitted("mid", 0, "standalone", "memory", "1Gi", "beta"),
        admitted("high", 1, "standalone", "memory", "1Gi", "beta")), 1, NOW, "standalone",
        List.of(new Assigned(PodSet.of(PodSet.MAIN, 1, ResourceList.of("cpu", "1", "memory", "2Gi")),
            Map.of("cpu", "default/Fit", "memory", "beta/Preempt"))), Set.of("mid"))));
    out.add(UpstreamCase.of("preemption", FILE, t + "can't preempt workloads in ClusterQueue for withinClusterQueue=Never",
        check(List.of(admitted("c2-low", -1, "c2", "cpu", "3", "default")), 1, NOW, "c2",
        List.of(main("cpu", "4", "default", "Preempt")), Set.of())));
    out.add(UpstreamCase.of("preemption", FILE, t + "each podset preempts a different flavor", check(List.of(
        admitted("low-alpha", -1, "standalone", "memory", "2Gi", "alpha"),
        admitted("low-beta", -1, "standalone", "memory", "2Gi", "beta")), 1, NOW, "standalone",
        List.of(new Assigned(PodSet.of("launcher", 1, ResourceList.of("memory", "2Gi")), Map.of("memory", "alpha/Preempt")),
            new Assigned(PodSet.of("workers", 2, ResourceList.of("memory", "1Gi")), Map.of("memory", "beta/Preempt"))),
        Set.of("low-alpha", "low-beta"))));
    out.add(UpstreamCase.of("preemption", FILE, t + "preempt newer workloads with the same priority", check(List.of(
        admitted("wl1", 2, "preventStarvation", "cpu", "2", "default"),
        admitted("wl2", 1, "preventStarvation", "cpu", "2", "default", NOW.plusSeconds(1), NOW),
        admitted("wl3", 1, "preventStarvation", "cpu", "2", "default", NOW, NOW)), 1, NOW.minusSeconds(15),
        "preventStarvation", List.of(new Assigned(PodSet.of("launcher", 1, ResourceList.of("cpu", "2")),
            Map.of("cpu", "default/Preempt"))), Set.of("wl2"))));
    // Cohort "cohort": c1 reclaims from lower priority, c2 from any; both 6 cpu with borrowingLimit 6.
    List<Workload> borrowers = List.of(admitted("c1-low", -1, "c1", "cpu", "3", "default"),
        admitted("c2-mid", 0, "c2", "cpu", "3", "default"), admitted("c2-high", 1, "c2", "cpu", "6", "default"));
    out.add(UpstreamCase.of("preemption", FILE, t + "reclaim quota from borrower", check(borrowers, 1, NOW, "c1",
        List.of(main("cpu", "3", "default", "Preempt")), Set.of("c2-mid:InCohortReclamation"))));
    List<Workload> withMemory = new ArrayList<>(List.of(admitted("c1-low", -1, "c1", "cpu", "3", "default")));
    withMemory.set(0, withMemory.get(0).admitted(new Admission("c1", List.of(new Admission.PodSetAssignment(PodSet.MAIN,
        new TreeMap<>(Map.of(ResourceName.CPU, "default", ResourceName.MEMORY, "default")),
        new TreeMap<>(Map.of(ResourceName.CPU, 3000L, ResourceName.MEMORY, 3L * 1024 * 1024 * 1024)), 1))), NOW));
    withMemory.addAll(borrowers.subList(1, 3));
    out.add(UpstreamCase.of("preemption", FILE,
        t + "reclaim quota if workload requests 0 resources for a resource at nominal quota", check(withMemory, 1, NOW,
        "c1", List.of(new Assigned(PodSet.of(PodSet.MAIN, 1, ResourceList.of("cpu", "3", "memory", "0")),
            Map.of("cpu", "default/Preempt", "memory", "default/Fit"))), Set.of("c2-mid:InCohortReclamation"))));
    out.add(UpstreamCase.of("preemption", FILE, t + "no workloads borrowing", check(List.of(
        admitted("c1-high", 1, "c1", "cpu", "4", "default"), admitted("c2-low-1", -1, "c2", "cpu", "4", "default")),
        1, NOW, "c1", List.of(main("cpu", "4", "default", "Preempt")), Set.of())));
    out.add(UpstreamCase.of("preemption", FILE, t + "not enough workloads borrowing", check(List.of(
        admitted("c1-high", 1, "c1", "cpu", "4", "default"), admitted("c2-low-1", -1, "c2", "cpu", "4", "default"),
        admitted("c2-low-2", -1, "c2", "cpu", "4", "default")), 1, NOW, "c1",
        List.of(main("cpu", "4", "default", "Preempt")), Set.of())));
    out.add(UpstreamCase.of("preemption", FILE,
        t + "do not reclaim borrowed quota from same priority for withinCohort=ReclaimFromLowerPriority", check(List.of(
        admitted("c1", 0, "c1", "cpu", "2", "default"), admitted("c2-1", 0, "c2", "cpu", "4", "default"),
        admitted("c2-2", 0, "c2", "cpu", "4", "default")), 0, NOW, "c1",
        List.of(main("cpu", "4", "default", "Preempt")), Set.of())));
    out.add(UpstreamCase.of("preemption", FILE,
        t + "reclaim borrowed quota from same priority for withinCohort=ReclaimFromAny", check(List.of(
        admitted("c1-1", 0, "c1", "cpu", "4", "default"), admitted("c1-2", 1, "c1", "cpu", "4", "default"),
        admitted("c2", 0, "c2", "cpu", "2", "default")), 0, NOW, "c2",
        List.of(main("cpu", "4", "default", "Preempt")), Set.of("c1-1:InCohortReclamation"))));
    out.add(UpstreamCase.of("preemption", FILE, t + "preempt from all ClusterQueues in cohort", check(List.of(
        admitted("c1-low", -1, "c1", "cpu", "3", "default"), admitted("c1-mid", 0, "c1", "cpu", "2", "default"),
        admitted("c2-low", -1, "c2", "cpu", "3", "default"), admitted("c2-mid", 0, "c2", "cpu", "4", "default")),
        0, NOW, "c1", List.of(main("cpu", "4", "default", "Preempt")),
        Set.of("c1-low:InClusterQueue", "c2-low:InCohortReclamation"))));
    out.add(UpstreamCase.of("preemption", FILE, t + "reclaim quota from lender", check(List.of(
        admitted("lend1-low", -1, "lend1", "cpu", "3", "default"), admitted("lend2-mid", 0, "lend2", "cpu", "3", "default"),
        admitted("lend2-high", 1, "lend2", "cpu", "4", "default")), 1, NOW, "lend1",
        List.of(main("cpu", "3", "default", "Preempt")), Set.of("lend2-mid:InCohortReclamation"))));
    out.add(UpstreamCase.of("preemption", FILE, t + "preempt from all ClusterQueues in cohort-lend", check(List.of(
        admitted("lend1-low", -1, "lend1", "cpu", "3", "default"), admitted("lend1-mid", 0, "lend1", "cpu", "2", "default"),
        admitted("lend2-low", -1, "lend2", "cpu", "3", "default"), admitted("lend2-mid", 0, "lend2", "cpu", "4", "default")),
        0, NOW, "lend1", List.of(main("cpu", "4", "default", "Preempt")),
        Set.of("lend1-low:InClusterQueue", "lend2-low:InCohortReclamation"))));
    out.add(UpstreamCase.of("preemption", FILE,
        t + "cannot preempt from other ClusterQueues if exceeds requestable quota including lending limit", check(
        List.of(admitted("lend2-low", -1, "lend2", "cpu", "10", "default")), 0, NOW, "lend1",
        List.of(main("cpu", "9", "default", "Preempt")), Set.of())));
    out.addAll(hierarchical());
    return out;
  }

  private static final String HFILE = "pkg/scheduler/preemption/preemption_hierarchical_test.go";

  /** A ClusterQueue of preemption_hierarchical_test.go: withinClusterQueue LowerPriority, reclaimWithinCohort Any. */
  private static ClusterQueue hq(String name, String cohort, String cpu) {
    FlavorQuotas f = cpu.isEmpty() ? new FlavorQuotas("default", List.of())
        : FlavorQuotas.of("default", ResourceQuota.of("cpu", cpu));
    return ClusterQueue.named(name, ResourceGroup.of(f)).inCohort(cohort).withPreemption(new PreemptionPolicy(
        PreemptionPolicy.Policy.ANY, PreemptionPolicy.Policy.NEVER, PreemptionPolicy.Policy.LOWER_PRIORITY));
  }

  /**
   * {@code TestHierarchicalPreemptions}: cohort r over cohort c (2 cpu) over q (no quota of its own), and
   * ClusterQueues directly under r; the incoming workload goes to q.
   */
  static List<UpstreamCase> hierarchical() {
    List<UpstreamCase> out = new ArrayList<>();
    String t = "TestHierarchicalPreemptions: ";
    List<io.gpufleet.queue.api.Cohort> rc = List.of(io.gpufleet.queue.api.Cohort.named("r"),
        io.gpufleet.queue.api.Cohort.named("c", ResourceGroup.of(FlavorQuotas.of("default",
            ResourceQuota.of("cpu", "2")))).withParent("r"));
    List<ClusterQueue> qBorrowing = List.of(hq("q", "c", ""), hq("q_borrowing", "r", ""));
    out.add(UpstreamCase.of("preemption", HFILE, t + "preempt with hierarchical advantage", check(qBorrowing, rc,
        List.of(admitted("admitted2", 0, "q_borrowing", "cpu", "2", "default")), 0, NOW, "q",
        List.of(main("cpu", "2", "default", "Preempt")), Set.of("admitted2:InCohortReclamation"))));
    out.add(UpstreamCase.of("preemption", HFILE, t + "avoid queues within nominal quota", check(
        List.of(hq("q_nominal", "r", "2"), hq("q", "c", ""), hq("q_borrowing", "r", "")), rc,
        List.of(admitted("admitted1", -10, "q_nominal", "cpu", "2", "default"),
            admitted("admitted2", 0, "q_borrowing", "cpu", "2", "default")), 0, NOW, "q",
        List.of(main("cpu", "2", "default", "Preempt")), Set.of("admitted2:InCohortReclamation"))));
    out.add(UpstreamCase.of("preemption", HFILE, t + "preempt multiple with hierarchical advantage", check(qBorrowing, rc,
        List.of(admitted("admitted1", 1, "q_borrowing", "cpu", "1", "default"),
            admitted("admitted2", 2, "q_borrowing", "cpu", "1", "default")), 0, NOW, "q",
        List.of(main("cpu", "2", "default", "Preempt")),
        Set.of("admitted1:InCohortReclamation", "admitted2:InCohortReclamation"))));
    out.add(UpstreamCase.of("preemption", HFILE, t + "prefer to preempt hierarchical candidate", check(qBorrowing, rc,
        List.of(admitted("admitted_borrowing", 1, "q_borrowing", "cpu", "1", "default"),
            admitted("admitted_same_queue", -2, "q", "cpu", "1", "default")), 0, NOW, "q",
        List.of(main("cpu", "1", "default", "Preempt")), Set.of("admitted_borrowing:InCohortReclamation"))));
    return out;
  }
}
