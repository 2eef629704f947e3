package io.gpufleet.queue.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.affinity.NodeAffinity;
import io.gpufleet.model.affinity.NodeSelectorTerm;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.label.SelectorOperator;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.queue.admission.Assignment;
import io.gpufleet.queue.admission.FlavorAssigner;
import io.gpufleet.queue.admission.FlavorAssignmentMode;
import io.gpufleet.queue.admission.PodSetAssignment;
import io.gpufleet.queue.admission.PreemptionOracle;
import io.gpufleet.queue.api.PreemptionPolicy;
import io.gpufleet.queue.api.ClusterQueue;
import io.gpufleet.queue.api.FlavorFungibility;
import io.gpufleet.queue.api.FlavorQuotas;
import io.gpufleet.queue.api.PodSet;
import io.gpufleet.queue.api.ResourceFlavor;
import io.gpufleet.queue.api.ResourceGroup;
import io.gpufleet.queue.api.ResourceQuota;
import io.gpufleet.queue.api.Workload;
import io.gpufleet.queue.quota.FlavorResource;
import io.gpufleet.queue.quota.QuotaTree;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@code pkg/scheduler/flavorassigner/flavorassigner_test.go} TestAssignFlavors: the representative
 * mode, each pod set's flavor per resource and mode, its status message, the usage charged, the
 * borrowing height and (the UnadmittedWorkloadsObservability gate on, its default) the NoFit
 * reason. The test's oracle answers Preempt with no borrowing unless a case says otherwise, as here.
 */
final class FlavorAssignerCases {

  private static final String FILE = "pkg/scheduler/flavorassigner/flavorassigner_test.go";
  private static final long MI = 1024L * 1024;
  private static final long GI = 1024L * MI;

  /** The test's resourceFlavors. */
  static final Map<String, ResourceFlavor> FLAVORS = flavors();

  private FlavorAssignerCases() {}

  private static Map<String, ResourceFlavor> flavors() {
    Taint spot = Taint.of("instance", "spot", TaintEffect.NO_SCHEDULE);
    Map<String, ResourceFlavor> m = new LinkedHashMap<>();
    for (ResourceFlavor f : List.of(ResourceFlavor.named("default"),
        ResourceFlavor.named("one").withNodeLabels(Labels.of("type", "one")),
        ResourceFlavor.named("two").withNodeLabels(Labels.of("type", "two")),
        ResourceFlavor.named("b_one").withNodeLabels(Labels.of("b_type", "one")),
        ResourceFlavor.named("b_two").withNodeLabels(Labels.of("b_type", "two")),
        ResourceFlavor.named("tainted").withTaints(List.of(spot)),
        ResourceFlavor.named("taint_and_toleration").withTaints(List.of(spot))
            .withTolerations(List.of(Toleration.equal("instance", "spot", TaintEffect.NO_SCHEDULE))),
        ResourceFlavor.named("label-x-a").withNodeLabels(Labels.of("x", "a")),
        ResourceFlavor.named("label-xy-b").withNodeLabels(Labels.of("x", "b", "y", "k")))) {
      m.put(f.name(), f);
    }
    return m;
  }

  /** What a case expects of one pod set: resource to "flavor/Mode", and the status message. */
  record WantPodSet(String name, Map<String, String> flavors, String status) {}

  record Want(FlavorAssignmentMode mode, List<WantPodSet> podSets, Map<FlavorResource, Long> usage, int borrowing,
      String noFitReason) {}

  private static WantPodSet ps(String name, String status, String... resourceFlavorModes) {
    Map<String, String> m = new TreeMap<>();
    for (int i = 0; i < resourceFlavorModes.length; i += 2) {
      m.put(resourceFlavorModes[i], resourceFlavorModes[i + 1]);
    }
    return new WantPodSet(name, m, status);
  }

  private static Map<FlavorResource, Long> usage(Object... flavorResourceAmount) {
    Map<FlavorResource, Long> m = new TreeMap<>();
    for (int i = 0; i < flavorResourceAmount.length; i += 3) {
      m.put(FlavorResource.of((String) flavorResourceAmount[i], (String) flavorResourceAmount[i + 1]),
          ((Number) flavorResourceAmount[i + 2]).longValue());
    }
    return m;
  }

  /** A case: the ClusterQueue under test (with its usage) and an optional second one in its cohort. */
  private static Runnable check(List<PodSet> pods, ClusterQueue cq, Map<FlavorResource, Long> cqUsage,
      ClusterQueue secondary, Map<FlavorResource, Long> secondaryUsage, PreemptionOracle oracle, Want want) {
    return check(pods, cq, cqUsage, secondary, secondaryUsage, oracle, false, want);
  }

  /** As above, with the test's {@code enableFairSharing}. */
  private static Runnable check(List<PodSet> pods, ClusterQueue cq, Map<FlavorResource, Long> cqUsage,
      ClusterQueue secondary, Map<FlavorResource, Long> secondaryUsage, PreemptionOracle oracle, boolean fairSharing,
      Want want) {
    return () -> {
      List<ClusterQueue> cqs = new ArrayList<>(List.of(cq));
      if (secondary != null) {
        cqs.add(secondary);
      }
      QuotaTree tree = QuotaTree.of(cqs, List.of());
      tree.addUsage(cq.name(), cqUsage);
      if (secondary != null) {
        tree.addUsage(secondary.name(), secondaryUsage);
      }
      Workload wl = new Workload("default", "wl", "q", pods, 0, Instant.EPOCH, Labels.EMPTY);
      Assignment a = new FlavorAssigner(cq, tree, FLAVORS, oracle, fairSharing).assign(wl);
      assertThat(a.representativeMode()).as("representative mode").isEqualTo(want.mode);
      List<WantPodSet> got = new ArrayList<>();
      for (PodSetAssignment p : a.podSets()) {
        Map<String, String> m = new TreeMap<>();
        p.flavors().forEach((r, f) -> m.put(r.toString(), f.flavor() + "/" + f.mode()));
        got.add(new WantPodSet(p.name(), m, p.statusMessage()));
      }
      assertThat(got).as("pod set assignments").isEqualTo(want.podSets);
      assertThat(a.usage()).as("usage").isEqualTo(want.usage);
      assertThat(a.borrowing()).as("borrowing").isEqualTo(want.borrowing);
      assertThat(a.noFitReason()).as("NoFitReason").isEqualTo(want.noFitReason);
    };
  }

  /** The test's default oracle: Preempt, no borrowing after. */
  static final PreemptionOracle PREEMPT = (t, cq, wl, fr, q) ->
      new PreemptionOracle.Simulation(PreemptionOracle.Possibility.PREEMPT, 0);

  private static Runnable check(List<PodSet> pods, ClusterQueue cq, Want want) {
    return check(pods, cq, Map.of(), null, Map.of(), PREEMPT, want);
  }

  private static PodSet main(String... requests) {
    return PodSet.of(PodSet.MAIN, 1, ResourceList.of(requests));
  }

  private static ClusterQueue cq(FlavorQuotas... f) {
    return ClusterQueue.named("test-clusterqueue", ResourceGroup.of(f));
  }

  private static FlavorQuotas fq(String flavor, String... resourceNominal) {
    List<ResourceQuota> qs = new ArrayList<>();
    for (int i = 0; i < resourceNominal.length; i += 2) {
      qs.add(ResourceQuota.of(resourceNominal[i], resourceNominal[i + 1]));
    }
    return new FlavorQuotas(flavor, qs);
  }

  private static Requirement in(String key, String... values) {
    return new Requirement(key, SelectorOperator.IN, List.of(values));
  }

  static List<UpstreamCase> all() {
    List<UpstreamCase> out = new ArrayList<>();
    String t = "TestAssignFlavors: ";
    FlavorAssignmentMode fit = FlavorAssignmentMode.FIT;
    FlavorAssignmentMode noFit = FlavorAssignmentMode.NO_FIT;
    FlavorAssignmentMode preempt = FlavorAssignmentMode.PREEMPT;
    out.add(UpstreamCase.of("flavor assignment", FILE, t + "single flavor, fits", check(
        List.of(main("cpu", "1", "memory", "1Mi")), cq(fq("default", "cpu", "1", "memory", "2Mi")),
        new Want(fit, List.of(ps("main", "", "cpu", "default/Fit", "memory", "default/Fit")),
            usage("default", "cpu", 1000, "default", "memory", MI), 0, ""))));
    out.add(UpstreamCase.of("flavor assignment", FILE, t + "single flavor, fits tainted flavor", check(
        List.of(main("cpu", "1").withTemplate(PodSpec.of().withTolerations(
            List.of(Toleration.equal("instance", "spot", TaintEffect.NO_SCHEDULE))))),
        cq(fq("tainted", "cpu", "4")),
        new Want(fit, List.of(ps("main", "", "cpu", "tainted/Fit")), usage("tainted", "cpu", 1000), 0, ""))));
    out.add(UpstreamCase.of("flavor assignment", FILE, t + "single flavor, fits tainted flavor with toleration", check(
        List.of(main("cpu", "1")), cq(fq("taint_and_toleration", "cpu", "4")),
        new Want(fit, List.of(ps("main", "", "cpu", "taint_and_toleration/Fit")),
            usage("taint_and_toleration", "cpu", 1000), 0, ""))));
    out.add(UpstreamCase.of("flavor assignment", FILE, t + "single flavor, used resources, doesn't fit", check(
        List.of(main("cpu", "2")), cq(fq("default", "cpu", "4")), usage("default", "cpu", 3000), null, Map.of(),
        PREEMPT, new Want(preempt, List.of(ps("main", "insufficient unused quota for cpu in flavor default, 1 more needed",
            "cpu", "default/Preempt")), usage("default", "cpu", 2000), 0, ""))));
    out.add(UpstreamCase.of("flavor assignment", FILE, t + "multiple resource groups, fits", check(
        List.of(main("cpu", "3", "memory", "10Mi")),
        ClusterQueue.named("test-clusterqueue", ResourceGroup.of(fq("one", "cpu", "2"), fq("two", "cpu", "4")),
            ResourceGroup.of(fq("b_one", "memory", "1Gi"), fq("b_two", "memory", "5Gi"))),
        new Want(fit, List.of(ps("main", "", "cpu", "two/Fit", "memory", "b_one/Fit")),
            usage("two", "cpu", 3000, "b_one", "memory", 10 * MI), 0, ""))));
    out.add(UpstreamCase.of("flavor assignment", FILE,
        t + "multiple resource groups, one could fit with preemption, other doesn't fit", check(
        List.of(main("cpu", "3", "memory", "10Mi")),
        ClusterQueue.named("test-clusterqueue", ResourceGroup.of(fq("one", "cpu", "3")),
            ResourceGroup.of(fq("b_one", "memory", "1Mi"))), usage("one", "cpu", 1000), null, Map.of(), PREEMPT,
        new Want(noFit, List.of(ps("main", "insufficient quota for memory in flavor b_one, previously considered podsets "
            + "requests (0) + current podset request (10Mi) > maximum capacity (1Mi)")), Map.of(), 0,
            "ExceedsMaxQuota"))));
    out.add(UpstreamCase.of("flavor assignment", FILE, t + "multiple resource groups with multiple resources, fits",
        check(List.of(main("cpu", "3", "memory", "10Mi", "example.com/gpu", "3")),
        ClusterQueue.named("test-clusterqueue",
            ResourceGroup.of(fq("one", "cpu", "2", "memory", "1Gi"), fq("two", "cpu", "4", "memory", "15Mi")),
            ResourceGroup.of(fq("b_one", "example.com/gpu", "4"), fq("b_two", "example.com/gpu", "2"))),
        new Want(fit, List.of(ps("main", "", "cpu", "two/Fit", "example.com/gpu", "b_one/Fit", "memory", "two/Fit")),
            usage("two", "cpu", 3000, "two", "memory", 10 * MI, "b_one", "example.com/gpu", 3), 0, ""))));
    out.add(UpstreamCase.of("flavor assignment", FILE, t + "multiple resources in a group, doesn't fit", check(
        List.of(main("cpu", "3", "memory", "10Mi")),
        cq(fq("one", "cpu", "2", "memory", "1Gi"), fq("two", "cpu", "4", "memory", "5Mi")),
        new Want(noFit, List.of(ps("main", "insufficient quota for cpu in flavor one, previously considered podsets "
            + "requests (0) + current podset request (3) > maximum capacity (2), insufficient quota for memory in flavor "
            + "two, previously considered podsets requests (0) + current podset request (10Mi) > maximum capacity (5Mi)")),
            Map.of(), 0, "ExceedsMaxQuota"))));
    out.add(UpstreamCase.of("flavor assignment", FILE, t + "multiple flavors, fits while skipping tainted flavor", check(
        List.of(main("cpu", "3")), cq(fq("tainted", "cpu", "4"), fq("two", "cpu", "4")),
        new Want(fit, List.of(ps("main", "", "cpu", "two/Fit")), usage("two", "cpu", 3000), 0, ""))));
    out.add(UpstreamCase.of("flavor assignment", FILE, t + "multiple flavors, fits a node selector", check(
        List.of(main("cpu", "1").withTemplate(PodSpec.of().withNodeSelector(Labels.of("type", "two", "ignored1", "foo"))
            .withNodeAffinity(NodeAffinity.requiring(NodeSelectorTerm.of(in("ignored2", "bar")))))),
        cq(fq("one", "cpu", "4"), fq("two", "cpu", "4")),
        new Want(fit, List.of(ps("main", "", "cpu", "two/Fit")), usage("two", "cpu", 1000), 0, ""))));
    out.add(UpstreamCase.of("flavor assignment", FILE, t + "multiple flavors, fits with node affinity", check(
        List.of(main("cpu", "1", "memory", "1Mi").withTemplate(PodSpec.of().withNodeSelector(Labels.of("ignored1", "foo"))
            .withNodeAffinity(NodeAffinity.requiring(NodeSelectorTerm.of(in("type", "two")))))),
        cq(fq("one", "cpu", "4", "memory", "1Gi"), fq("two", "cpu", "4", "memory", "1Gi")),
        new Want(fit, List.of(ps("main", "", "cpu", "two/Fit", "memory", "two/Fit")),
            usage("two", "cpu", 1000, "two", "memory", MI), 0, ""))));
    out.add(UpstreamCase.of("flavor assignment", FILE, t + "multiple flavors, node affinity fits any flavor", check(
        List.of(main("cpu", "1").withTemplate(PodSpec.of().withNodeAffinity(NodeAffinity.requiring(
            NodeSelectorTerm.of(in("ignored2", "bar")), NodeSelectorTerm.of(in("cpuType", "two")))))),
        cq(fq("one", "cpu", "4"), fq("two", "cpu", "4")),
        new Want(fit, List.of(ps("main", "", "cpu", "one/Fit")), usage("one", "cpu", 1000), 0, ""))));
    out.add(UpstreamCase.of("flavor assignment", FILE,
        t + "multiple flavors with different label keys, selector only uses flavor's own keys", check(
        List.of(main("cpu", "1").withTemplate(PodSpec.of().withNodeSelector(Labels.of("x", "a", "y", "g")))),
        cq(fq("label-x-a", "cpu", "4"), fq("label-xy-b", "cpu", "4")),
        new Want(fit, List.of(ps("main", "", "cpu", "label-x-a/Fit")), usage("label-x-a", "cpu", 1000), 0, ""))));
    out.add(UpstreamCase.of("flavor assignment", FILE,
        t + "labelless flavor in group with labeled flavor, workload uses labeled selector", check(
        List.of(main("cpu", "1").withTemplate(PodSpec.of().withNodeSelector(Labels.of("type", "two")))),
        cq(fq("default", "cpu", "4"), fq("two", "cpu", "4")),
        new Want(fit, List.of(ps("main", "", "cpu", "default/Fit")), usage("default", "cpu", 1000), 0, ""))));
    out.add(UpstreamCase.of("flavor assignment", FILE, t + "multiple flavors, doesn't fit node affinity", check(
        List.of(main("cpu", "1").withTemplate(PodSpec.of().withNodeAffinity(
            NodeAffinity.requiring(NodeSelectorTerm.of(in("type", "three")))))),
        cq(fq("one", "cpu", "4"), fq("two", "cpu", "4")),
        new Want(noFit, List.of(ps("main", "flavor one doesn't match node affinity, flavor two doesn't match node affinity")),
            Map.of(), 0, "NoMatchingFlavor"))));
    out.add(UpstreamCase.of("flavor assignment", FILE, t + "multiple specs, fit different flavors", check(
        List.of(PodSet.of("driver", 1, ResourceList.of("cpu", "5")), PodSet.of("worker", 1, ResourceList.of("cpu", "3"))),
        cq(fq("one", "cpu", "4"), fq("two", "cpu", "10")),
        new Want(fit, List.of(ps("driver", "", "cpu", "two/Fit"), ps("worker", "", "cpu", "one/Fit")),
            usage("one", "cpu", 3000, "two", "cpu", 5000), 0, ""))));
    ClusterQueue borrowing = ClusterQueue.named("test-clusterqueue", ResourceGroup.of(new FlavorQuotas("default",
        List.of(ResourceQuota.of("cpu", "2", "98", ""), ResourceQuota.of("memory", "2Gi"))))).inCohort("test-cohort");
    ClusterQueue secondaryBig = ClusterQueue.named("test-secondary-clusterqueue",
        ResourceGroup.of(fq("default", "cpu", "198", "memory", "198Gi"))).inCohort("test-cohort");
    out.add(UpstreamCase.of("flavor assignment", FILE, t + "multiple specs, fits borrowing", check(
        List.of(PodSet.of("driver", 1, ResourceList.of("cpu", "4", "memory", "1Gi")),
            PodSet.of("worker", 1, ResourceList.of("cpu", "6", "memory", "4Gi"))),
        borrowing, Map.of(), secondaryBig, Map.of(), PREEMPT,
        new Want(fit, List.of(ps("driver", "", "cpu", "default/Fit", "memory", "default/Fit"),
            ps("worker", "", "cpu", "default/Fit", "memory", "default/Fit")),
            usage("default", "cpu", 10_000, "default", "memory", 5 * GI), 1, ""))));
    ClusterQueue lender = ClusterQueue.named("test-secondary-clusterqueue",
        ResourceGroup.of(new FlavorQuotas("one", List.of(ResourceQuota.of("cpu", "10", "", "0"))))).inCohort("test-cohort");
    out.add(UpstreamCase.of("flavor assignment", FILE, t + "not enough space to borrow", check(
        List.of(main("cpu", "2")), cq(fq("one", "cpu", "1")), Map.of(), lender, usage("one", "cpu", 9000), PREEMPT,
        new Want(noFit, List.of(ps("main", "insufficient quota for cpu in flavor one, previously considered podsets "
            + "requests (0) + current podset request (2) > maximum capacity (1)")), Map.of(), 0, "ExceedsMaxQuota"))));
    out.add(UpstreamCase.of("flavor assignment", FILE, t + "zero resource request not in clusterQueue should succeed",
        check(List.of(main("cpu", "1", "example.com/gpu", "0")), cq(fq("default", "cpu", "4")),
        new Want(fit, List.of(ps("main", "", "cpu", "default/Fit")), usage("default", "cpu", 1000), 0, ""))));
    out.add(UpstreamCase.of("flavor assignment", FILE,
        t + "zero resource request defined in clusterQueue should get flavor assigned",
        check(List.of(main("cpu", "1", "example.com/gpu", "0")), cq(fq("default", "cpu", "4", "example.com/gpu", "4")),
        new Want(fit, List.of(ps("main", "", "cpu", "default/Fit", "example.com/gpu", "default/Fit")),
            usage("default", "cpu", 1000, "default", "example.com/gpu", 0), 0, ""))));
    out.add(UpstreamCase.of("flavor assignment", FILE, t + "num pods fit", check(
        List.of(PodSet.of(PodSet.MAIN, 3, ResourceList.of("cpu", "1"))), cq(fq("default", "pods", "3", "cpu", "10")),
        new Want(fit, List.of(ps("main", "", "cpu", "default/Fit", "pods", "default/Fit")),
            usage("default", "pods", 3, "default", "cpu", 3000), 0, ""))));
    out.add(UpstreamCase.of("flavor assignment", FILE, t + "num pods don't fit", check(
        List.of(PodSet.of(PodSet.MAIN, 3, ResourceList.of("cpu", "1"))), cq(fq("default", "pods", "2", "cpu", "10")),
        new Want(noFit, List.of(ps("main", "insufficient quota for pods in flavor default, previously considered podsets "
            + "requests (0) + current podset request (3) > maximum capacity (2)")), Map.of(), 0, "ExceedsMaxQuota"))));
    PreemptionOracle preemptBorrowing = (tr, q, w, fr, v) -> fr.equals(FlavorResource.of("one", "cpu"))
        ? new PreemptionOracle.Simulation(PreemptionOracle.Possibility.PREEMPT, 1) : PREEMPT.simulate(tr, q, w, fr, v);
    out.add(UpstreamCase.of("flavor assignment", FILE, t + "past max, but can preempt in ClusterQueue", check(
        List.of(main("cpu", "2")), ClusterQueue.named("test-clusterqueue", ResourceGroup.of(new FlavorQuotas("one",
            List.of(ResourceQuota.of("cpu", "2", "8", ""))))).inCohort("test-cohort"), usage("one", "cpu", 9000),
        ClusterQueue.named("test-secondary-clusterqueue", ResourceGroup.of(fq("one", "cpu", "98"))).inCohort("test-cohort"),
        usage("one", "cpu", 9000), preemptBorrowing,
        new Want(preempt, List.of(ps("main", "insufficient unused quota for cpu in flavor one, 1 more needed",
            "cpu", "one/Preempt")), usage("one", "cpu", 2000), 1, ""))));
    out.add(UpstreamCase.of("flavor assignment", FILE, t + "past min, but can preempt in ClusterQueue", check(
        List.of(main("cpu", "2")), cq(fq("one", "cpu", "2")), usage("one", "cpu", 1000), null, Map.of(), PREEMPT,
        new Want(preempt, List.of(ps("main", "insufficient unused quota for cpu in flavor one, 1 more needed",
            "cpu", "one/Preempt")), usage("one", "cpu", 2000), 0, ""))));
    FlavorFungibility stop = new FlavorFungibility(FlavorFungibility.Policy.MAY_STOP_SEARCH,
        FlavorFungibility.Policy.MAY_STOP_SEARCH, Optional.empty());
    FlavorFungibility next = new FlavorFungibility(FlavorFungibility.Policy.TRY_NEXT_FLAVOR,
        FlavorFungibility.Policy.TRY_NEXT_FLAVOR, Optional.empty());
    for (String name : List.of("preempt before try next flavor",
        "preempt before try next flavor; using WhenCanBorrow=MayStopSearch,WhenCanPreempt=MayStopSearch")) {
      out.add(UpstreamCase.of("flavor assignment", FILE, t + name, check(
          List.of(main("cpu", "9")), cq(fq("one", "pods", "10", "cpu", "10"), fq("two", "pods", "10", "cpu", "10"))
              .withFungibility(stop), usage("one", "cpu", 2000), null, Map.of(), PREEMPT,
          new Want(preempt, List.of(ps("main", "insufficient unused quota for cpu in flavor one, 1 more needed",
              "cpu", "one/Preempt", "pods", "one/Fit")), usage("one", "cpu", 9000, "one", "pods", 1), 0, ""))));
    }
    out.add(UpstreamCase.of("flavor assignment", FILE, t + "preempt try next flavor", check(
        List.of(main("cpu", "9")), cq(fq("one", "pods", "10", "cpu", "10"), fq("two", "pods", "10", "cpu", "10")),
        usage("one", "cpu", 2000), null, Map.of(), PREEMPT,
        new Want(fit, List.of(ps("main", "", "cpu", "two/Fit", "pods", "two/Fit")),
            usage("two", "cpu", 9000, "two", "pods", 1), 0, ""))));
    ClusterQueue secondaryOne = ClusterQueue.named("test-secondary-clusterqueue", ResourceGroup.of(fq("one", "cpu", "1")))
        .inCohort("test-cohort");
    for (String[] c : new String[][] {{"borrow try next flavor, found the first flavor", "1", "next"},
        {"borrow try next flavor, found the second flavor", "10", "next"}, {"borrow before try next flavor", "10", ""}}) {
      ClusterQueue q = ClusterQueue.named("test-clusterqueue", ResourceGroup.of(
          new FlavorQuotas("one", List.of(ResourceQuota.of("pods", "10"), ResourceQuota.of("cpu", "10", "1", ""))),
          fq("two", "pods", "10", "cpu", c[1]))).inCohort("test-cohort");
      boolean second = c[0].endsWith("second flavor");
      String f = second ? "two" : "one";
      out.add(UpstreamCase.of("flavor assignment", FILE, t + c[0], check(List.of(main("cpu", "9")),
          c[2].isEmpty() ? q : q.withFungibility(next), usage("one", "cpu", 2000), secondaryOne, Map.of(), PREEMPT,
          new Want(fit, List.of(ps("main", "", "cpu", f + "/Fit", "pods", f + "/Fit")),
              usage(f, "cpu", 9000, f, "pods", 1), second ? 0 : 1, ""))));
    }
    // Fair sharing on: a ClusterQueue that may reclaim within its cohort may preempt while borrowing
    // (canPreemptWhileBorrowing); with reclaimWithinCohort Never it may not, and takes the next flavor.
    ClusterQueue secondaryTwelve = ClusterQueue.named("test-secondary-clusterqueue",
        ResourceGroup.of(fq("one", "cpu", "12"))).inCohort("test-cohort");
    PreemptionOracle preemptOne = (tr, q, w, fr, qty) -> new PreemptionOracle.Simulation(
        PreemptionOracle.Possibility.PREEMPT, 1);
    PreemptionOracle noCandidates = (tr, q, w, fr, qty) -> new PreemptionOracle.Simulation(
        PreemptionOracle.Possibility.NO_CANDIDATES, 0);
    for (String variant : List.of("", "; using deprecated WhenCanBorrow=MayStopSearch,WhenCanPreempt=MayStopSearch")) {
      for (PreemptionPolicy.Policy reclaim : List.of(PreemptionPolicy.Policy.ANY, PreemptionPolicy.Policy.NEVER)) {
        boolean any = reclaim == PreemptionPolicy.Policy.ANY;
        ClusterQueue q = cq(fq("one", "cpu", "0"), fq("two", "cpu", "12")).inCohort("test-cohort").withFungibility(stop)
            .withPreemption(new PreemptionPolicy(reclaim, PreemptionPolicy.Policy.NEVER, PreemptionPolicy.Policy.NEVER));
        Want want = any
            ? new Want(preempt, List.of(ps("main", "insufficient unused quota for cpu in flavor one, 10 more needed",
                "cpu", "one/Preempt")), usage("one", "cpu", 12_000), 1, "")
            : new Want(fit, List.of(ps("main", "", "cpu", "two/Fit")), usage("two", "cpu", 12_000), 0, "");
        out.add(UpstreamCase.of("flavor assignment", FILE, t + "when borrowing while preemption is needed for flavor "
            + "one, fair sharing enabled, reclaimWithinCohort=" + (any ? "Any" : "Never") + variant, check(
            List.of(main("cpu", "12")), q, Map.of(), secondaryTwelve, usage("one", "cpu", 10_000),
            any ? preemptOne : noCandidates, true, want)));
      }
    }
    return out;
  }
}
