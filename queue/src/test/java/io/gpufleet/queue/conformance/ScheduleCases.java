package io.gpufleet.queue.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.label.SelectorOperator;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.queue.api.FlavorFungibility;
import io.gpufleet.queue.api.PreemptionPolicy;
import io.gpufleet.queue.admission.Decision;
import io.gpufleet.queue.api.KueueConfiguration;
import io.gpufleet.queue.api.KueueState;
import io.gpufleet.queue.admission.Scheduler;
import io.gpufleet.queue.api.Admission;
import io.gpufleet.queue.api.ClusterQueue;
import io.gpufleet.queue.api.Cohort;
import io.gpufleet.queue.api.FlavorQuotas;
import io.gpufleet.queue.api.LocalQueue;
import io.gpufleet.queue.api.PodSet;
import io.gpufleet.queue.api.QueueingStrategy;
import io.gpufleet.queue.api.ResourceFlavor;
import io.gpufleet.queue.api.ResourceGroup;
import io.gpufleet.queue.api.ResourceQuota;
import io.gpufleet.queue.api.Workload;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@code pkg/scheduler/scheduler_test.go} TestSchedule: one scheduling cycle over the test's shared
 * ClusterQueues (sales, eng-alpha, eng-beta in cohort eng, flavor-nonexistent-cq, lend-a and lend-b
 * in cohort lend) and namespaces (dep=sales, dep=eng, dep=lend), checking the admissions after the
 * cycle ({@code wantAssignments}), the QuotaReserved reason and message of those not admitted
 * ({@code wantWorkloads}), and which are left in the queue or set aside as inadmissible
 * ({@code wantLeft}, {@code wantInadmissibleLeft}), and the targets of a workload that preempts.
 * Not translated: the entries with partial admission, admission checks, second passes, workload
 * slices or TAS; those with fair sharing are in {@link FairSharingCases}.
 */
final class ScheduleCases {

  private static final String FILE = "pkg/scheduler/scheduler_test.go";
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private ScheduleCases() {}

  private static Optional<LabelSelector> dep(String value) {
    return Optional.of(new LabelSelector(Labels.EMPTY,
        List.of(new Requirement("dep", SelectorOperator.IN, List.of(value)))));
  }

  private static FlavorQuotas fq(String flavor, String resource, String nominal, String borrowing, String lending) {
    return new FlavorQuotas(flavor, List.of(ResourceQuota.of(resource, nominal, borrowing, lending)));
  }

  static final List<ResourceFlavor> FLAVORS = List.of(ResourceFlavor.named("default"), ResourceFlavor.named("on-demand"),
      ResourceFlavor.named("spot"), ResourceFlavor.named("model-a"),
      ResourceFlavor.named("spot-tainted").withTaints(List.of(Taint.of("key", "val", TaintEffect.NO_SCHEDULE))),
      ResourceFlavor.named("spot-tainted-2").withTaints(List.of(Taint.of("key", "val2", TaintEffect.NO_SCHEDULE))));

  static final List<ClusterQueue> QUEUES = List.of(
      ClusterQueue.named("sales", ResourceGroup.of(fq("default", "cpu", "50", "0", ""))).withNamespaceSelector(dep("sales"))
          .withStrategy(QueueingStrategy.STRICT_FIFO),
      ClusterQueue.named("eng-alpha", ResourceGroup.of(fq("on-demand", "cpu", "50", "50", ""),
          fq("spot", "cpu", "100", "0", ""))).inCohort("eng").withNamespaceSelector(dep("eng"))
          .withStrategy(QueueingStrategy.STRICT_FIFO),
      ClusterQueue.named("eng-beta", ResourceGroup.of(fq("on-demand", "cpu", "50", "10", ""),
          fq("spot", "cpu", "0", "100", "")), ResourceGroup.of(fq("model-a", "example.com/gpu", "20", "0", "")))
          .inCohort("eng").withNamespaceSelector(dep("eng")).withStrategy(QueueingStrategy.STRICT_FIFO)
          .withPreemption(new PreemptionPolicy(PreemptionPolicy.Policy.ANY, PreemptionPolicy.Policy.NEVER,
              PreemptionPolicy.Policy.LOWER_PRIORITY)),
      ClusterQueue.named("flavor-nonexistent-cq", ResourceGroup.of(fq("nonexistent-flavor", "cpu", "50", "", "")))
          .withStrategy(QueueingStrategy.STRICT_FIFO),
      ClusterQueue.named("lend-a", ResourceGroup.of(fq("default", "cpu", "3", "", "2"))).inCohort("lend")
          .withNamespaceSelector(dep("lend")),
      ClusterQueue.named("lend-b", ResourceGroup.of(fq("default", "cpu", "2", "", "2"))).inCohort("lend")
          .withNamespaceSelector(dep("lend")));

  static final List<LocalQueue> LOCAL_QUEUES = List.of(new LocalQueue("sales", "main", "sales"),
      new LocalQueue("sales", "blocked", "eng-alpha"), new LocalQueue("eng-alpha", "main", "eng-alpha"),
      new LocalQueue("eng-beta", "main", "eng-beta"), new LocalQueue("sales", "flavor-nonexistent-queue",
          "flavor-nonexistent-cq"), new LocalQueue("sales", "cq-nonexistent-queue", "nonexistent-cq"),
      new LocalQueue("lend", "lend-a-queue", "lend-a"), new LocalQueue("lend", "lend-b-queue", "lend-b"));

  static final Map<String, Labels> NAMESPACES = Map.of("sales", Labels.of("dep", "sales"), "eng-alpha",
      Labels.of("dep", "eng"), "eng-beta", Labels.of("dep", "eng"), "lend", Labels.of("dep", "lend"));

  static Workload wl(String ns, String name, String queue, PodSet... podSets) {
    return Workload.of(ns, name, queue, NOW, podSets).withNamespaceLabels(NAMESPACES.getOrDefault(ns, Labels.EMPTY));
  }

  static PodSet ps(String name, int count, String... requests) {
    return PodSet.of(name, count, ResourceList.of(requests));
  }

  /** An admission as the test's {@code MakeAdmission(cq).PodSets(Assignment(resource, flavor, amount).Count(n))}. */
  static Admission admission(String cq, String podSet, int count, String... resourceFlavorAmount) {
    Map<ResourceName, String> flavors = new TreeMap<>();
    Map<ResourceName, Long> usage = new TreeMap<>();
    for (int i = 0; i < resourceFlavorAmount.length; i += 3) {
      ResourceName r = ResourceName.of(resourceFlavorAmount[i]);
      flavors.put(r, resourceFlavorAmount[i + 1]);
      usage.put(r, Long.parseLong(resourceFlavorAmount[i + 2]));
    }
    return new Admission(cq, List.of(new Admission.PodSetAssignment(podSet, new TreeMap<>(flavors),
        new TreeMap<>(usage), count)));
  }

  /** What a case expects: admissions made in this cycle, and for the others reason and message or where they are left. */
  record Want(Map<String, Admission> admitted, Map<String, String> pending, Map<String, String> left) {}

  static String pendingAs(Decision.Pending p) {
    return p.reason() + ": " + p.message();
  }

  private static Runnable check(List<ClusterQueue> extraQueues, List<Cohort> cohorts, List<LocalQueue> extraLocal,
      List<Workload> workloads, Want want) {
    return check(extraQueues, cohorts, extraLocal, workloads, want, KueueConfiguration.DEFAULT);
  }

  /** One cycle under Kueue's Configuration {@code config} (the tests' {@code enableFairSharing}). */
  static Runnable check(List<ClusterQueue> extraQueues, List<Cohort> cohorts, List<LocalQueue> extraLocal,
      List<Workload> workloads, Want want, KueueConfiguration config) {
    return () -> {
      List<ClusterQueue> cqs = new ArrayList<>(QUEUES);
      cqs.addAll(extraQueues);
      List<LocalQueue> lqs = new ArrayList<>(LOCAL_QUEUES);
      lqs.addAll(extraLocal);
      KueueState state = new KueueState(FLAVORS, cqs, cohorts, lqs, workloads, config);
      List<Decision> decisions = Scheduler.cycle(state, NOW);
      Map<String, Admission> admitted = new TreeMap<>();
      Map<String, String> pending = new TreeMap<>();
      Map<String, String> left = new TreeMap<>();
      for (Decision d : decisions) {
        switch (d) {
          case Decision.Admitted a -> admitted.put(a.workload(), a.admission());
          case Decision.Pending p -> {
            pending.put(p.workload(), pendingAs(p));
            left.put(p.workload(), (p.inadmissible() ? "inadmissible " : "left ") + p.clusterQueue());
          }
          case Decision.Preempting p -> {
            pending.put(p.workload(), "WaitingForPreemptedWorkloads: " + p.message());
            left.put(p.workload(), "preempting " + String.join(",", p.targets().stream()
                .map(Decision.Eviction::workload).toList()));
          }
          case Decision.NotConsidered n -> left.put(n.workload(), n.queuedIn().map(q -> "left " + q).orElse("not queued"));
        }
      }
      assertThat(admitted).as("admitted in this cycle").isEqualTo(want.admitted);
      want.pending.forEach((k, v) -> assertThat(pending.get(k)).as("QuotaReserved of " + k).isEqualTo(v));
      want.left.forEach((k, v) -> assertThat(left.get(k)).as("where " + k + " is left").isEqualTo(v));
    };
  }

  private static Runnable check(List<Workload> workloads, Want want) {
    return check(List.of(), List.of(), List.of(), workloads, want);
  }

  static List<UpstreamCase> all() {
    List<UpstreamCase> out = new ArrayList<>();
    String t = "TestSchedule: ";
    out.add(UpstreamCase.of("scheduler", FILE, t + "single clusterQueue full", check(List.of(
        wl("sales", "new", "main", ps("one", 11, "cpu", "1")),
        wl("sales", "assigned", "", ps("one", 40, "cpu", "1")).admitted(admission("sales", "one", 40, "cpu", "default",
            "40000"), NOW)),
        new Want(Map.of(), Map.of("sales/new", "WaitingForQuota: couldn't assign flavors to pod set one: insufficient "
            + "unused quota for cpu in flavor default, 1 more needed"), Map.of("sales/new", "left sales")))));
    out.add(UpstreamCase.of("scheduler", FILE, t + "failed to match clusterQueue selector", check(List.of(
        wl("sales", "new", "blocked", ps("one", 1, "cpu", "1"))),
        new Want(Map.of(), Map.of("sales/new", "Misconfigured: workload namespace doesn't match ClusterQueue selector"),
            Map.of("sales/new", "inadmissible eng-alpha")))));
    out.add(UpstreamCase.of("scheduler", FILE, t + "admit in different cohorts", check(List.of(
        wl("sales", "new", "main", ps("one", 1, "cpu", "1")),
        wl("eng-alpha", "new", "main", ps("one", 51, "cpu", "1"))),
        new Want(Map.of("sales/new", admission("sales", "one", 1, "cpu", "default", "1000"),
            "eng-alpha/new", admission("eng-alpha", "one", 51, "cpu", "on-demand", "51000")), Map.of(), Map.of()))));
    out.add(UpstreamCase.of("scheduler", FILE, t + "admit in same cohort with no borrowing", check(List.of(
        wl("eng-alpha", "new", "main", ps("one", 40, "cpu", "1")),
        wl("eng-beta", "new", "main", ps("one", 40, "cpu", "1"))),
        new Want(Map.of("eng-alpha/new", admission("eng-alpha", "one", 40, "cpu", "on-demand", "40000"),
            "eng-beta/new", admission("eng-beta", "one", 40, "cpu", "on-demand", "40000")), Map.of(), Map.of()))));
    Admission multi = new Admission("eng-beta", List.of(
        new Admission.PodSetAssignment("one", new TreeMap<>(Map.of(ResourceName.CPU, "on-demand",
            ResourceName.of("example.com/gpu"), "model-a")), new TreeMap<>(Map.of(ResourceName.CPU, 60_000L,
            ResourceName.of("example.com/gpu"), 10L)), 10),
        new Admission.PodSetAssignment("two", new TreeMap<>(Map.of(ResourceName.CPU, "spot")),
            new TreeMap<>(Map.of(ResourceName.CPU, 40_000L)), 40)));
    out.add(UpstreamCase.of("scheduler", FILE, t + "assign multiple resources and flavors", check(List.of(
        wl("eng-beta", "new", "main", ps("one", 10, "cpu", "6", "example.com/gpu", "1"), ps("two", 40, "cpu", "1"))),
        new Want(Map.of("eng-beta/new", multi), Map.of(), Map.of()))));
    out.add(UpstreamCase.of("scheduler", FILE, t + "cannot borrow if cohort was assigned and would result in overadmission",
        check(List.of(wl("eng-alpha", "new", "main", ps("one", 45, "cpu", "1")),
            wl("eng-beta", "new", "main", ps("one", 56, "cpu", "1"))),
        new Want(Map.of("eng-alpha/new", admission("eng-alpha", "one", 45, "cpu", "on-demand", "45000")),
            Map.of("eng-beta/new", "WaitingForQuota: Workload no longer fits after processing another workload"),
            Map.of("eng-beta/new", "left eng-beta")))));
    out.add(UpstreamCase.of("scheduler", FILE, t + "can borrow if cohort was assigned and will not result in overadmission",
        check(List.of(wl("eng-alpha", "new", "main", ps("one", 45, "cpu", "1")),
            wl("eng-beta", "new", "main", ps("one", 55, "cpu", "1"))),
        new Want(Map.of("eng-alpha/new", admission("eng-alpha", "one", 45, "cpu", "on-demand", "45000"),
            "eng-beta/new", admission("eng-beta", "one", 55, "cpu", "on-demand", "55000")), Map.of(), Map.of()))));
    out.add(UpstreamCase.of("scheduler", FILE, t + "workload exceeds lending limit when borrow in cohort", check(List.of(
        wl("lend", "a", "", ps(PodSet.MAIN, 1, "cpu", "2")).admitted(admission("lend-b", PodSet.MAIN, 1, "cpu", "default",
            "2000"), NOW),
        wl("lend", "b", "lend-b-queue", ps(PodSet.MAIN, 1, "cpu", "3"))),
        new Want(Map.of(), Map.of(), Map.of("lend/b", "inadmissible lend-b")))));
    List<Cohort> rootChild = List.of(Cohort.named("root"), Cohort.named("child").withParent("root"));
    List<LocalQueue> lq = List.of(new LocalQueue("eng-alpha", "lq-lender", "cq-lender"),
        new LocalQueue("eng-alpha", "lq-borrower", "cq-borrower"));
    for (String[] c : new String[][] {{"3", "hierarchical cohort respects lending limit when borrowing", "4"},
        {"5", "hierarchical cohort allows borrowing up to lending limit", "5"}}) {
      List<ClusterQueue> extra = List.of(
          ClusterQueue.named("cq-lender", ResourceGroup.of(fq("on-demand", "cpu", "10", "", c[0]))).inCohort("child")
              .withNamespaceSelector(dep("eng")),
          ClusterQueue.named("cq-borrower", ResourceGroup.of(fq("on-demand", "cpu", "5", "10", ""))).inCohort("child")
              .withNamespaceSelector(dep("eng")));
      String name = c[2].equals("4") ? "wl-pending" : "wl-borrowing";
      List<Workload> wls = List.of(
          wl("eng-alpha", "wl-existing", "", ps("main", 1, "cpu", "5")).admitted(admission("cq-borrower", "main", 1, "cpu",
              "on-demand", "5000"), NOW),
          wl("eng-alpha", name, "lq-borrower", ps("main", 1, "cpu", c[2])));
      Want want = c[2].equals("4")
          ? new Want(Map.of(), Map.of(), Map.of("eng-alpha/wl-pending", "inadmissible cq-borrower"))
          : new Want(Map.of("eng-alpha/wl-borrowing", admission("cq-borrower", "main", 1, "cpu", "on-demand", "5000")),
              Map.of(), Map.of());
      out.add(UpstreamCase.of("scheduler", FILE, t + c[1], check(extra, rootChild, lq, wls, want)));
    }
    out.add(UpstreamCase.of("scheduler", FILE, t + "cannot borrow resource not listed in clusterQueue", check(List.of(
        wl("eng-alpha", "new", "main", ps(PodSet.MAIN, 1, "example.com/gpu", "1"))),
        new Want(Map.of(), Map.of("eng-alpha/new", "NoMatchingFlavor: couldn't assign flavors to pod set main: resource "
            + "example.com/gpu unavailable in ClusterQueue"), Map.of("eng-alpha/new", "left eng-alpha")))));
    out.add(UpstreamCase.of("scheduler", FILE, t + "workload should not fit in nonexistent clusterQueue", check(List.of(
        wl("sales", "foo", "cq-nonexistent-queue", ps(PodSet.MAIN, 1, "cpu", "1"))),
        new Want(Map.of(), Map.of(), Map.of("sales/foo", "not queued")))));
    out.add(UpstreamCase.of("scheduler", FILE, t + "workload should not fit in clusterQueue with nonexistent flavor",
        check(List.of(wl("sales", "foo", "flavor-nonexistent-queue", ps(PodSet.MAIN, 1, "cpu", "1"))),
        new Want(Map.of(), Map.of(), Map.of("sales/foo", "left flavor-nonexistent-cq")))));
    out.add(UpstreamCase.of("scheduler", FILE, t + "not enough resources", check(List.of(
        wl("sales", "new", "main", ps("one", 1, "cpu", "100"))),
        new Want(Map.of(), Map.of("sales/new", "ExceedsMaxQuota: couldn't assign flavors to pod set one: insufficient "
            + "quota for cpu in flavor default, previously considered podsets requests (0) + current podset request (100) "
            + "> maximum capacity (50)"), Map.of("sales/new", "left sales")))));
    // Three ClusterQueues in cohort "co", each 10 of r1 and r2 with borrowingLimit 10 (preemption settings not exercised).
    FlavorQuotas rg = new FlavorQuotas("default", List.of(ResourceQuota.of("r1", "10", "10", ""),
        ResourceQuota.of("r2", "10", "10", "")));
    List<ClusterQueue> co = List.of(ClusterQueue.named("cq1", ResourceGroup.of(rg)).inCohort("co"),
        ClusterQueue.named("cq2", ResourceGroup.of(rg)).inCohort("co"),
        ClusterQueue.named("cq3", ResourceGroup.of(rg)).inCohort("co"));
    List<LocalQueue> coLq = List.of(new LocalQueue("sales", "lq1", "cq1"), new LocalQueue("sales", "lq2", "cq2"),
        new LocalQueue("sales", "lq3", "cq3"));
    String[][] borrowCases = {
        {"two workloads can borrow different resources from the same flavor in the same cycle", "r2", "16", "yes"},
        {"two workloads can borrow the same resources from the same flavor in the same cycle if fits in the cohort quota",
            "r1", "14", "yes"},
        {"only one workload can borrow one resources from the same flavor in the same cycle if cohort quota cannot fit",
            "r1", "16", "no"}};
    for (String[] c : borrowCases) {
      List<Workload> wls = List.of(wl("sales", "wl1", "lq1", ps(PodSet.MAIN, 1, "r1", "16")).withPriority(-1),
          wl("sales", "wl2", "lq2", ps(PodSet.MAIN, 1, c[1], c[2])).withPriority(-2));
      Map<String, Admission> admitted = new TreeMap<>(Map.of("sales/wl1", admission("cq1", PodSet.MAIN, 1, "r1",
          "default", "16")));
      if (c[3].equals("yes")) {
        admitted.put("sales/wl2", admission("cq2", PodSet.MAIN, 1, c[1], "default", c[2]));
      }
      out.add(UpstreamCase.of("scheduler", FILE, t + c[0], check(co, List.of(), coLq, wls, new Want(admitted, Map.of(),
          c[3].equals("yes") ? Map.of() : Map.of("sales/wl2", "left cq2")))));
    }
    out.add(UpstreamCase.of("scheduler", FILE, t + "in a hierarchical cohort, workload borrowing less is scheduled first",
        check(List.of(ClusterQueue.named("guaranteed", ResourceGroup.of(fq("default", "cpu", "0", "", "")))
                .inCohort("guaranteed"),
            ClusterQueue.named("best-effort", ResourceGroup.of(fq("default", "cpu", "0", "", ""))).inCohort("root")),
        List.of(Cohort.named("root"), Cohort.named("guaranteed", ResourceGroup.of(fq("default", "cpu", "4", "", "")))
            .withParent("root")),
        List.of(new LocalQueue("eng-alpha", "lq-guaranteed", "guaranteed"),
            new LocalQueue("eng-alpha", "lq-best-effort", "best-effort")),
        List.of(wl("eng-alpha", "guaranteed", "lq-guaranteed", ps("one", 1, "cpu", "4")),
            wl("eng-alpha", "best-effort", "lq-best-effort", ps("one", 1, "cpu", "4")).withPriority(3)),
        new Want(Map.of("eng-alpha/guaranteed", admission("guaranteed", "one", 1, "cpu", "default", "4000")), Map.of(),
            Map.of("eng-alpha/best-effort", "left best-effort")))));
    // The flavor tables of the first entries: a tainted flavor the workload does not tolerate next to one short of quota.
    for (String[] c : new String[][] {
        {"flavors with mixed misconfiguration and insufficient quota", "on-demand", "15", "WaitingForQuota: couldn't assign "
            + "flavors to pod set main: insufficient unused quota for cpu in flavor on-demand, 5 more needed, untolerated "
            + "taint {key val NoSchedule <nil>} in flavor spot-tainted"},
        {"flavors with mixed taint mismatch and exceeding limits", "on-demand", "5", "ExceedsMaxQuota: couldn't assign "
            + "flavors to pod set main: insufficient quota for cpu in flavor on-demand, previously considered podsets "
            + "requests (0) + current podset request (10) > maximum capacity (5), untolerated taint {key val NoSchedule "
            + "<nil>} in flavor spot-tainted"},
        {"flavors are structurally incompatible", "spot-tainted-2", "5", "NoMatchingFlavor: couldn't assign flavors to pod "
            + "set main: untolerated taint {key val NoSchedule <nil>} in flavor spot-tainted, untolerated taint {key val2 "
            + "NoSchedule <nil>} in flavor spot-tainted-2"}}) {
      ClusterQueue custom = ClusterQueue.named("custom-cq", ResourceGroup.of(fq("spot-tainted", "cpu", "20", "20", ""),
          fq(c[1], "cpu", c[2], c[2], ""))).withStrategy(QueueingStrategy.STRICT_FIFO);
      List<Workload> wls = new ArrayList<>();
      if (c[0].startsWith("flavors with mixed misconfiguration")) {
        wls.add(wl("sales", "existing-on-demand-job", "custom-q", ps(PodSet.MAIN, 1, "cpu", "10"))
            .admitted(admission("custom-cq", PodSet.MAIN, 1, "cpu", "on-demand", "10000"), NOW));
      }
      String request = c[0].startsWith("flavors are structurally") ? "1" : "10";
      wls.add(wl("sales", "new-job", "custom-q", ps(PodSet.MAIN, 1, "cpu", request)));
      out.add(UpstreamCase.of("scheduler", FILE, t + c[0], check(List.of(custom), List.of(),
          List.of(new LocalQueue("sales", "custom-q", "custom-cq")), wls,
          new Want(Map.of(), Map.of("sales/new-job", c[3]), Map.of("sales/new-job", "left custom-cq")))));
    }
    PreemptionPolicy lowerInCq = new PreemptionPolicy(PreemptionPolicy.Policy.NEVER, PreemptionPolicy.Policy.NEVER,
        PreemptionPolicy.Policy.LOWER_PRIORITY);
    out.add(UpstreamCase.of("scheduler", FILE,
        t + "use second flavor when the first has no preemption candidates; WhenCanPreempt: MayStopSearch", check(
        List.of(ClusterQueue.named("other-alpha", ResourceGroup.of(fq("on-demand", "cpu", "50", "50", ""),
            fq("spot", "cpu", "100", "0", ""))).withPreemption(lowerInCq).withFungibility(new FlavorFungibility(
                FlavorFungibility.Policy.MAY_STOP_SEARCH, FlavorFungibility.Policy.MAY_STOP_SEARCH, Optional.empty()))),
        List.of(), List.of(new LocalQueue("eng-alpha", "other", "other-alpha")),
        List.of(wl("eng-alpha", "admitted", "other", ps(PodSet.MAIN, 1, "cpu", "50"))
                .admitted(admission("other-alpha", PodSet.MAIN, 1, "cpu", "on-demand", "50000"), NOW),
            wl("eng-alpha", "new", "other", ps(PodSet.MAIN, 1, "cpu", "20"))),
        new Want(Map.of("eng-alpha/new", admission("other-alpha", PodSet.MAIN, 1, "cpu", "spot", "20000")), Map.of(),
            Map.of()))));
    out.add(UpstreamCase.of("scheduler", FILE, t + "multiple preemptions without borrowing", check(
        List.of(ClusterQueue.named("other-alpha", ResourceGroup.of(fq("default", "cpu", "2", "", ""))).inCohort("other")
                .withPreemption(lowerInCq),
            ClusterQueue.named("other-beta", ResourceGroup.of(fq("default", "cpu", "2", "", ""))).inCohort("other")
                .withPreemption(lowerInCq)),
        List.of(), List.of(new LocalQueue("eng-alpha", "other", "other-alpha"), new LocalQueue("eng-beta", "other",
            "other-beta")),
        List.of(wl("eng-alpha", "a1", "other", ps(PodSet.MAIN, 1, "cpu", "2"))
                .admitted(admission("other-alpha", PodSet.MAIN, 1, "cpu", "default", "2000"), NOW),
            wl("eng-beta", "b1", "other", ps(PodSet.MAIN, 1, "cpu", "2"))
                .admitted(admission("other-beta", PodSet.MAIN, 1, "cpu", "default", "2000"), NOW),
            wl("eng-alpha", "preemptor", "other", ps(PodSet.MAIN, 1, "cpu", "2")).withPriority(100),
            wl("eng-beta", "preemptor", "other", ps(PodSet.MAIN, 1, "cpu", "2")).withPriority(100)),
        new Want(Map.of(), Map.of("eng-alpha/preemptor", "WaitingForPreemptedWorkloads: couldn't assign flavors to pod "
            + "set main: insufficient unused quota for cpu in flavor default, 2 more needed. Pending the preemption of 1 "
            + "workload(s)"), Map.of("eng-alpha/preemptor", "preempting eng-alpha/a1", "eng-beta/preemptor",
                "preempting eng-beta/b1")))));
    for (String[] c : new String[][] {{"Any", "capacity not blocked when lending clusterqueue can reclaim "
        + "(ReclaimWithinCohort=Any)"}, {"LowerPriority", "capacity blocked when lending clusterqueue not guaranteed to "
        + "reclaim (ReclaimWithinCohort=LowerPriority)"}, {"Never", "capacity blocked when lending clusterqueue not "
        + "guaranteed to reclaim (ReclaimWithinCohort=Never)"}}) {
      PreemptionPolicy.Policy reclaim = switch (c[0]) {
        case "Any" -> PreemptionPolicy.Policy.ANY;
        case "LowerPriority" -> PreemptionPolicy.Policy.LOWER_PRIORITY;
        default -> PreemptionPolicy.Policy.NEVER;
      };
      List<ClusterQueue> cqs = List.of(ClusterQueue.named("ClusterQueueA", ResourceGroup.of(fq("on-demand", "gpu", "2", "",
              ""))).inCohort("root").withPreemption(new PreemptionPolicy(reclaim, PreemptionPolicy.Policy.NEVER,
              PreemptionPolicy.Policy.NEVER)),
          ClusterQueue.named("ClusterQueueB", ResourceGroup.of(fq("on-demand", "gpu", "0", "", ""))).inCohort("root"));
      List<Workload> wls = List.of(wl("eng-alpha", "a1-admitted", "lq", ps(PodSet.MAIN, 1, "gpu", "1"))
              .admitted(admission("ClusterQueueA", PodSet.MAIN, 1, "gpu", "on-demand", "1"), NOW),
          wl("eng-alpha", "a2-pending", "lq", ps(PodSet.MAIN, 1, "gpu", "2")),
          wl("eng-beta", "b1-pending", "lq", ps(PodSet.MAIN, 1, "gpu", "1")));
      boolean blocked = !c[0].equals("Any");
      out.add(UpstreamCase.of("scheduler", FILE, t + c[1], check(cqs, List.of(), List.of(new LocalQueue("eng-alpha", "lq",
          "ClusterQueueA"), new LocalQueue("eng-beta", "lq", "ClusterQueueB")), wls,
          new Want(blocked ? Map.of() : Map.of("eng-beta/b1-pending", admission("ClusterQueueB", PodSet.MAIN, 1, "gpu",
              "on-demand", "1")), Map.of(), blocked
              ? Map.of("eng-alpha/a2-pending", "inadmissible ClusterQueueA", "eng-beta/b1-pending", "left ClusterQueueB")
              : Map.of("eng-alpha/a2-pending", "inadmissible ClusterQueueA")))));
    }
    out.add(UpstreamCase.of("scheduler", FILE, t + "don't assign flavor if there are no candidates for preemption", check(
        List.of(ClusterQueue.named("cq1", ResourceGroup.of(fq("on-demand", "cpu", "0", "1", ""), fq("spot", "cpu", "0", "1",
                ""))).inCohort("cohort").withPreemption(new PreemptionPolicy(PreemptionPolicy.Policy.ANY,
                PreemptionPolicy.Policy.LOWER_PRIORITY, PreemptionPolicy.Policy.LOWER_PRIORITY))
                .withFungibility(new FlavorFungibility(FlavorFungibility.Policy.MAY_STOP_SEARCH,
                    FlavorFungibility.Policy.MAY_STOP_SEARCH, Optional.empty())),
            ClusterQueue.named("cq2", ResourceGroup.of(fq("on-demand", "cpu", "1", "", ""), fq("spot", "cpu", "1", "", "")))
                .inCohort("cohort")),
        List.of(), List.of(new LocalQueue("eng-alpha", "lq1", "cq1"), new LocalQueue("eng-alpha", "lq2", "cq2")),
        List.of(wl("eng-alpha", "admitted", "lq2", ps(PodSet.MAIN, 1, "cpu", "1"))
                .admitted(admission("cq2", PodSet.MAIN, 1, "cpu", "on-demand", "1000"), NOW.minusSeconds(1)),
            wl("eng-alpha", "new", "lq1", ps(PodSet.MAIN, 1, "cpu", "1")).withPriority(100)),
        new Want(Map.of("eng-alpha/new", admission("cq1", PodSet.MAIN, 1, "cpu", "spot", "1000")), Map.of(), Map.of()))));
    out.add(UpstreamCase.of("scheduler", FILE,
        t + "admit to second flavor when first needs preemption; WhenCanPreempt: TryNextFlavor", check(
        List.of(ClusterQueue.named("preempt-attempts-cq", ResourceGroup.of(fq("on-demand", "cpu", "1", "", ""),
            fq("spot", "cpu", "1", "", ""))).withPreemption(lowerInCq)),
        List.of(), List.of(new LocalQueue("eng-alpha", "preempt-attempts-lq", "preempt-attempts-cq")),
        List.of(wl("eng-alpha", "blocker", "preempt-attempts-lq", ps(PodSet.MAIN, 1, "cpu", "1")).withPriority(50)
                .admitted(admission("preempt-attempts-cq", PodSet.MAIN, 1, "cpu", "on-demand", "1000"), NOW),
            wl("eng-alpha", "test-wl", "preempt-attempts-lq", ps(PodSet.MAIN, 1, "cpu", "1")).withPriority(100)),
        new Want(Map.of("eng-alpha/test-wl", admission("preempt-attempts-cq", PodSet.MAIN, 1, "cpu", "spot", "1000")),
            Map.of(), Map.of()))));
    ClusterQueue overflow = ClusterQueue.named("overflow-cq", ResourceGroup.of(fq("default", "cpu", "10000", "", "")));
    out.add(UpstreamCase.of("scheduler", FILE,
        t + "prevent integer overflow when sum of requests over podsets exceeds MaxInt64", check(List.of(overflow),
        List.of(), List.of(new LocalQueue("default", "overflow-queue", "overflow-cq")),
        List.of(wl("default", "vuln-wl", "overflow-queue", ps("ps1", 1, "cpu", "1000000m"),
            ps("ps2", 1, "cpu", "9223372036854775000m"))),
        new Want(Map.of(), Map.of("default/vuln-wl", "ExceedsMaxQuota: couldn't assign flavors to pod set ps2: "
            + "insufficient quota for cpu in flavor default, previously considered podsets requests (1k) + current "
            + "podset request (9223372036854775) > maximum capacity (10k)"),
            Map.of("default/vuln-wl", "inadmissible overflow-cq")))));
    out.add(UpstreamCase.of("scheduler", FILE, t + "prevent integer overflow in ResourceValue conversion to MilliValue",
        check(List.of(ClusterQueue.named("overflow-cq", ResourceGroup.of(fq("default", "cpu", "10", "", "")))), List.of(),
        List.of(new LocalQueue("default", "overflow-queue", "overflow-cq")),
        List.of(wl("default", "vuln-wl", "overflow-queue", ps("ps1", 1, "cpu", "9223372036854776"))),
        new Want(Map.of(), Map.of("default/vuln-wl", "ExceedsMaxQuota: couldn't assign flavors to pod set ps1: "
            + "insufficient quota for cpu in flavor default, previously considered podsets requests (0) + current "
            + "podset request (9223372036854775807m) > maximum capacity (10)"),
            Map.of("default/vuln-wl", "inadmissible overflow-cq")))));
    // The preemptor reclaims from eng-alpha's borrower and preempts low-2 in its own queue; upstream's messages
    // carry the preemptor's UID and JobUID, which the twin does not have (it writes UNKNOWN, as upstream does
    // for a missing one), so the messages are compared from "due to" on.
    Runnable preemptInQueueAndCohort = check(List.of(), List.of(), List.of(), List.of(
        wl("eng-beta", "preemptor", "main", ps(PodSet.MAIN, 1, "cpu", "20")),
        wl("eng-alpha", "use-all-spot", "", ps(PodSet.MAIN, 1, "cpu", "100"))
            .admitted(admission("eng-alpha", PodSet.MAIN, 1, "cpu", "spot", "100000"), NOW),
        wl("eng-beta", "low-1", "", ps(PodSet.MAIN, 1, "cpu", "30")).withPriority(-1)
            .admitted(admission("eng-beta", PodSet.MAIN, 1, "cpu", "on-demand", "30000"), NOW),
        wl("eng-beta", "low-2", "", ps(PodSet.MAIN, 1, "cpu", "10")).withPriority(-2)
            .admitted(admission("eng-beta", PodSet.MAIN, 1, "cpu", "on-demand", "10000"), NOW),
        wl("eng-alpha", "borrower", "", ps(PodSet.MAIN, 1, "cpu", "60"))
            .admitted(admission("eng-alpha", PodSet.MAIN, 1, "cpu", "on-demand", "60000"), NOW)),
        new Want(Map.of(), Map.of("eng-beta/preemptor", "WaitingForPreemptedWorkloads: couldn't assign flavors to pod "
            + "set main: insufficient unused quota for cpu in flavor on-demand, 20 more needed, insufficient unused "
            + "quota for cpu in flavor spot, 20 more needed. Pending the preemption of 2 workload(s)"),
            Map.of("eng-beta/preemptor", "preempting eng-alpha/borrower,eng-beta/low-2")));
    out.add(UpstreamCase.of("scheduler", FILE, t + "preempt workloads in ClusterQueue and cohort", () -> {
      preemptInQueueAndCohort.run();
      List<ClusterQueue> cqs = new ArrayList<>(QUEUES);
      KueueState state = new KueueState(FLAVORS, cqs, List.of(), LOCAL_QUEUES, List.of(
          wl("eng-beta", "preemptor", "main", ps(PodSet.MAIN, 1, "cpu", "20")),
          wl("eng-beta", "low-2", "", ps(PodSet.MAIN, 1, "cpu", "10")).withPriority(-2)
              .admitted(admission("eng-beta", PodSet.MAIN, 1, "cpu", "on-demand", "10000"), NOW),
          wl("eng-beta", "low-1", "", ps(PodSet.MAIN, 1, "cpu", "30")).withPriority(-1)
              .admitted(admission("eng-beta", PodSet.MAIN, 1, "cpu", "on-demand", "30000"), NOW),
          wl("eng-alpha", "borrower", "", ps(PodSet.MAIN, 1, "cpu", "60"))
              .admitted(admission("eng-alpha", PodSet.MAIN, 1, "cpu", "on-demand", "60000"), NOW),
          wl("eng-alpha", "use-all-spot", "", ps(PodSet.MAIN, 1, "cpu", "100"))
              .admitted(admission("eng-alpha", PodSet.MAIN, 1, "cpu", "spot", "100000"), NOW)));
      Decision.Preempting p = (Decision.Preempting) Scheduler.cycle(state, NOW).get(0);
      Map<String, String> got = new TreeMap<>();
      p.targets().forEach(e -> got.put(e.workload(), e.reason() + ": "
          + e.message().substring(e.message().indexOf(" due to "))));
      assertThat(got).isEqualTo(Map.of(
          "eng-alpha/borrower", "InCohortReclamation:  due to reclamation within the cohort; preemptor path: "
              + "/eng/eng-beta; preemptee path: /eng/eng-alpha",
          "eng-beta/low-2", "InClusterQueue:  due to prioritization in the ClusterQueue; preemptor path: "
              + "/eng/eng-beta; preemptee path: /eng/eng-beta"));
    }));
    return out;
  }
}
