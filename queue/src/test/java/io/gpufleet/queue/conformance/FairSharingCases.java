package io.gpufleet.queue.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.queue.admission.ClusterQueuePreemptor;
import io.gpufleet.queue.api.Admission;
import io.gpufleet.queue.api.ClusterQueue;
import io.gpufleet.queue.api.Cohort;
import io.gpufleet.queue.api.FairSharing;
import io.gpufleet.queue.api.FairSharingConfig;
import io.gpufleet.queue.api.FairSharingConfig.PreemptionStrategy;
import io.gpufleet.queue.api.FlavorQuotas;
import io.gpufleet.queue.api.PodSet;
import io.gpufleet.queue.api.PreemptionPolicy;
import io.gpufleet.queue.api.PreemptionPolicy.Policy;
import io.gpufleet.queue.api.ResourceGroup;
import io.gpufleet.queue.api.ResourceQuota;
import io.gpufleet.queue.api.Workload;
import io.gpufleet.queue.quota.Amounts;
import io.gpufleet.queue.quota.DominantResourceShare;
import io.gpufleet.queue.quota.FlavorResource;
import io.gpufleet.queue.quota.QuotaTree;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Fair sharing: {@code pkg/cache/scheduler/fair_sharing_test.go} TestDominantResourceShare (every
 * ClusterQueue's and cohort's rounded weighted share, dominant resource and borrowing, with the
 * test's usage charged to "cq" and its extra request added) and TestIsBorrowingOn, and
 * {@code pkg/scheduler/preemption/preemption_fair_test.go} TestFairPreemptions (the workloads
 * preempted, each with its reason, with Kueue's Configuration fairSharing and the entry's
 * strategies, Kueue's default when none; the snapshot unchanged afterwards), and
 * {@code pkg/scheduler/scheduler_fs_test.go} TestScheduleForFairSharing (one cycle over
 * {@link ScheduleCases}' ClusterQueues with fair sharing on, compared as there).
 */
final class FairSharingCases {

  private static final String CFILE = "pkg/cache/scheduler/fair_sharing_test.go";
  private static final String PFILE = "pkg/scheduler/preemption/preemption_fair_test.go";
  private static final String AREA = "fair sharing";
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final ResourceName GPU = ResourceName.of("example.com/gpu");

  private FairSharingCases() {}

  static List<UpstreamCase> all() {
    List<UpstreamCase> out = new ArrayList<>();
    out.addAll(dominantResourceShare());
    out.addAll(isBorrowingOn());
    out.addAll(fairPreemptions());
    out.addAll(scheduleForFairSharing());
    return out;
  }

  // ---- TestDominantResourceShare ----

  private static FlavorResource fr(String flavor, ResourceName r) {
    return new FlavorResource(flavor, r);
  }

  /** {@code ResourceQuotaWrapper(name).NominalQuota(q)}: a flavor with cpu and/or gpu quota ("" for none). */
  private static FlavorQuotas quotas(String flavor, String cpu, String gpu) {
    List<ResourceQuota> rs = new ArrayList<>();
    if (!cpu.isEmpty()) {
      rs.add(ResourceQuota.of("cpu", cpu));
    }
    if (!gpu.isEmpty()) {
      rs.add(ResourceQuota.of("example.com/gpu", gpu));
    }
    return new FlavorQuotas(flavor, rs);
  }

  private static ClusterQueue shareCq(String name, String cohort, String weight, FlavorQuotas... flavors) {
    ClusterQueue cq = ClusterQueue.named(name, ResourceGroup.of(flavors));
    cq = cohort.isEmpty() ? cq : cq.inCohort(cohort);
    return weight.isEmpty() ? cq : cq.withFairSharing(FairSharing.weight(weight));
  }

  private static String result(String name, boolean cohort, long value, String resource, boolean borrowing) {
    return name + (cohort ? " (cohort)" : "") + ": " + value + " " + resource + (borrowing ? " borrowing" : "");
  }

  private static String cq(String name, long value, String resource) {
    return result(name, false, value, resource, value != 0);
  }

  private static String cohort(String name, long value, String resource) {
    return result(name, true, value, resource, value != 0);
  }

  private static Runnable share(List<ClusterQueue> cqs, List<Cohort> cohorts, Map<FlavorResource, Long> usage,
      Map<FlavorResource, Long> request, Set<String> want) {
    return () -> {
      QuotaTree tree = QuotaTree.of(cqs, cohorts);
      usage.forEach((fr, v) -> tree.addUsage("cq", Map.of(fr, v)));
      Set<String> got = new TreeSet<>();
      for (String q : tree.clusterQueueNames()) {
        DominantResourceShare d = tree.clusterQueueShare(q, request);
        got.add(result(q, false, d.roundedWeightedShare(), d.dominantResource(), d.borrowing()));
      }
      for (String c : tree.cohortNames()) {
        DominantResourceShare d = tree.cohortShare(c, request);
        got.add(result(c, true, d.roundedWeightedShare(), d.dominantResource(), d.borrowing()));
      }
      assertThat(got).as("weighted share, dominant resource, borrowing").isEqualTo(new TreeSet<>(want));
    };
  }

  static List<UpstreamCase> dominantResourceShare() {
    List<UpstreamCase> out = new ArrayList<>();
    String t = "TestDominantResourceShare: ";
    FlavorResource cpu = fr("default", ResourceName.CPU);
    FlavorResource gpu = fr("default", GPU);
    Map<FlavorResource, Long> none = Map.of();
    ClusterQueue lending8x5 = shareCq("lending-cq", "test-cohort", "1", quotas("default", "8", "5"));
    ClusterQueue cq2x5 = shareCq("cq", "test-cohort", "1", quotas("default", "2", "5"));
    Set<String> othersZero = Set.of(cq("lending-cq", 0, ""), cohort("test-cohort", 0, ""));
    out.add(UpstreamCase.of(AREA, CFILE, t + "no cohort", share(
        List.of(shareCq("cq", "", "", quotas("default", "2000", "5"))), List.of(), Map.of(cpu, 1000L, gpu, 2L), none,
        Set.of(cq("cq", 0, "")))));
    out.add(UpstreamCase.of(AREA, CFILE, t + "usage below nominal", share(List.of(cq2x5, lending8x5), List.of(),
        Map.of(cpu, 1000L, gpu, 2L), none, with(othersZero, cq("cq", 0, "")))));
    out.add(UpstreamCase.of(AREA, CFILE, t + "usage above nominal", share(List.of(cq2x5, lending8x5), List.of(),
        Map.of(cpu, 3000L, gpu, 7L), none, with(othersZero, cq("cq", 200, "example.com/gpu")))));
    out.add(UpstreamCase.of(AREA, CFILE, t + "usage slightly above nominal in a cohort with large quotas", share(
        List.of(shareCq("cq", "test-cohort", "1", quotas("default", "", "500")),
            shareCq("lending-cq", "test-cohort", "300", quotas("default", "", "1000"))), List.of(),
        Map.of(gpu, 501L), none, with(othersZero, cq("cq", 1, "example.com/gpu")))));
    out.add(UpstreamCase.of(AREA, CFILE, t + "usage way above nominal in a cohort with large quotas and weights", share(
        List.of(shareCq("cq", "test-cohort", "300", quotas("default", "", "500")),
            shareCq("lending-cq", "test-cohort", "300", quotas("default", "", "1000"))), List.of(),
        Map.of(gpu, 800L), none, with(othersZero, cq("cq", 1, "example.com/gpu")))));
    out.add(UpstreamCase.of(AREA, CFILE, t + "one resource above nominal", share(List.of(cq2x5, lending8x5), List.of(),
        Map.of(cpu, 3000L, gpu, 3L), none, with(othersZero, cq("cq", 100, "cpu")))));
    out.add(UpstreamCase.of(AREA, CFILE, t + "usage with workload above nominal", share(List.of(cq2x5, lending8x5),
        List.of(), Map.of(cpu, 1000L, gpu, 2L), Map.of(cpu, 4000L, gpu, 4L),
        with(othersZero, cq("cq", 300, "cpu")))));
    out.add(UpstreamCase.of(AREA, CFILE, t + "A resource with zero lendable", share(List.of(
        ClusterQueue.named("cq", ResourceGroup.of(new FlavorQuotas("default", List.of(ResourceQuota.of("cpu", "2"),
            ResourceQuota.of("example.com/gpu", "2", "", "0"))))).inCohort("test-cohort"),
        ClusterQueue.named("lending-cq", ResourceGroup.of(new FlavorQuotas("default", List.of(ResourceQuota.of("cpu", "8"),
            ResourceQuota.of("example.com/gpu", "64", "", "0"))))).inCohort("test-cohort")), List.of(),
        Map.of(cpu, 1000L, gpu, 1L), Map.of(cpu, 4000L, gpu, 4L), with(othersZero, cq("cq", 300, "cpu")))));
    out.add(UpstreamCase.of(AREA, CFILE, t + "multiple flavors", share(List.of(
        shareCq("cq", "test-cohort", "1", quotas("on-demand", "20", ""), quotas("spot", "80", "")),
        shareCq("lending-cq", "test-cohort", "1", quotas("default", "100", ""))), List.of(),
        Map.of(fr("on-demand", ResourceName.CPU), 15_000L, fr("spot", ResourceName.CPU), 5_000L),
        Map.of(fr("on-demand", ResourceName.CPU), 10_000L), with(othersZero, cq("cq", 25, "cpu")))));
    String[][] weights = {{"above nominal with integer weight", "2", "100"},
        {"above nominal with decimal weight", "0.5", "400"}};
    for (String[] w : weights) {
      out.add(UpstreamCase.of(AREA, CFILE, t + w[0], share(List.of(
          shareCq("cq", "test-cohort", w[1], quotas("default", "", "5")),
          shareCq("lending-cq", "test-cohort", "1", quotas("default", "", "5"))), List.of(), Map.of(gpu, 7L), none,
          with(othersZero, cq("cq", Long.parseLong(w[2]), "example.com/gpu")))));
    }
    out.add(UpstreamCase.of(AREA, CFILE, t + "above nominal with zero weight", share(List.of(
        shareCq("cq", "test-cohort", "0", quotas("default", "", "5")),
        shareCq("lending-cq", "test-cohort", "1", quotas("default", "", "10"))), List.of(), Map.of(gpu, 7L), none,
        with(othersZero, cq("cq", Long.MAX_VALUE, "example.com/gpu")))));
    out.add(UpstreamCase.of(AREA, CFILE, t + "cohort has resource share", share(
        List.of(shareCq("cq", "child-cohort", "1", quotas("default", "", "5"))),
        List.of(Cohort.named("child-cohort").withParent("root").withFairSharing(FairSharing.weight("2")),
            Cohort.named("root", ResourceGroup.of(quotas("default", "", "45")))), Map.of(gpu, 10L), none,
        Set.of(cq("cq", 100, "example.com/gpu"), cohort("child-cohort", 50, "example.com/gpu"),
            cohort("root", 0, "")))));
    out.add(UpstreamCase.of(AREA, CFILE, t + "resource share defined for resources only available at the root cohort",
        share(List.of(shareCq("cq", "child-cohort", "1", quotas("default", "", "0"))),
        List.of(Cohort.named("child-cohort").withParent("root").withFairSharing(FairSharing.weight("2")),
            Cohort.named("root", ResourceGroup.of(quotas("default", "", "50")))), Map.of(gpu, 10L), none,
        Set.of(cq("cq", 200, "example.com/gpu"), cohort("child-cohort", 100, "example.com/gpu"),
            cohort("root", 0, "")))));
    out.add(UpstreamCase.of(AREA, CFILE, t + "resource share affected by borrowing limit", share(
        List.of(shareCq("cq", "child-cohort", "", quotas("default", "", "0"))),
        List.of(Cohort.named("child-cohort", ResourceGroup.of(new FlavorQuotas("default",
                List.of(ResourceQuota.of("example.com/gpu", "0", "10", ""))))).withParent("root"),
            Cohort.named("root", ResourceGroup.of(quotas("default", "", "50")))), Map.of(gpu, 10L), none,
        Set.of(cq("cq", 1000, "example.com/gpu"), cohort("child-cohort", 200, "example.com/gpu"),
            cohort("root", 0, "")))));
    out.add(UpstreamCase.of(AREA, CFILE, t + "borrowing against unlimited lendable capacity (exabyte-scale quota)",
        share(List.of(shareCq("cq", "test-cohort", "1", quotas("default", "0", "")),
            shareCq("lending-cq", "test-cohort", "1", quotas("default", "1E", ""))), List.of(), Map.of(cpu, 1000L),
        none, with(othersZero, cq("cq", 1, "cpu")))));
    return out;
  }

  private static Set<String> with(Set<String> base, String more) {
    Set<String> out = new TreeSet<>(base);
    out.add(more);
    return out;
  }

  // ---- TestIsBorrowingOn ----

  static List<UpstreamCase> isBorrowingOn() {
    List<UpstreamCase> out = new ArrayList<>();
    FlavorResource cpu = fr("default", ResourceName.CPU);
    FlavorResource gpu = fr("default", GPU);
    record Entry(String name, Map<FlavorResource, Long> usage, Map<FlavorResource, Long> requested, boolean on,
        boolean borrowing) {}
    List<Entry> entries = List.of(
        new Entry("borrows on requested flavor", Map.of(cpu, 3000L), Map.of(cpu, 1000L), true, true),
        new Entry("borrows on unrequested flavor only", Map.of(cpu, 1000L, gpu, 7L), Map.of(cpu, 1000L), false, true),
        new Entry("borrows on both, requests one", Map.of(cpu, 3000L, gpu, 7L), Map.of(gpu, 1L), true, true),
        new Entry("no borrowing", Map.of(cpu, 1000L, gpu, 2L), Map.of(cpu, 1000L), false, false),
        new Entry("nil requestedFRs", Map.of(cpu, 3000L), Map.of(), false, true));
    for (Entry e : entries) {
      out.add(UpstreamCase.of(AREA, CFILE, "TestIsBorrowingOn: " + e.name(), () -> {
        QuotaTree tree = QuotaTree.of(List.of(shareCq("cq", "cohort", "1", quotas("default", "2", "5")),
            shareCq("lending-cq", "cohort", "", quotas("default", "8", "5"))), List.of());
        e.usage().forEach((fr, v) -> tree.addUsage("cq", Map.of(fr, v)));
        DominantResourceShare d = tree.clusterQueueShare("cq");
        assertThat(d.borrowing()).as("IsBorrowing").isEqualTo(e.borrowing());
        assertThat(d.isBorrowingOn(e.requested())).as("IsBorrowingOn").isEqualTo(e.on());
      }));
    }
    return out;
  }

  // ---- TestFairPreemptions ----

  private static final PreemptionPolicy BASE = new PreemptionPolicy(Policy.ANY, Policy.LOWER_PRIORITY,
      Policy.LOWER_PRIORITY);
  private static final PreemptionPolicy ANY_LOWER = new PreemptionPolicy(Policy.ANY, Policy.NEVER, Policy.LOWER_PRIORITY);
  private static final PreemptionPolicy RECLAIM_ANY = new PreemptionPolicy(Policy.ANY, Policy.NEVER, Policy.NEVER);

  /** {@code MakeClusterQueue(name).Cohort(cohort).ResourceGroup(default: cpu)}, "" for no quota or no weight. */
  private static ClusterQueue pcq(String name, String cohort, String cpu, PreemptionPolicy p, String weight) {
    ClusterQueue q = cpu.isEmpty() ? ClusterQueue.named(name)
        : ClusterQueue.named(name, ResourceGroup.of(FlavorQuotas.of("default", ResourceQuota.of("cpu", cpu))));
    q = (cohort.isEmpty() ? q : q.inCohort(cohort)).withPreemption(p);
    return weight.isEmpty() ? q : q.withFairSharing(FairSharing.weight(weight));
  }

  private static Cohort pcohort(String name, String parent, String cpu, String weight) {
    Cohort c = cpu.isEmpty() ? Cohort.named(name)
        : Cohort.named(name, ResourceGroup.of(FlavorQuotas.of("default", ResourceQuota.of("cpu", cpu))));
    c = parent.isEmpty() ? c : c.withParent(parent);
    return weight.isEmpty() ? c : c.withFairSharing(FairSharing.weight(weight));
  }

  /** {@code baseCQs}: a, b and c with 3 cpu, preemptible with none, all in cohort "all". */
  private static final List<ClusterQueue> BASE_CQS = List.of(pcq("a", "all", "3", BASE, ""),
      pcq("b", "all", "3", BASE, ""), pcq("c", "all", "3", BASE, ""),
      pcq("preemptible", "all", "0", PreemptionPolicy.NEVER, ""));

  /** {@code MakeWorkload(name).Priority(p).Request(cpu, q).SimpleReserveQuota(cq, flavor, now)}. */
  private static Workload admitted(String name, String cpu, int priority, String cq, String flavor) {
    ResourceName r = ResourceName.CPU;
    Admission a = new Admission(cq, List.of(new Admission.PodSetAssignment(PodSet.MAIN,
        new TreeMap<>(Map.of(r, flavor)), new TreeMap<>(Map.of(r, Amounts.of(r, Quantity.parse(cpu)))), 1)));
    return new Workload("", name, "", List.of(PodSet.of(PodSet.MAIN, 1, ResourceList.of("cpu", cpu))), priority, NOW,
        Labels.EMPTY).admitted(a, NOW);
  }

  /** The unit workload ({@code unitWl}: 1 cpu) admitted to {@code cq} under each name. */
  private static List<Workload> units(String cq, String... names) {
    List<Workload> out = new ArrayList<>();
    for (String n : names) {
      out.add(admitted(n, "1", 0, cq, "default"));
    }
    return out;
  }

  @SafeVarargs
  private static List<Workload> all(List<Workload>... parts) {
    List<Workload> out = new ArrayList<>();
    for (List<Workload> p : parts) {
      out.addAll(p);
    }
    return out;
  }

  private record Incoming(String name, String cpu, int priority, String cq, String flavor) {}

  private static Incoming in(String name, String cpu, String cq) {
    return new Incoming(name, cpu, 0, cq, "default");
  }

  private static Runnable preempt(List<ClusterQueue> cqs, List<Cohort> cohorts, List<PreemptionStrategy> strategies,
      List<Workload> admittedWls, Incoming incoming, Set<String> want) {
    return () -> {
      QuotaTree tree = QuotaTree.of(cqs, cohorts);
      admittedWls.forEach(w -> tree.addUsage(w.admission().orElseThrow().clusterQueue(), usage(w)));
      Map<String, Long> before = usages(tree, cqs, admittedWls);
      Workload wl = new Workload("", incoming.name(), "", List.of(PodSet.of(PodSet.MAIN, 1,
          ResourceList.of("cpu", incoming.cpu()))), incoming.priority(), NOW, Labels.EMPTY);
      FlavorResource fr = fr(incoming.flavor(), ResourceName.CPU);
      Map<String, ClusterQueue> byName = new LinkedHashMap<>();
      cqs.forEach(q -> byName.put(q.name(), q));
      List<ClusterQueuePreemptor.Target> targets = new ClusterQueuePreemptor(byName, admittedWls, NOW,
          Optional.of(new FairSharingConfig(strategies))).targets(tree, incoming.cq(), wl,
          Map.of(fr, Amounts.of(ResourceName.CPU, Quantity.parse(incoming.cpu()))), Set.of(fr));
      Set<String> got = new TreeSet<>();
      targets.forEach(t -> got.add(t.workload().key() + ":" + t.reason()));
      assertThat(got).as("preempted, with reason").isEqualTo(new TreeSet<>(want));
      assertThat(usages(tree, cqs, admittedWls)).as("snapshot unchanged").isEqualTo(before);
    };
  }

  private static Map<FlavorResource, Long> usage(Workload w) {
    Map<FlavorResource, Long> u = new TreeMap<>();
    w.admission().orElseThrow().podSetAssignments().forEach(ps -> ps.flavors().forEach((r, f) ->
        u.merge(new FlavorResource(f, r), ps.resourceUsage().get(r), Long::sum)));
    return u;
  }

  private static Map<String, Long> usages(QuotaTree tree, List<ClusterQueue> cqs, List<Workload> wls) {
    Map<String, Long> out = new TreeMap<>();
    for (ClusterQueue q : cqs) {
      for (Workload w : wls) {
        for (FlavorResource fr : usage(w).keySet()) {
          out.put(q.name() + " " + fr, tree.usage(q.name(), fr));
        }
      }
    }
    return out;
  }

  private static String fs(String name) {
    return "/" + name + ":InCohortFairSharing";
  }

  private static String reclaim(String name) {
    return "/" + name + ":InCohortReclamation";
  }

  private static String inCq(String name) {
    return "/" + name + ":InClusterQueue";
  }

  static List<UpstreamCase> fairPreemptions() {
    List<UpstreamCase> out = new ArrayList<>();
    String t = "TestFairPreemptions: ";
    List<Cohort> noCohorts = List.of();
    List<PreemptionStrategy> dflt = List.of();
    List<Workload> a3b5c1 = all(units("a", "a1", "a2", "a3"), units("b", "b1", "b2", "b3", "b4", "b5"),
        units("c", "c1"));
    out.add(UpstreamCase.of(AREA, PFILE, t + "reclaim nominal from user using the most", preempt(BASE_CQS, noCohorts,
        dflt, a3b5c1, in("c_incoming", "1", "c"), Set.of(reclaim("b1")))));
    out.add(UpstreamCase.of(AREA, PFILE, t + "can reclaim from queue using less, if taking the latest workload from "
        + "user using the most isn't enough", preempt(BASE_CQS, noCohorts, dflt, List.of(
        admitted("a1", "3", 0, "a", "default"), admitted("a2", "1", 0, "a", "default"),
        admitted("b1", "2", 0, "b", "default"), admitted("b2", "3", 0, "b", "default")),
        in("c_incoming", "3", "c"), Set.of(reclaim("a1")))));
    out.add(UpstreamCase.of(AREA, PFILE, t + "reclaim borrowable quota from user using the most", preempt(BASE_CQS,
        noCohorts, dflt, a3b5c1, in("a_incoming", "1", "a"), Set.of(fs("b1")))));
    out.add(UpstreamCase.of(AREA, PFILE, t + "preempt one from each CQ borrowing", preempt(BASE_CQS, noCohorts, dflt,
        List.of(admitted("a1", "0.5", 0, "a", "default"), admitted("a2", "0.5", 0, "a", "default"),
            admitted("a3", "3", 0, "a", "default"), admitted("b1", "0.5", 0, "b", "default"),
            admitted("b2", "0.5", 0, "b", "default"), admitted("b3", "3", 0, "b", "default")),
        in("c_incoming", "2", "c"), Set.of(reclaim("a1"), reclaim("b1")))));
    out.add(UpstreamCase.of(AREA, PFILE, t + "can't preempt when everyone under nominal", preempt(BASE_CQS, noCohorts,
        dflt, all(units("a", "a1", "a2", "a3"), units("b", "b1", "b2", "b3"), units("c", "c1", "c2", "c3")),
        in("c_incoming", "1", "c"), Set.of())));
    out.add(UpstreamCase.of(AREA, PFILE, t + "can't preempt when it would switch the imbalance", preempt(BASE_CQS,
        noCohorts, dflt, all(units("a", "a1", "a2", "a3"), units("b", "b1", "b2", "b3", "b4", "b5")),
        in("a_incoming", "2", "a"), Set.of())));
    out.add(UpstreamCase.of(AREA, PFILE, t + "can preempt lower priority workloads from same CQ", preempt(BASE_CQS,
        noCohorts, dflt, all(List.of(admitted("a1_low", "1", -1, "a", "default"),
            admitted("a2_low", "1", -1, "a", "default")), units("a", "a3", "a4"),
            units("b", "b1", "b2", "b3", "b4", "b5")),
        in("a_incoming", "2", "a"), Set.of(inCq("a1_low"), inCq("a2_low")))));
    out.add(UpstreamCase.of(AREA, PFILE, t + "can preempt a combination of same CQ and highest user", preempt(BASE_CQS,
        noCohorts, dflt, all(List.of(admitted("a_low", "1", -1, "a", "default")), units("a", "a2", "a3"),
            units("b", "b1", "b2", "b3", "b4", "b5", "b6")),
        in("a_incoming", "2", "a"), Set.of(inCq("a_low"), fs("b1")))));
    out.add(UpstreamCase.of(AREA, PFILE, t + "preempt huge workload if there is no other option, as long as the target "
        + "CQ gets a lower share", preempt(BASE_CQS, noCohorts, dflt, List.of(admitted("b1", "9", 0, "b", "default")),
        in("a_incoming", "2", "a"), Set.of(reclaim("b1")))));
    out.add(UpstreamCase.of(AREA, PFILE, t + "can't preempt huge workload if the incoming is also huge", preempt(
        BASE_CQS, noCohorts, dflt, List.of(admitted("a1", "2", 0, "a", "default"), admitted("b1", "7", 0, "b", "default")),
        in("a_incoming", "5", "a"), Set.of())));
    out.add(UpstreamCase.of(AREA, PFILE, t + "can't preempt 2 smaller workloads if the incoming is huge", preempt(
        BASE_CQS, noCohorts, dflt, List.of(admitted("b1", "2", 0, "b", "default"), admitted("b2", "2", 0, "b", "default"),
            admitted("b3", "3", 0, "b", "default")), in("a_incoming", "6", "a"), Set.of())));
    out.add(UpstreamCase.of(AREA, PFILE, t + "preempt from target and others even if over nominal", preempt(BASE_CQS,
        noCohorts, dflt, List.of(admitted("a1_low", "2", -1, "a", "default"), admitted("a2_low", "1", -1, "a", "default"),
            admitted("b1", "3", 0, "b", "default"), admitted("b2", "3", 0, "b", "default")),
        in("a_incoming", "4", "a"), Set.of(inCq("a1_low"), fs("b1")))));
    out.add(UpstreamCase.of(AREA, PFILE, t + "prefer to preempt workloads that don't make the target CQ have the "
        + "biggest share", preempt(BASE_CQS, noCohorts, dflt, List.of(admitted("b1", "2", 0, "b", "default"),
            admitted("b2", "1", 0, "b", "default"), admitted("b3", "2", 0, "b", "default"),
            admitted("c1", "1", 0, "c", "default")), in("a_incoming", "3.5", "a"), Set.of(fs("b2")))));
    out.add(UpstreamCase.of(AREA, PFILE, t + "preempt from different cluster queues if the end result has a smaller "
        + "max share", preempt(BASE_CQS, noCohorts, dflt, List.of(admitted("b1", "2", 0, "b", "default"),
            admitted("b2", "2.5", 0, "b", "default"), admitted("c1", "2", 0, "c", "default"),
            admitted("c2", "2.5", 0, "c", "default")), in("a_incoming", "3.5", "a"), Set.of(fs("b1"), fs("c1")))));
    out.add(UpstreamCase.of(AREA, PFILE, t + "scenario above does not flap", preempt(BASE_CQS, noCohorts, dflt,
        List.of(admitted("a1", "3.5", 0, "a", "default"), admitted("b2", "2.5", 0, "b", "default"),
            admitted("c2", "2.5", 0, "c", "default")), in("b_incoming", "2", "b"), Set.of())));
    out.add(UpstreamCase.of(AREA, PFILE, t + "cannot preempt if it would make the candidate CQ go under nominal after "
        + "preempting one element", preempt(BASE_CQS, noCohorts, dflt, List.of(admitted("b1", "3", 0, "b", "default"),
            admitted("b2", "3", 0, "b", "default"), admitted("c1", "3", 0, "c", "default")),
        in("a_incoming", "4", "a"), Set.of())));
    List<Workload> preemptible = new ArrayList<>(all(units("a", "a1", "a2", "a3"), units("b", "b1", "b2", "b3")));
    for (String n : List.of("preemptible1", "preemptible2", "preemptible3")) {
      preemptible.add(admitted(n, "1", -3, "preemptible", "default"));
    }
    out.add(UpstreamCase.of(AREA, PFILE, t + "workloads under priority threshold not capriciously preempted", preempt(
        BASE_CQS, noCohorts, dflt, preemptible, in("a_incoming", "2", "a"), Set.of())));
    List<Workload> lowHigh = List.of(admitted("a1", "3", 0, "a", "default"), admitted("b_low", "5", 0, "b", "default"),
        admitted("b_high", "1", 1, "b", "default"));
    out.add(UpstreamCase.of(AREA, PFILE, t + "preempt lower priority first, even if big", preempt(BASE_CQS, noCohorts,
        List.of(PreemptionStrategy.LESS_THAN_INITIAL_SHARE), lowHigh, in("a_incoming", "1", "a"), Set.of(fs("b_low")))));
    out.add(UpstreamCase.of(AREA, PFILE, t + "preempt workload that doesn't transfer the imbalance, even if high "
        + "priority", preempt(BASE_CQS, noCohorts, List.of(PreemptionStrategy.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE),
        lowHigh, in("a_incoming", "1", "a"), Set.of(fs("b_high")))));
    List<Workload> a3b6 = all(units("a", "a1", "a2", "a3"), units("b", "b1", "b2", "b3", "b4", "b5", "b6"));
    out.add(UpstreamCase.of(AREA, PFILE, t + "CQ with higher weight can preempt more", preempt(List.of(
        pcq("a", "all", "3", ANY_LOWER, "2"), pcq("b", "all", "3", ANY_LOWER, ""), pcq("c", "all", "3", ANY_LOWER, "")),
        noCohorts, dflt, a3b6, in("a_incoming", "2", "a"), Set.of(fs("b1"), fs("b2")))));
    out.add(UpstreamCase.of(AREA, PFILE, t + "can preempt anything borrowing from CQ with 0 weight", preempt(List.of(
        pcq("a", "all", "3", ANY_LOWER, ""), pcq("b", "all", "3", ANY_LOWER, "0"), pcq("c", "all", "3", ANY_LOWER, "")),
        noCohorts, dflt, a3b6, in("a_incoming", "3", "a"), Set.of(fs("b1"), fs("b2"), fs("b3")))));
    out.add(UpstreamCase.of(AREA, PFILE, t + "can't preempt nominal from CQ with 0 weight", preempt(List.of(
        pcq("a", "all", "3", ANY_LOWER, ""), pcq("b", "all", "3", ANY_LOWER, "0")), noCohorts, dflt,
        all(units("a", "a1", "a2", "a3"), units("b", "b1", "b2", "b3")), in("a_incoming", "1", "a"), Set.of())));
    out.add(UpstreamCase.of(AREA, PFILE, t + "can't preempt nominal from Cohort with 0 weight", preempt(List.of(
        pcq("left-cq", "root", "0", RECLAIM_ANY, ""), pcq("right-cq", "right-cohort", "0", RECLAIM_ANY, "0")),
        List.of(pcohort("right-cohort", "root", "1", "0")), dflt, units("right-cq", "right-1"),
        in("left-1", "1", "left-cq"), Set.of())));
    out.add(UpstreamCase.of(AREA, PFILE, t + "can preempt within cluster queue when no cohort", preempt(List.of(
        pcq("a", "", "1", new PreemptionPolicy(Policy.NEVER, Policy.NEVER, Policy.LOWER_PRIORITY), "")), noCohorts,
        dflt, units("a", "a1"), new Incoming("a_incoming", "1", 1000, "a", "default"), Set.of(inCq("a1")))));
    List<Workload> hier = new ArrayList<>();
    for (String q : List.of("b", "c", "d", "e")) {
      for (int i = 1; i <= 5; i++) {
        hier.add(admitted(q + i, "1", i, q, "default"));
      }
    }
    PreemptionPolicy none = PreemptionPolicy.NEVER;
    out.add(UpstreamCase.of(AREA, PFILE, t + "hierarchical preemption", preempt(List.of(
        pcq("a", "LEFT", "1", RECLAIM_ANY, "2"), pcq("b", "LEFT", "1", none, ""), pcq("c", "ROOT", "1", none, ""),
        pcq("d", "RIGHT", "1", none, ""), pcq("e", "RIGHT", "1", none, "0.99")),
        List.of(pcohort("ROOT", "", "5", ""), pcohort("LEFT", "ROOT", "5", "2"), pcohort("RIGHT", "ROOT", "5", "")),
        dflt, hier, in("unit", "5", "a"), Set.of(fs("b1"), fs("b2"), fs("c1"), fs("c2"), fs("e1")))));
    List<Workload> aLow = List.of(admitted("a1", "1", -1, "a", "default"), admitted("a2", "1", -1, "a", "default"),
        admitted("a3", "1", -1, "a", "default"));
    out.add(UpstreamCase.of(AREA, PFILE, t + "borrowing cq in non-borrowing cohort is protected", preempt(List.of(
        pcq("a", "ROOT", "5", ANY_LOWER, "10"), pcq("b", "RIGHT", "", none, "0.1")),
        List.of(pcohort("ROOT", "", "", ""), pcohort("RIGHT", "ROOT", "1", "0.1")), dflt,
        all(aLow, List.of(admitted("b1", "1", -1, "b", "default"))), in("unit", "5", "a"),
        Set.of(inCq("a1"), inCq("a2"), inCq("a3")))));
    out.add(UpstreamCase.of(AREA, PFILE, t + "forced to preempt within clusterqueue because borrowing workload too "
        + "important", preempt(List.of(pcq("a", "ROOT", "5", new PreemptionPolicy(Policy.LOWER_PRIORITY, Policy.NEVER,
            Policy.LOWER_PRIORITY), "10"), pcq("b", "RIGHT", "", none, "0.1")),
        List.of(pcohort("ROOT", "", "", ""), pcohort("RIGHT", "ROOT", "3", "0.1")), dflt,
        all(aLow, List.of(admitted("b1", "4", 100, "b", "default"))), in("unit", "4", "a"),
        Set.of(inCq("a1"), inCq("a2"), inCq("a3")))));
    out.add(UpstreamCase.of(AREA, PFILE, t + "deep preemption", preempt(List.of(pcq("a", "AAA", "0", RECLAIM_ANY, ""),
        pcq("b", "BBB", "0", none, "")), List.of(pcohort("ROOT", "", "", ""), pcohort("A", "ROOT", "", "1.01"),
        pcohort("AA", "A", "", ""), pcohort("AAA", "AA", "", ""), pcohort("B", "ROOT", "", "0.99"),
        pcohort("BB", "B", "", ""), pcohort("BBB", "BB", "", ""), pcohort("C", "ROOT", "", ""),
        pcohort("CC", "C", "", ""), pcohort("CCC", "CC", "", ""), pcohort("CCCC", "CCC", "1", "")), dflt,
        units("b", "b1"), in("a1", "1", "a"), Set.of(fs("b1")))));
    out.add(UpstreamCase.of(AREA, PFILE, t + "cq with zero weight can reclaim nominal quota", preempt(List.of(
        pcq("a", "ROOT", "1", RECLAIM_ANY, "0.0"), pcq("b", "ROOT", "0", none, "1.0")), noCohorts, dflt,
        units("b", "b1"), in("a1", "1", "a"), Set.of(reclaim("b1")))));
    out.add(UpstreamCase.of(AREA, PFILE, t + "cohort with zero weight can reclaim nominal quota", preempt(List.of(
        pcq("a", "A", "0", RECLAIM_ANY, "0.0"), pcq("b", "ROOT", "0", none, "1.0")),
        List.of(pcohort("A", "ROOT", "1", "0.0")), dflt, units("b", "b1"), in("a1", "1", "a"), Set.of(fs("b1")))));
    out.add(UpstreamCase.of(AREA, PFILE, t + "nominal first: workload fitting within nominal can preempt despite high "
        + "aggregate DRS", preempt(List.of(
        ClusterQueue.named("a", ResourceGroup.of(FlavorQuotas.of("premium", ResourceQuota.of("cpu", "3")),
            FlavorQuotas.of("cheap", ResourceQuota.of("cpu", "0")))).inCohort("all").withPreemption(RECLAIM_ANY),
        ClusterQueue.named("b", ResourceGroup.of(FlavorQuotas.of("premium", ResourceQuota.of("cpu", "0")),
            FlavorQuotas.of("cheap", ResourceQuota.of("cpu", "6")))).inCohort("all")), noCohorts, dflt,
        List.of(admitted("a_prem1", "1", 0, "a", "premium"), admitted("a_prem2", "1", 0, "a", "premium"),
            admitted("a_cheap1", "1", 0, "a", "cheap"), admitted("a_cheap2", "1", 0, "a", "cheap"),
            admitted("a_cheap3", "1", 0, "a", "cheap"), admitted("a_cheap4", "1", 0, "a", "cheap"),
            admitted("a_cheap5", "1", 0, "a", "cheap"), admitted("b_prem1", "1", 0, "b", "premium")),
        new Incoming("a_incoming", "1", 0, "a", "premium"), Set.of(reclaim("b_prem1")))));
    out.add(UpstreamCase.of(AREA, PFILE, t + "zero weight borrowing preemptor cannot preempt from a borrowing CQ with a "
        + "non-zero weight", preempt(List.of(pcq("a", "all", "1", RECLAIM_ANY, "0"), pcq("b", "all", "1", none, "1")),
        noCohorts, dflt, all(units("a", "a1"), units("b", "b1", "b2")), in("a_incoming", "1", "a"), Set.of())));
    List<Workload> b3 = units("b", "b1", "b2", "b3");
    out.add(UpstreamCase.of(AREA, PFILE, t + "zero weight borrowing preemptor can preempt from a borrowing CQ which also "
        + "has zero weight", preempt(List.of(pcq("a", "all", "1", RECLAIM_ANY, "0"), pcq("b", "all", "0", none, "0")),
        List.of(pcohort("all", "", "3", "")), dflt, b3, in("a_incoming", "2", "a"), Set.of(fs("b1")))));
    out.add(UpstreamCase.of(AREA, PFILE, t + "non-zero weight borrowing preemptor preempts from a borrowing CQ", preempt(
        List.of(pcq("a", "all", "1", RECLAIM_ANY, "1"), pcq("b", "all", "0", none, "1")),
        List.of(pcohort("all", "", "3", "")), dflt, b3, in("a_incoming", "2", "a"), Set.of(fs("b1")))));
    out.add(UpstreamCase.of(AREA, PFILE, t + "candidates skipped by the first strategy are still available to the "
        + "second strategy", preempt(List.of(pcq("p", "A", "2", RECLAIM_ANY, "1"), pcq("y", "A", "2", none, "1"),
            pcq("x", "ROOT", "1", none, "1")), List.of(pcohort("A", "ROOT", "1", "0")), dflt,
        List.of(admitted("p1", "2", 0, "p", "default"), admitted("y1", "2", 0, "y", "default"),
            admitted("y2", "2", 0, "y", "default"), admitted("x1", "1", 0, "x", "default"),
            admitted("x2", "1", 0, "x", "default")), in("p_incoming", "1", "p"), Set.of(fs("y1"), fs("x1")))));
    return out;
  }

  // ---- TestScheduleForFairSharing ----

  private static final String SFILE = "pkg/scheduler/scheduler_fs_test.go";
  private static final String NO_LONGER_FITS = "WaitingForQuota: Workload no longer fits after processing another "
      + "workload";

  /** A workload of namespace eng-alpha with one pod set "one" of {@code count} pods asking {@code cpu} each. */
  private static Workload engAlpha(String name, String queue, int count, String cpu, int priority, Instant created) {
    return new Workload("eng-alpha", name, queue, List.of(ScheduleCases.ps("one", count, "cpu", cpu)), priority,
        created, Labels.of("dep", "eng"));
  }

  /** {@code MakeAdmission(cq, "one").PodSets(Assignment(cpu, on-demand, n).Count(count))}, cpu in millis. */
  private static Admission onDemand(String cq, int count, long millis) {
    return ScheduleCases.admission(cq, "one", count, "cpu", "on-demand", Long.toString(millis));
  }

  private static ClusterQueue zeroQuota(String name, String cohort, String weight, PreemptionPolicy p) {
    ClusterQueue q = ClusterQueue.named(name, ResourceGroup.of(FlavorQuotas.of("on-demand", ResourceQuota.of("cpu", "0"))))
        .inCohort(cohort).withPreemption(p);
    return weight.isEmpty() ? q : q.withFairSharing(FairSharing.weight(weight));
  }

  private static Cohort cohortA(String cpu) {
    return Cohort.named("A", ResourceGroup.of(FlavorQuotas.of("on-demand", ResourceQuota.of("cpu", cpu))));
  }

  private static final List<io.gpufleet.queue.api.LocalQueue> LQ_BC = List.of(
      new io.gpufleet.queue.api.LocalQueue("eng-alpha", "lq-b", "b"),
      new io.gpufleet.queue.api.LocalQueue("eng-alpha", "lq-c", "c"));

  private static Runnable schedule(List<ClusterQueue> cqs, List<Cohort> cohorts,
      List<io.gpufleet.queue.api.LocalQueue> lqs, List<Workload> wls, ScheduleCases.Want want) {
    return ScheduleCases.check(cqs, cohorts, lqs, wls, want,
        io.gpufleet.queue.api.KueueConfiguration.withFairSharing(FairSharingConfig.DEFAULT));
  }

  static List<UpstreamCase> scheduleForFairSharing() {
    List<UpstreamCase> out = new ArrayList<>();
    String t = "TestScheduleForFairSharing: ";
    out.add(UpstreamCase.of(AREA, SFILE, t + "with fair sharing: schedule workload with lowest share first", schedule(
        List.of(ClusterQueue.named("eng-shared", ResourceGroup.of(new FlavorQuotas("on-demand",
            List.of(ResourceQuota.of("cpu", "10", "0", ""))))).inCohort("eng")), List.of(), List.of(), List.of(
        engAlpha("all_nominal", "main", 50, "1", 0, NOW).admitted(onDemand("eng-alpha", 50, 50_000), NOW),
        new Workload("eng-beta", "borrowing", "main", List.of(ScheduleCases.ps("one", 55, "cpu", "1")), 0, NOW,
            Labels.of("dep", "eng")).admitted(onDemand("eng-beta", 55, 55_000), NOW),
        new Workload("eng-beta", "older_new", "main", List.of(ScheduleCases.ps("one", 1, "cpu", "1")), 0,
            NOW.minusSeconds(60), Labels.of("dep", "eng")),
        engAlpha("new", "main", 5, "1", 0, NOW)),
        new ScheduleCases.Want(Map.of("eng-alpha/new", onDemand("eng-alpha", 5, 5_000)),
            Map.of("eng-beta/older_new", NO_LONGER_FITS), Map.of("eng-beta/older_new", "left eng-beta")))));
    List<ClusterQueue> bc = List.of(zeroQuota("b", "A", "", PreemptionPolicy.NEVER),
        zeroQuota("c", "A", "", PreemptionPolicy.NEVER));
    out.add(UpstreamCase.of(AREA, SFILE, t + "fair sharing schedule workload with lowest drf after admission", schedule(
        bc, List.of(cohortA("100")), LQ_BC, List.of(
            engAlpha("b0", "lq-b", 1, "10", 0, NOW).admitted(onDemand("b", 1, 10_000), NOW),
            engAlpha("b1", "lq-b", 1, "50", 0, NOW), engAlpha("c1", "lq-c", 1, "75", 0, NOW)),
        new ScheduleCases.Want(Map.of("eng-alpha/b1", onDemand("b", 1, 50_000)),
            Map.of("eng-alpha/c1", NO_LONGER_FITS), Map.of("eng-alpha/c1", "left c")))));
    PreemptionPolicy reclaimAny = new PreemptionPolicy(Policy.ANY, Policy.NEVER, Policy.NEVER);
    for (String[] w : new String[][] {{"0", "fair sharing two queues with weight 0 schedules workload which borrows "
        + "less"}, {"123456789", "fair sharing two queues with high weight schedules workload which borrows less"}}) {
      out.add(UpstreamCase.of(AREA, SFILE, t + w[1], schedule(List.of(zeroQuota("b", "A", w[0], reclaimAny),
          zeroQuota("c", "A", w[0], reclaimAny)), List.of(cohortA("8")), LQ_BC, List.of(
              engAlpha("b0", "lq-b", 1, "4", 0, NOW).admitted(onDemand("b", 1, 4_000), NOW),
              engAlpha("b1", "lq-b", 1, "4", 9001, NOW), engAlpha("c1", "lq-c", 1, "4", 0, NOW)),
          new ScheduleCases.Want(Map.of("eng-alpha/c1", onDemand("c", 1, 4_000)), Map.of(),
              Map.of("eng-alpha/b1", "left b")))));
    }
    out.add(UpstreamCase.of(AREA, SFILE, t + "fair sharing schedule singleton cqs and cq without cohort", schedule(
        List.of(zeroQuota("a", "A", "", PreemptionPolicy.NEVER),
            ClusterQueue.named("b", ResourceGroup.of(FlavorQuotas.of("on-demand", ResourceQuota.of("cpu", "10"))))
                .inCohort("B"),
            ClusterQueue.named("c", ResourceGroup.of(FlavorQuotas.of("on-demand", ResourceQuota.of("cpu", "10"))))),
        List.of(cohortA("10"), Cohort.named("B")), List.of(new io.gpufleet.queue.api.LocalQueue("eng-alpha", "lq-a", "a"),
            LQ_BC.get(0), LQ_BC.get(1)), List.of(engAlpha("a1", "lq-a", 1, "10", 0, NOW),
            engAlpha("b1", "lq-b", 1, "10", 0, NOW), engAlpha("c1", "lq-c", 1, "10", 0, NOW)),
        new ScheduleCases.Want(Map.of("eng-alpha/a1", onDemand("a", 1, 10_000), "eng-alpha/b1",
            onDemand("b", 1, 10_000), "eng-alpha/c1", onDemand("c", 1, 10_000)), Map.of(), Map.of()))));
    out.add(UpstreamCase.of(AREA, SFILE, t + "fair sharing schedule highest priority first", schedule(bc,
        List.of(cohortA("10"), Cohort.named("B")), LQ_BC, List.of(engAlpha("b1", "lq-b", 1, "10", 99, NOW),
            engAlpha("c1", "lq-c", 1, "10", 101, NOW)),
        new ScheduleCases.Want(Map.of("eng-alpha/c1", onDemand("c", 1, 10_000)), Map.of(),
            Map.of("eng-alpha/b1", "left b")))));
    out.add(UpstreamCase.of(AREA, SFILE, t + "fair sharing schedule earliest timestamp first", schedule(bc,
        List.of(cohortA("10"), Cohort.named("B")), LQ_BC, List.of(
            engAlpha("b1", "lq-b", 1, "10", 101, NOW.plusSeconds(1)), engAlpha("c1", "lq-c", 1, "10", 101, NOW)),
        new ScheduleCases.Want(Map.of("eng-alpha/c1", onDemand("c", 1, 10_000)), Map.of(),
            Map.of("eng-alpha/b1", "left b")))));
    // fs-nom-a borrows 30 of spot, fs-nom-b will borrow on on-demand: the share alone would pick borrow-wl.
    out.add(UpstreamCase.of(AREA, SFILE, t + "with fair sharing: nominal-first ordering admits workload fitting within "
        + "nominal despite higher CQ DRS", schedule(List.of(
            ClusterQueue.named("fs-nom-a", ResourceGroup.of(new FlavorQuotas("on-demand",
                List.of(ResourceQuota.of("cpu", "50", "0", "")))), ResourceGroup.of(new FlavorQuotas("spot",
                List.of(ResourceQuota.of("cpu", "50", "50", ""))))).inCohort("fs-nom"),
            ClusterQueue.named("fs-nom-b", ResourceGroup.of(new FlavorQuotas("on-demand",
                List.of(ResourceQuota.of("cpu", "10", "50", "")))), ResourceGroup.of(new FlavorQuotas("spot",
                List.of(ResourceQuota.of("cpu", "50", "0", ""))))).inCohort("fs-nom")), List.of(),
        List.of(new io.gpufleet.queue.api.LocalQueue("eng-alpha", "fs-nom", "fs-nom-a"),
            new io.gpufleet.queue.api.LocalQueue("eng-beta", "fs-nom", "fs-nom-b")), List.of(
            engAlpha("spot-heavy", "fs-nom", 80, "1", 0, NOW).admitted(ScheduleCases.admission("fs-nom-a", "one", 80,
                "cpu", "spot", "80000"), NOW),
            new Workload("eng-beta", "light-usage", "fs-nom", List.of(ScheduleCases.ps("one", 5, "cpu", "1")), 0, NOW,
                Labels.of("dep", "eng")).admitted(onDemand("fs-nom-b", 5, 5_000), NOW),
            new Workload("eng-beta", "borrow-wl", "fs-nom", List.of(ScheduleCases.ps("one", 15, "cpu", "1")), 0,
                NOW.minusSeconds(60), Labels.of("dep", "eng")),
            engAlpha("nom-wl", "fs-nom", 45, "1", 0, NOW)),
        new ScheduleCases.Want(Map.of("eng-alpha/nom-wl", onDemand("fs-nom-a", 45, 45_000)), Map.of(),
            Map.of("eng-beta/borrow-wl", "left fs-nom-b")))));
    for (boolean deeper : List.of(false, true)) {
      // cq-a under Cohort-A (10 cpu), directly or through SUB-A; cq-b (5) and cq-c (borrowing 10) under Cohort-B.
      List<Cohort> tree = deeper
          ? List.of(Cohort.named("root"), Cohort.named("Cohort-A").withParent("root"),
              Cohort.named("SUB-A", ResourceGroup.of(FlavorQuotas.of("on-demand", ResourceQuota.of("cpu", "10"))))
                  .withParent("Cohort-A"), Cohort.named("Cohort-B").withParent("root"))
          : List.of(Cohort.named("root"), Cohort.named("Cohort-A", ResourceGroup.of(FlavorQuotas.of("on-demand",
              ResourceQuota.of("cpu", "10")))).withParent("root"), Cohort.named("Cohort-B").withParent("root"));
      out.add(UpstreamCase.of(AREA, SFILE, t + (deeper ? "with fair sharing: hierarchical nominal-first with deeper "
          + "nesting" : "with fair sharing: hierarchical nominal-first prefers non-borrowing subtree"), schedule(List.of(
              zeroQuota("cq-a", deeper ? "SUB-A" : "Cohort-A", "", PreemptionPolicy.NEVER),
              ClusterQueue.named("cq-b", ResourceGroup.of(FlavorQuotas.of("on-demand", ResourceQuota.of("cpu", "5"))))
                  .inCohort("Cohort-B"),
              zeroQuota("cq-c", "Cohort-B", "", PreemptionPolicy.NEVER)), tree, List.of(
              new io.gpufleet.queue.api.LocalQueue("eng-alpha", "lq-a", "cq-a"),
              new io.gpufleet.queue.api.LocalQueue("eng-alpha", "lq-b", "cq-b"),
              new io.gpufleet.queue.api.LocalQueue("eng-alpha", "lq-c", "cq-c")), List.of(
              engAlpha("c0", "lq-c", 1, "10", 0, NOW).admitted(onDemand("cq-c", 1, 10_000), NOW),
              engAlpha("wl-a", "lq-a", 1, "5", 0, NOW), engAlpha("wl-b", "lq-b", 1, "5", 0, NOW)),
          new ScheduleCases.Want(Map.of("eng-alpha/wl-a", onDemand("cq-a", 1, 5_000)), Map.of(),
              Map.of("eng-alpha/wl-b", "left cq-b")))));
    }
    // A (200 cpu) over B {d, e} and C {f, g}: d1 wins B's round (d 80 against e 81), then the root's (B 100 against C 101).
    List<io.gpufleet.queue.api.LocalQueue> lqDefg = new ArrayList<>();
    for (String q : List.of("d", "e", "f", "g")) {
      lqDefg.add(new io.gpufleet.queue.api.LocalQueue("eng-alpha", "lq-" + q, q));
    }
    out.add(UpstreamCase.of(AREA, SFILE, t + "hierarchical fair sharing schedule workload which wins tournament",
        schedule(List.of(zeroQuota("d", "B", "", PreemptionPolicy.NEVER), zeroQuota("e", "B", "", PreemptionPolicy.NEVER),
            zeroQuota("f", "C", "", PreemptionPolicy.NEVER), zeroQuota("g", "C", "", PreemptionPolicy.NEVER)),
        List.of(cohortA("200"), Cohort.named("B").withParent("A"), Cohort.named("C").withParent("A")), lqDefg, List.of(
            engAlpha("d0", "lq-d", 1, "10", 0, NOW).admitted(onDemand("d", 1, 10_000), NOW),
            engAlpha("e0", "lq-e", 1, "20", 0, NOW).admitted(onDemand("e", 1, 20_000), NOW),
            engAlpha("g0", "lq-g", 1, "100", 0, NOW).admitted(onDemand("g", 1, 100_000), NOW),
            engAlpha("d1", "lq-d", 1, "70", 0, NOW), engAlpha("e1", "lq-e", 1, "61", 0, NOW),
            engAlpha("f1", "lq-f", 1, "1", 0, NOW), engAlpha("g1", "lq-g", 1, "1", 0, NOW)),
        new ScheduleCases.Want(Map.of("eng-alpha/d1", onDemand("d", 1, 70_000)), Map.of(),
            Map.of("eng-alpha/e1", "left e", "eng-alpha/f1", "left f", "eng-alpha/g1", "left g")))));
    // other-alpha, -beta and -gamma (2 cpu each) and resource-bank (3) in cohort "other": each queue's 3-cpu workload
    // borrows one; each preemptor of priority 100 preempts its own queue's.
    List<ClusterQueue> others = new ArrayList<>();
    List<io.gpufleet.queue.api.LocalQueue> otherLqs = new ArrayList<>();
    List<Workload> otherWls = new ArrayList<>();
    Map<String, String> waiting = new TreeMap<>();
    Map<String, String> preempting = new TreeMap<>();
    String[][] teams = {{"alpha", "a1"}, {"beta", "b1"}, {"gamma", "c1"}};
    for (String[] team : teams) {
      String cq = "other-" + team[0];
      String ns = "eng-" + team[0];
      others.add(ClusterQueue.named(cq, ResourceGroup.of(FlavorQuotas.of("default", ResourceQuota.of("cpu", "2"))))
          .inCohort("other").withPreemption(new PreemptionPolicy(Policy.NEVER, Policy.NEVER, Policy.LOWER_PRIORITY)));
      otherLqs.add(new io.gpufleet.queue.api.LocalQueue(ns, "other", cq));
      otherWls.add(ScheduleCases.wl(ns, team[1], "other", ScheduleCases.ps(PodSet.MAIN, 1, "cpu", "3"))
          .admitted(ScheduleCases.admission(cq, PodSet.MAIN, 1, "cpu", "default", "3000"), NOW));
      otherWls.add(ScheduleCases.wl(ns, "preemptor", "other", ScheduleCases.ps(PodSet.MAIN, 1, "cpu", "3"))
          .withPriority(100));
      waiting.put(ns + "/preemptor", "WaitingForPreemptedWorkloads: couldn't assign flavors to pod set main: "
          + "insufficient unused quota for cpu in flavor default, 3 more needed. Pending the preemption of 1 workload(s)");
      preempting.put(ns + "/preemptor", "preempting " + ns + "/" + team[1]);
    }
    others.add(ClusterQueue.named("resource-bank", ResourceGroup.of(FlavorQuotas.of("default",
        ResourceQuota.of("cpu", "3")))).inCohort("other"));
    // Upstream's ClusterQueues here set only withinClusterQueue, leaving reclaimWithinCohort "" in the test's struct,
    // which canPreemptWhileBorrowing takes for "not Never"; the API server defaults it to Never, as the twin does.
    out.add(UpstreamCase.of(AREA, SFILE, t + "multiple preemptions within cq when fair sharing", schedule(others,
        List.of(), otherLqs, otherWls, new ScheduleCases.Want(Map.of(), waiting, preempting))).differs(
        "upstream's test leaves reclaimWithinCohort unset (\"\"), which the flavor assigner takes for not Never, so a "
            + "ClusterQueue may preempt while borrowing; the API server defaults it to Never, as the twin's ClusterQueue "
            + "has it, so each preemptor, needing to borrow, finds no fit and waits (WaitingForQuota)"));
    out.add(UpstreamCase.of(AREA, SFILE, t + "not enough resources with fair sharing enabled", schedule(List.of(),
        List.of(), List.of(), List.of(ScheduleCases.wl("sales", "new", "main", ScheduleCases.ps("one", 1, "cpu", "100"))),
        new ScheduleCases.Want(Map.of(), Map.of("sales/new", "ExceedsMaxQuota: couldn't assign flavors to pod set one: "
            + "insufficient quota for cpu in flavor default, previously considered podsets requests (0) + current podset "
            + "request (100) > maximum capacity (50)"), Map.of("sales/new", "left sales")))));
    out.add(UpstreamCase.of(AREA, SFILE, t + "fair sharing: in-CQ preemption for CQ without cohort; repro for nil pointer "
        + "panic", schedule(List.of(ClusterQueue.named("no-cohort-cq", ResourceGroup.of(FlavorQuotas.of("default",
            ResourceQuota.of("cpu", "4")))).withPreemption(new PreemptionPolicy(Policy.NEVER, Policy.NEVER,
            Policy.LOWER_PRIORITY))), List.of(),
        List.of(new io.gpufleet.queue.api.LocalQueue("default", "no-cohort-queue", "no-cohort-cq")), List.of(
            ScheduleCases.wl("default", "nc-low", "no-cohort-queue", ScheduleCases.ps(PodSet.MAIN, 1, "cpu", "4"))
                .withPriority(-1).admitted(ScheduleCases.admission("no-cohort-cq", PodSet.MAIN, 1, "cpu", "default",
                    "4000"), NOW),
            ScheduleCases.wl("default", "nc-high", "no-cohort-queue", ScheduleCases.ps(PodSet.MAIN, 1, "cpu", "4"))
                .withPriority(100)),
        new ScheduleCases.Want(Map.of(), Map.of(), Map.of("default/nc-high", "preempting default/nc-low")))));
    out.add(UpstreamCase.of(AREA, SFILE, t + "with fair sharing: preempt workload from CQ with the highest share",
        FairSharingCases::preemptFromHighestShare));
    out.add(UpstreamCase.of(AREA, SFILE, t + "with fair sharing: prefer reclamation over cq priority based preemption; "
        + "with preemption while borrowing", FairSharingCases::preferReclamation));
    return out;
  }

  /**
   * eng-beta's preemptor (30 cpu, within its nominal quota) reclaims from eng-alpha (borrowing 30 of
   * on-demand) and then eng-gamma (borrowing 20), the higher share first.
   */
  private static void preemptFromHighestShare() {
    List<ClusterQueue> cqs = new ArrayList<>(ScheduleCases.QUEUES);
    cqs.add(ClusterQueue.named("eng-gamma", ResourceGroup.of(new FlavorQuotas("on-demand",
        List.of(ResourceQuota.of("cpu", "50", "0", ""))))).inCohort("eng"));
    List<Workload> wls = new ArrayList<>();
    wls.add(simple("eng-alpha", "all_spot", "cpu", "100", 0, "eng-alpha", "spot"));
    for (int i = 1; i <= 4; i++) {
      wls.add(simple("eng-alpha", "alpha" + i, "cpu", "20", 0, "eng-alpha", "on-demand"));
      wls.add(simple("eng-gamma", "gamma" + i, "cpu", i == 1 ? "10" : "20", 0, "eng-gamma", "on-demand"));
    }
    wls.add(new Workload("eng-beta", "preemptor", "main", List.of(ScheduleCases.ps(PodSet.MAIN, 1, "cpu", "30")), 0,
        NOW, Labels.of("dep", "eng")));
    preempting(cqs, ScheduleCases.LOCAL_QUEUES, wls, "eng-beta/preemptor", "couldn't assign flavors to pod set main: "
        + "insufficient unused quota for cpu in flavor on-demand, 30 more needed, insufficient unused quota for cpu in "
        + "flavor spot, 30 more needed. Pending the preemption of 2 workload(s)", Map.of(
        "eng-alpha/alpha1", "InCohortReclamation: due to reclamation within the cohort; preemptor path: /eng/eng-beta; "
            + "preemptee path: /eng/eng-alpha",
        "eng-gamma/gamma1", "InCohortReclamation: due to reclamation within the cohort; preemptor path: /eng/eng-beta; "
            + "preemptee path: /eng/eng-gamma"));
  }

  /**
   * The preemptor of other-alpha needs 8 gpu: on-demand would preempt its own a1, spot reclaims b1 from
   * other-beta, which borrows; reclaiming is preferred, and fair sharing lets it preempt while borrowing.
   */
  private static void preferReclamation() {
    List<ClusterQueue> cqs = new ArrayList<>(ScheduleCases.QUEUES);
    cqs.add(ClusterQueue.named("other-alpha", ResourceGroup.of(FlavorQuotas.of("on-demand", ResourceQuota.of("gpu", "7")),
        FlavorQuotas.of("spot", ResourceQuota.of("gpu", "7")))).inCohort("other").withPreemption(
        new PreemptionPolicy(Policy.LOWER_PRIORITY, Policy.NEVER, Policy.LOWER_PRIORITY)));
    cqs.add(ClusterQueue.named("other-beta", ResourceGroup.of(FlavorQuotas.of("on-demand", ResourceQuota.of("gpu", "3")),
        FlavorQuotas.of("spot", ResourceQuota.of("gpu", "3")))).inCohort("other"));
    List<io.gpufleet.queue.api.LocalQueue> lqs = new ArrayList<>(ScheduleCases.LOCAL_QUEUES);
    lqs.add(new io.gpufleet.queue.api.LocalQueue("eng-alpha", "other", "other-alpha"));
    lqs.add(new io.gpufleet.queue.api.LocalQueue("eng-beta", "other", "other-beta"));
    preempting(cqs, lqs, List.of(simple("eng-alpha", "a1", "gpu", "5", 50, "other-alpha", "on-demand"),
        simple("eng-beta", "b1", "gpu", "5", 50, "other-beta", "spot"),
        new Workload("eng-alpha", "preemptor", "other", List.of(ScheduleCases.ps(PodSet.MAIN, 1, "gpu", "8")), 100, NOW,
            Labels.of("dep", "eng"))), "eng-alpha/preemptor", "couldn't assign flavors to pod set main: insufficient "
        + "unused quota for gpu in flavor on-demand, 3 more needed, insufficient unused quota for gpu in flavor spot, 3 "
        + "more needed. Pending the preemption of 1 workload(s)", Map.of("eng-beta/b1", "InCohortFairSharing: due to "
        + "Fair Sharing within the cohort; preemptor path: /other/other-alpha; preemptee path: /other/other-beta"));
  }

  /**
   * One cycle with fair sharing on, in which the only decision is {@code preemptor} waiting on the
   * preemption of its targets. The Preempted messages carry the preemptor's UID and JobUID upstream,
   * which the twin does not have, so they are compared from "due to" on.
   */
  private static void preempting(List<ClusterQueue> cqs, List<io.gpufleet.queue.api.LocalQueue> lqs, List<Workload> wls,
      String preemptor, String message, Map<String, String> targets) {
    io.gpufleet.queue.api.KueueState state = new io.gpufleet.queue.api.KueueState(ScheduleCases.FLAVORS, cqs,
        List.of(), lqs, wls, io.gpufleet.queue.api.KueueConfiguration.withFairSharing(FairSharingConfig.DEFAULT));
    List<io.gpufleet.queue.admission.Decision> decisions = io.gpufleet.queue.admission.Scheduler.cycle(state, NOW);
    assertThat(decisions).singleElement().isInstanceOf(io.gpufleet.queue.admission.Decision.Preempting.class);
    var p = (io.gpufleet.queue.admission.Decision.Preempting) decisions.getFirst();
    assertThat(p.workload()).isEqualTo(preemptor);
    assertThat(p.message()).isEqualTo(message);
    Map<String, String> got = new TreeMap<>();
    p.targets().forEach(e -> got.put(e.workload(), e.reason() + ":" + e.message().substring(e.message()
        .indexOf(" due to "))));
    assertThat(got).isEqualTo(targets);
  }

  /** {@code MakeWorkload(name, ns).Priority(p).Request(r, q).SimpleReserveQuota(cq, flavor, now)}: pod set main of one pod. */
  private static Workload simple(String ns, String name, String resource, String quantity, int priority, String cq,
      String flavor) {
    ResourceName r = ResourceName.of(resource);
    return new Workload(ns, name, "", List.of(ScheduleCases.ps(PodSet.MAIN, 1, resource, quantity)), priority, NOW,
        Labels.of("dep", "eng")).admitted(ScheduleCases.admission(cq, PodSet.MAIN, 1, resource, flavor,
        Long.toString(Amounts.of(r, Quantity.parse(quantity)))), NOW);
  }
}
