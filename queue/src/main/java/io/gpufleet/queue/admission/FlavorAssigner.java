package io.gpufleet.queue.admission;

import io.gpufleet.model.affinity.NodeSelector;
import io.gpufleet.model.affinity.NodeSelectorTerm;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.model.taint.Tolerations;
import io.gpufleet.queue.api.ClusterQueue;
import io.gpufleet.queue.api.FlavorFungibility;
import io.gpufleet.queue.api.PodSet;
import io.gpufleet.queue.api.PreemptionPolicy;
import io.gpufleet.queue.api.ResourceFlavor;
import io.gpufleet.queue.api.ResourceGroup;
import io.gpufleet.queue.api.Workload;
import io.gpufleet.queue.quota.Amounts;
import io.gpufleet.queue.quota.FlavorResource;
import io.gpufleet.queue.quota.QuotaTree;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Assigns a flavor to each resource of each pod set, as Kueue's {@code FlavorAssigner.assignFlavors}
 * with FlavorFungibility on ({@code pkg/scheduler/flavorassigner/flavorassigner.go}): for a resource,
 * the flavors of its resource group are tried in order, a flavor whose taints the pod set does not
 * tolerate or whose labels its node selector or affinity refuses is skipped, and each resource of
 * the group is checked against the ClusterQueue's available and potentially available quota.
 * Topology-aware scheduling is {@link TasAssigner}'s. Not modelled: pod-set groups, partial
 * admission, reclaimable pods, workload slices, resuming the flavor scan from the last tried flavor.
 */
public final class FlavorAssigner {

  private final ClusterQueue cq;
  private final QuotaTree tree;
  private final Map<String, ResourceFlavor> flavors;
  private final PreemptionOracle oracle;
  /** Kueue's Configuration {@code fairSharing} is set ({@code enableFairSharing}). */
  private final boolean fairSharing;
  private final TasAssigner tas;

  public FlavorAssigner(ClusterQueue cq, QuotaTree tree, Map<String, ResourceFlavor> flavors, PreemptionOracle oracle) {
    this(cq, tree, flavors, oracle, false);
  }

  public FlavorAssigner(ClusterQueue cq, QuotaTree tree, Map<String, ResourceFlavor> flavors, PreemptionOracle oracle,
      boolean fairSharing) {
    this(cq, tree, flavors, oracle, fairSharing, Map.of());
  }

  /** With the cycle's TAS flavors ({@link io.gpufleet.queue.tas.TasCache}). */
  public FlavorAssigner(ClusterQueue cq, QuotaTree tree, Map<String, ResourceFlavor> flavors, PreemptionOracle oracle,
      boolean fairSharing, Map<String, io.gpufleet.queue.tas.TasFlavorSnapshot> tasFlavors) {
    this.cq = cq;
    this.tree = tree;
    this.flavors = Map.copyOf(flavors);
    this.oracle = oracle;
    this.fairSharing = fairSharing;
    this.tas = new TasAssigner(cq, tasFlavors);
  }

  /** The preemption mode of a flavor, finer than {@link FlavorAssignmentMode} ({@code preemptionMode}). */
  private enum PMode {
    NO_FIT, NO_PREEMPTION_CANDIDATES, PREEMPT, RECLAIM, FIT;

    FlavorAssignmentMode assignmentMode() {
      return switch (this) {
        case NO_FIT -> FlavorAssignmentMode.NO_FIT;
        case NO_PREEMPTION_CANDIDATES, PREEMPT, RECLAIM -> FlavorAssignmentMode.PREEMPT;
        case FIT -> FlavorAssignmentMode.FIT;
      };
    }

    static PMode of(PreemptionOracle.Possibility p) {
      return switch (p) {
        case NO_CANDIDATES -> NO_PREEMPTION_CANDIDATES;
        case PREEMPT -> PREEMPT;
        case RECLAIM -> RECLAIM;
      };
    }
  }

  /** {@code granularMode}. */
  private record Granular(PMode mode, int borrowingLevel) {
    static final Granular WORST = new Granular(PMode.NO_FIT, Integer.MAX_VALUE);
    static final Granular BEST = new Granular(PMode.FIT, 0);

    boolean isPreempt() {
      return mode == PMode.PREEMPT || mode == PMode.RECLAIM || mode == PMode.NO_PREEMPTION_CANDIDATES;
    }
  }

  /** {@code Status}: reasons, an error, and the QuotaReserved reason they stand for. */
  private static final class Status {
    final List<String> reasons = new ArrayList<>();
    String noFitReason = "";

    boolean fits() {
      return reasons.isEmpty();
    }
  }

  /** {@code isPreferred}: whether {@code a} is a better mode than {@code b} under the ClusterQueue's preference. */
  private boolean isPreferred(Granular a, Granular b) {
    if (a.mode == PMode.NO_FIT) {
      return false;
    }
    if (b.mode == PMode.NO_FIT) {
      return true;
    }
    boolean aNone = a.mode == PMode.NO_PREEMPTION_CANDIDATES;
    boolean bNone = b.mode == PMode.NO_PREEMPTION_CANDIDATES;
    if (aNone != bNone) {
      return !aNone;
    }
    boolean preemptionOverBorrowing = cq.flavorFungibility().preference()
        .filter(p -> p == FlavorFungibility.Preference.PREEMPTION_OVER_BORROWING).isPresent();
    if (preemptionOverBorrowing) {
      if (a.borrowingLevel != b.borrowingLevel) {
        return a.borrowingLevel < b.borrowingLevel;
      }
      return a.mode.compareTo(b.mode) > 0;
    }
    if (a.mode != b.mode) {
      return a.mode.compareTo(b.mode) > 0;
    }
    return a.borrowingLevel < b.borrowingLevel;
  }

  /** {@code shouldTryNextFlavor}. */
  private boolean shouldTryNextFlavor(Granular m) {
    if (m.mode == PMode.NO_FIT || m.mode == PMode.NO_PREEMPTION_CANDIDATES) {
      return true;
    }
    if (m.isPreempt() && cq.flavorFungibility().whenCanPreempt() == FlavorFungibility.Policy.TRY_NEXT_FLAVOR) {
      return true;
    }
    return m.borrowingLevel != 0 && cq.flavorFungibility().whenCanBorrow() == FlavorFungibility.Policy.TRY_NEXT_FLAVOR;
  }

  /**
   * A pod set's total requests in Kueue's units (per-pod value times count), with {@code pods} when
   * the ClusterQueue covers it.
   */
  static SortedMap<ResourceName, Long> totalRequests(PodSet ps, boolean countPods) {
    SortedMap<ResourceName, Long> out = new TreeMap<>();
    for (Map.Entry<ResourceName, Quantity> e : ps.requests().quantities().entrySet()) {
      long perPod = Amounts.requestValue(e.getKey(), e.getValue());
      long total;
      try {
        total = Math.multiplyExact(perPod, (long) ps.count());
      } catch (ArithmeticException overflow) {
        total = Amounts.UNLIMITED; // upstream saturates (TestSchedule "prevent integer overflow ...")
      }
      out.put(e.getKey(), total);
    }
    if (countPods) {
      out.put(ResourceName.PODS, (long) ps.count());
    }
    return out;
  }

  public Assignment assign(Workload wl) {
    List<PodSetAssignment> assigned = new ArrayList<>();
    Map<FlavorResource, Long> usage = new TreeMap<>();
    int borrowing = 0;
    boolean countPods = cq.groupFor(ResourceName.PODS).isPresent();
    for (PodSet ps : wl.podSets()) {
      SortedMap<ResourceName, Long> requests = totalRequests(ps, countPods);
      Map<ResourceName, FlavorAssignment> groupFlavors = new LinkedHashMap<>();
      List<String> groupReasons = new ArrayList<>();
      Map<String, FlavorAttempt> considered = new TreeMap<>();
      boolean failed = false;
      for (Map.Entry<ResourceName, Long> req : requests.entrySet()) {
        ResourceName res = req.getKey();
        if (cq.groupFor(res).isEmpty() && req.getValue() == 0) {
          continue; // #8079: a zero request for a resource the ClusterQueue does not declare
        }
        if (groupFlavors.containsKey(res)) {
          continue;
        }
        Found found = findFlavor(wl, ps, requests, res, usage);
        mergeAttempts(considered, found.attempts, res);
        if (found.flavors.isEmpty() && !requests.isEmpty()) {
          groupFlavors = null;
          groupReasons = found.status == null ? List.of() : new ArrayList<>(found.status.reasons);
          failed = true;
          break;
        }
        groupFlavors.putAll(found.flavors);
        if (found.status != null) {
          groupReasons.addAll(found.status.reasons);
        }
      }
      SortedMap<ResourceName, FlavorAssignment> psFlavors = new TreeMap<>();
      if (groupFlavors != null) {
        groupFlavors.forEach((r, f) -> {
          if (requests.containsKey(r)) {
            psFlavors.put(r, f);
          }
        });
      }
      for (Map.Entry<ResourceName, FlavorAssignment> e : psFlavors.entrySet()) {
        borrowing = Math.max(borrowing, e.getValue().borrow());
        usage.merge(new FlavorResource(e.getValue().flavor(), e.getKey()), requests.getOrDefault(e.getKey(), 0L),
            Amounts::add);
      }
      assigned.add(new PodSetAssignment(ps.name(), psFlavors, groupReasons, Optional.empty(), ps.count(), requests,
          new ArrayList<>(considered.values())));
      if (failed) {
        break;
      }
    }
    FlavorAssignmentMode mode = new Assignment(assigned, 0, new TreeMap<>(), "").representativeMode();
    boolean allAssigned = assigned.size() == wl.podSets().size() && assigned.stream()
        .allMatch(p -> p.error().isEmpty() && (p.requests().isEmpty() || !p.flavors().isEmpty()));
    if (allAssigned && mode != FlavorAssignmentMode.NO_FIT) {
      assigned = tas.place(wl, assigned, mode); // assignFlavors' TAS step
    }
    return new Assignment(assigned, borrowing, new TreeMap<>(usage), noFitReason(assigned));
  }

  /** {@code resolveNoFitReason}: per pod set, the least severe reason among a group's flavors; the most severe across. */
  private String noFitReason(List<PodSetAssignment> podSets) {
    Assignment probe = new Assignment(podSets, 0, new TreeMap<>(), "");
    if (probe.representativeMode() != FlavorAssignmentMode.NO_FIT) {
      return "";
    }
    String overall = "";
    for (PodSetAssignment ps : podSets) {
      if (ps.representativeMode() != FlavorAssignmentMode.NO_FIT) {
        continue;
      }
      if (ps.attempts().isEmpty()) {
        overall = NoFitReason.mostSevere(overall, NoFitReason.NO_MATCHING_FLAVOR);
        continue;
      }
      Map<Integer, String> rgMin = new TreeMap<>();
      for (int i = 0; i < ps.attempts().size(); i++) {
        FlavorAttempt att = ps.attempts().get(i);
        if (att.mode() != FlavorAssignmentMode.NO_FIT) {
          continue;
        }
        List<Integer> groups = new ArrayList<>();
        for (int g = 0; g < cq.resourceGroups().size(); g++) {
          if (cq.resourceGroups().get(g).flavorNames().contains(att.flavor())) {
            groups.add(g);
          }
        }
        if (groups.isEmpty()) {
          groups.add(-1 - i);
        }
        for (int g : groups) {
          String existing = rgMin.get(g);
          if (existing == null || NoFitReason.severity(att.noFitReason()) < NoFitReason.severity(existing)) {
            rgMin.put(g, att.noFitReason());
          }
        }
      }
      String podSetReason = "";
      for (String r : rgMin.values()) {
        podSetReason = NoFitReason.mostSevere(podSetReason, r);
      }
      overall = NoFitReason.mostSevere(overall, podSetReason);
    }
    return overall;
  }

  /** {@code mergeFlavorAttemptsForResource}: a flavor of the group that did not provide this resource is NoFit. */
  private void mergeAttempts(Map<String, FlavorAttempt> dst, List<FlavorAttempt> src, ResourceName res) {
    for (FlavorAttempt at : src) {
      FlavorAttempt existing = dst.get(at.flavor());
      if (existing == null) {
        dst.put(at.flavor(), new FlavorAttempt(at.flavor(), at.mode(), at.borrow(),
            new ArrayList<>(new TreeSet<>(at.reasons())), at.noFitReason()));
      } else {
        TreeSet<String> reasons = new TreeSet<>(existing.reasons());
        reasons.addAll(at.reasons());
        FlavorAssignmentMode worst = at.mode().compareTo(existing.mode()) < 0 ? at.mode() : existing.mode();
        dst.put(at.flavor(), new FlavorAttempt(at.flavor(), worst, Math.max(at.borrow(), existing.borrow()),
            new ArrayList<>(reasons), NoFitReason.mostSevere(existing.noFitReason(), at.noFitReason())));
      }
    }
    if (src.isEmpty()) {
      return;
    }
    Optional<ResourceGroup> rg = cq.groupFor(res);
    Set<String> present = new HashSet<>();
    src.forEach(a -> present.add(a.flavor()));
    for (Map.Entry<String, FlavorAttempt> e : dst.entrySet()) {
      if (rg.isPresent() && rg.get().flavorNames().contains(e.getKey()) && !present.contains(e.getKey())) {
        TreeSet<String> reasons = new TreeSet<>(e.getValue().reasons());
        reasons.add("flavor " + e.getKey() + " does not provide resource " + res);
        e.setValue(new FlavorAttempt(e.getKey(), FlavorAssignmentMode.NO_FIT, e.getValue().borrow(),
            new ArrayList<>(reasons), NoFitReason.NO_MATCHING_FLAVOR));
      }
    }
  }

  private record Found(Map<ResourceName, FlavorAssignment> flavors, Status status, List<FlavorAttempt> attempts) {}

  /** {@code findFlavorForPodSets}: the flavor for {@code resName} and the other resources of its group. */
  private Found findFlavor(Workload wl, PodSet ps, SortedMap<ResourceName, Long> requests, ResourceName resName,
      Map<FlavorResource, Long> assignmentUsage) {
    Optional<ResourceGroup> group = cq.groupFor(resName);
    if (group.isEmpty()) {
      Status s = new Status();
      s.reasons.add("resource " + resName + " unavailable in ClusterQueue");
      return new Found(Map.of(), s, List.of());
    }
    ResourceGroup rg = group.get();
    Status status = new Status();
    SortedMap<ResourceName, Long> groupRequests = new TreeMap<>();
    requests.forEach((r, v) -> {
      if (rg.coveredResources().contains(r)) {
        groupRequests.put(r, v);
      }
    });
    Map<ResourceName, FlavorAssignment> best = Map.of();
    Granular bestMode = Granular.WORST;
    List<FlavorAttempt> attempts = new ArrayList<>();
    for (String fName : rg.flavorNames()) {
      Optional<String> mismatch = checkFlavor(fName, ps, rg);
      if (mismatch.isPresent()) {
        status.reasons.add(mismatch.get());
        attempts.add(new FlavorAttempt(fName, FlavorAssignmentMode.NO_FIT, 0, List.of(mismatch.get()),
            NoFitReason.NO_MATCHING_FLAVOR));
        continue;
      }
      Map<ResourceName, FlavorAssignment> assignments = new LinkedHashMap<>();
      Granular rep = Granular.BEST;
      int maxBorrow = 0;
      List<String> flavorReasons = new ArrayList<>();
      String flavorNoFit = "";
      for (Map.Entry<ResourceName, Long> e : groupRequests.entrySet()) {
        FlavorResource fr = new FlavorResource(fName, e.getKey());
        Fits f = fitsResourceQuota(wl, fr, assignmentUsage.getOrDefault(fr, 0L), e.getValue());
        if (f.status != null) {
          flavorReasons.addAll(f.status.reasons);
          status.reasons.addAll(f.status.reasons);
          flavorNoFit = NoFitReason.mostSevere(flavorNoFit, f.status.noFitReason);
        }
        maxBorrow = Math.max(maxBorrow, f.borrow);
        Granular mode = new Granular(f.mode, f.borrow);
        if (isPreferred(rep, mode)) {
          rep = mode;
        }
        if (rep.mode == PMode.NO_FIT) {
          continue; // the flavor does not fit; upstream's ForEach callback returns and goes on to the next resource
        }
        assignments.put(e.getKey(), new FlavorAssignment(fName, f.mode.assignmentMode(), f.borrow));
      }
      attempts.add(new FlavorAttempt(fName, rep.mode.assignmentMode(), maxBorrow,
          flavorReasons.stream().sorted().toList(), flavorNoFit));
      if (!shouldTryNextFlavor(rep)) {
        best = assignments;
        bestMode = rep;
        break;
      }
      if (isPreferred(rep, bestMode)) {
        best = assignments;
        bestMode = rep;
      }
    }
    return new Found(best, bestMode.mode == PMode.FIT ? null : status, attempts);
  }

  private record Fits(PMode mode, int borrow, Status status) {}

  /** {@code fitsResourceQuota}. */
  private Fits fitsResourceQuota(Workload wl, FlavorResource fr, long assumedUsage, long request) {
    Status status = new Status();
    status.noFitReason = NoFitReason.WAITING_FOR_QUOTA;
    long available = tree.available(cq.name(), fr);
    long maxCapacity = tree.potentialAvailable(cq.name(), fr);
    long val = Amounts.add(assumedUsage, request);
    if (val > maxCapacity) {
      status.reasons.add("insufficient quota for " + fr.resource() + " in flavor " + fr.flavor()
          + ", previously considered podsets requests (" + Amounts.format(fr.resource(), assumedUsage)
          + ") + current podset request (" + Amounts.formatRequest(fr.resource(), request) + ") > maximum capacity ("
          + Amounts.format(fr.resource(), maxCapacity) + ")");
      status.noFitReason = NoFitReason.EXCEEDS_MAX_QUOTA;
      return new Fits(PMode.NO_FIT, 0, status);
    }
    QuotaTree.HeightFit h = tree.heightOfLowestSubtreeThatFits(cq.name(), fr, val);
    if (val <= available) {
      return new Fits(PMode.FIT, h.height(), null);
    }
    status.reasons.add("insufficient unused quota for " + fr.resource() + " in flavor " + fr.flavor() + ", "
        + Amounts.format(fr.resource(), Amounts.sub(val, available)) + " more needed");
    // canPreemptWhileBorrowing: borrowWithinCohort allows it, or fair sharing with reclaimWithinCohort.
    boolean canPreemptWhileBorrowing = cq.preemption().borrowWithinCohort() != PreemptionPolicy.Policy.NEVER
        || fairSharing && cq.preemption().reclaimWithinCohort() != PreemptionPolicy.Policy.NEVER;
    if (tree.quota(cq.name(), fr).nominal() >= val || h.mayReclaimInHierarchy() || canPreemptWhileBorrowing) {
      PreemptionOracle.Simulation sim = oracle.simulate(tree, cq.name(), wl, fr, val);
      PMode mode = PMode.of(sim.possibility());
      status.noFitReason = "";
      return new Fits(mode, sim.borrowAfterPreemption(), status);
    }
    return new Fits(PMode.NO_FIT, h.height(), status);
  }

  /**
   * {@code checkFlavorForPodSets}: the flavor exists, suits the pod set's topology request, the pod set tolerates its NoSchedule and
   * NoExecute taints (with the flavor's own tolerations), and its node selector and required node
   * affinity, cut to the flavor's label keys, match the flavor's labels.
   */
  private Optional<String> checkFlavor(String name, PodSet ps, ResourceGroup rg) {
    ResourceFlavor flavor = flavors.get(name);
    if (flavor == null) {
      return Optional.of("flavor " + name + " not found");
    }
    Optional<String> tasMismatch = tas.mismatch(ps, flavor, rg);
    if (tasMismatch.isPresent()) {
      return tasMismatch;
    }
    PodSpec spec = ps.template();
    List<Toleration> tolerations = new ArrayList<>(spec.tolerations());
    tolerations.addAll(flavor.tolerations());
    Taint untolerated = Tolerations.firstUntoleratedBlockingOrNull(flavor.nodeTaints(), tolerations);
    if (untolerated != null) {
      // Upstream formats the corev1.Taint value with %s, which prints the struct: {key value Effect <nil>}.
      return Optional.of("untolerated taint {" + untolerated.key() + " " + untolerated.value() + " "
          + untolerated.effect() + " <nil>} in flavor " + name);
    }
    if (!selectorMatches(spec, flavor.nodeLabels())) {
      return Optional.of("flavor " + name + " doesn't match node affinity");
    }
    return Optional.empty();
  }

  /** {@code flavorSelector}: only the flavor's own label keys count; a term left empty matches any flavor. */
  private static boolean selectorMatches(PodSpec spec, Labels flavorLabels) {
    Set<String> keys = flavorLabels.map().keySet();
    for (var e : spec.nodeSelector().map().entrySet()) {
      if (keys.contains(e.getKey()) && !e.getValue().equals(flavorLabels.map().get(e.getKey()))) {
        return false;
      }
    }
    Optional<NodeSelector> required = spec.nodeAffinity().required();
    if (required.isEmpty()) {
      return true;
    }
    List<NodeSelectorTerm> terms = new ArrayList<>();
    for (NodeSelectorTerm t : required.get().terms()) {
      List<Requirement> kept = t.matchExpressions().stream().filter(r -> keys.contains(r.key())).toList();
      if (kept.isEmpty()) {
        return true;
      }
      terms.add(new NodeSelectorTerm(kept, List.of()));
    }
    return terms.isEmpty() || new NodeSelector(terms).matches("", flavorLabels);
  }
}
