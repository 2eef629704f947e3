package io.gpufleet.engine.advise;

import io.gpufleet.engine.mig.MigPlan;
import io.gpufleet.engine.mig.MigPlanner;
import io.gpufleet.engine.perf.Calibration;
import io.gpufleet.engine.perf.Device;
import io.gpufleet.engine.perf.MemoryFit;
import io.gpufleet.engine.perf.SharingModel;
import io.gpufleet.model.advise.Boundness;
import io.gpufleet.model.advise.GpuNodeOffers;
import io.gpufleet.model.advise.WorkloadProfile;
import io.gpufleet.model.deviceplugin.SharingMode.Family;
import io.gpufleet.model.deviceplugin.SharingMode;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.gpu.MigProfile;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.DoublePredicate;

/**
 * Ranks the ways of sharing a GPU model for a set of workloads. Each mode is packed onto the fewest
 * GPUs on which every replica fits in memory, the GPUs keep up, and every SLO holds; when no packing
 * meets the SLOs, the one closest to them is shown. Pure: same inputs, same advice.
 */
public final class Advisor {

  /**
   * Orders options: admissible, then meeting SLOs, then cheaper, then lower p99, then by name.
   * Written out rather than Comparator.comparing(..).thenComparing(..), whose lambdas inside
   * java.util the AOT cache does not hold, so that advise makes no classes for them at run time.
   */
  public static final Comparator<Option> RANKING = (a, b) -> {
    int c = Boolean.compare(!a.admissible(), !b.admissible());
    if (c == 0) {
      c = Boolean.compare(!a.sloMet(), !b.sloMet());
    }
    if (c == 0) {
      c = Double.compare(a.monthlyCost(), b.monthlyCost());
    }
    if (c == 0) {
      c = Double.compare(a.worstP99Ms(), b.worstP99Ms());
    }
    return c != 0 ? c : a.label().compareTo(b.label());
  };

  private final SharingModel model;
  private final GpuCatalog catalog;
  private final GpuNodeOffers offers;
  private final AdvicePolicy policy;

  public Advisor(Calibration calibration, GpuCatalog catalog, GpuNodeOffers offers, AdvicePolicy policy) {
    this(new SharingModel(calibration), catalog, offers, policy);
  }

  /** With a model that may carry a card's own closed-loop rows ({@link SharingModel#measured}). */
  public Advisor(SharingModel model, GpuCatalog catalog, GpuNodeOffers offers, AdvicePolicy policy) {
    this.model = model;
    this.catalog = catalog;
    this.offers = offers;
    this.policy = policy;
  }

  /**
   * @param assumptions what the caller filled in for the user (defaults), to print with the advice
   */
  public Advice advise(List<WorkloadProfile> workloads, GpuModel gpu, List<String> assumptions) {
    if (workloads.isEmpty()) {
      throw new IllegalArgumentException("advise needs at least one workload");
    }
    Device.whole(gpu); // fails early, with the reason, when the card's memory or bandwidth is unknown
    Situation situation = new Situation(workloads, gpu);
    List<Replica> replicas = new ArrayList<>();
    for (WorkloadProfile w : workloads) {
      for (int i = 1; i <= w.replicas(); i++) {
        replicas.add(new Replica(w, i));
      }
    }
    LayoutForecast forecast = new LayoutForecast(model, catalog, gpu);
    Set<Family> ruledOut = EnumSet.noneOf(Family.class);
    for (RuleOfThumb r : RuleOfThumb.MODULE) {
      if (r.applies().test(situation)) {
        ruledOut.addAll(r.rulesOut());
      }
    }
    List<List<List<Layout>>> searches = new ArrayList<>();
    searches.add(List.of(List.of(new Layout(new SharingMode.Exclusive(), Optional.empty(), 1,
        Layout.deal(replicas, replicas.size())))));
    if (replicas.size() >= 2) {
      searches.add(shared(replicas, Family.TIME_SLICING));
      searches.add(shared(replicas, Family.MPS));
    }
    if (gpu.migCapable()) {
      searches.add(mig(gpu, replicas, null));
      if (replicas.size() >= 2) {
        searches.add(mig(gpu, replicas, Family.TIME_SLICING));
        searches.add(mig(gpu, replicas, Family.MPS));
      }
    }
    List<Option> options = new ArrayList<>();
    Map<Option, List<List<Layout>>> searchOf = new IdentityHashMap<>();
    for (List<List<Layout>> search : searches) {
      best(forecast, search, 1).ifPresent(c -> {
        Option o = option(situation, forecast, c, ruledOut, 1);
        options.add(o);
        searchOf.put(o, search);
      });
    }
    if (!gpu.migCapable()) {
      options.add(new Option(SharingMode.Mig.alone("n/a"), 0, List.of(), Optional.empty(), List.of(), 0, 0,
          List.of(), List.of("MIG does not exist on " + gpu.productName() + " (" + rule("mig-hardware").says() + ")"),
          List.of(), List.of()));
    }
    List<Option> ranked = options.stream().sorted(RANKING).toList();
    Optional<Option> recommended = ranked.stream().filter(Option::admissible).findFirst();
    Optional<Option> spread = recommended
        .filter(o -> situation.anySlo() && o.risks().contains(Risks.SHARED_FATE))
        .flatMap(o -> best(forecast, searchOf.get(o), 2).map(c -> option(situation, forecast, c, ruledOut, 2)))
        .filter(o -> o.admissible() && o.sloMet());
    List<RuleCheck> rules = RuleChecks.of(situation, ranked, recommended);
    List<String> defence = Defence.of(situation, ranked, recommended, spread, rules);
    List<String> notes = new ArrayList<>(assumptions);
    notes.addAll(modelAssumptions(gpu, workloads));
    return new Advice(situation, ranked, recommended, spread, rules, defence,
        sweep(forecast, gpu, workloads.getFirst()), notes);
  }

  /**
   * The advice for each GPU model that can be priced and modelled, best first: GPUs whose pick meets
   * every SLO before those whose does not, then by monthly cost, then by p99; GPUs with no usable
   * option last. How to choose a GPU type from a whole instance catalogue.
   */
  public List<Advice> acrossGpus(List<WorkloadProfile> workloads, List<GpuModel> gpus, List<String> assumptions) {
    List<Advice> out = new ArrayList<>();
    for (GpuModel g : gpus) {
      if (g.bandwidthGBps().isPresent() && g.memoryMiB().isPresent() && !offers.offers(g.id()).isEmpty()) {
        out.add(advise(workloads, g, assumptions));
      }
    }
    Comparator<Advice> byPick = Comparator.comparing((Advice a) -> a.recommended().isEmpty())
        .thenComparing(a -> a.recommended().map(o -> !o.sloMet()).orElse(true))
        .thenComparingDouble(a -> a.recommended().map(Option::monthlyCost).orElse(Double.POSITIVE_INFINITY))
        .thenComparingDouble(a -> a.recommended().map(Option::worstP99Ms).orElse(Double.POSITIVE_INFINITY))
        .thenComparing(a -> a.situation().gpu().id());
    return out.stream().sorted(byPick).toList();
  }

  // ---- candidate layouts, fewest GPUs first ----

  /** Time-slicing or MPS on whole cards: 2.. replicas per GPU, from all on one GPU to two per GPU. */
  private static List<List<Layout>> shared(List<Replica> replicas, Family family) {
    List<List<Layout>> byGpus = new ArrayList<>();
    int n = replicas.size();
    for (int gpus = 1; gpus <= (n + 1) / 2; gpus++) {
      int perGpu = (n + gpus - 1) / gpus;
      if (perGpu < 2 || (family == Family.MPS && perGpu > SharingMode.Mps.MAX_CLIENTS)) {
        continue;
      }
      if (!byGpus.isEmpty() && byGpus.getLast().getFirst().gpus() == (n + perGpu - 1) / perGpu) {
        continue;
      }
      SharingMode mode = family == Family.MPS ? SharingMode.Mps.devicePlugin(perGpu) : new SharingMode.TimeSlicing(perGpu);
      Layout l = new Layout(mode, Optional.empty(), 1, Layout.deal(replicas, (n + perGpu - 1) / perGpu));
      byGpus.add(List.of(l));
    }
    return byGpus;
  }

  /**
   * MIG instances of every partial profile, each replica alone on one or, with {@code within},
   * several replicas time-sliced or MPS-shared on one; grouped by GPUs needed.
   */
  private static List<List<Layout>> mig(GpuModel gpu, List<Replica> replicas, Family within) {
    TreeMap<Integer, List<Layout>> byGpus = new TreeMap<>();
    int n = replicas.size();
    for (MigProfile p : partialProfiles(gpu)) {
      int perGpu = instancesPerGpu(gpu, p);
      int maxShare = within == null ? 1 : Math.min(n, within == Family.MPS ? SharingMode.Mps.MAX_CLIENTS : n);
      for (int k = within == null ? 1 : 2; k <= maxShare; k++) {
        int devices = (n + k - 1) / k;
        if (k > 2 && devices == (n + k - 2) / (k - 1)) {
          continue; // more per instance without fewer instances
        }
        SharingMode inner = within == null ? new SharingMode.Exclusive()
            : within == Family.MPS ? SharingMode.Mps.devicePlugin(k) : new SharingMode.TimeSlicing(k);
        Layout l = new Layout(new SharingMode.Mig(p.name(), inner), Optional.of(p), perGpu, Layout.deal(replicas, devices));
        byGpus.computeIfAbsent(l.gpus(), g -> new ArrayList<>()).add(l);
      }
    }
    return new ArrayList<>(byGpus.values());
  }

  /**
   * The profiles that cut the card: media-extension twins aside, and the whole-card profile (7g)
   * aside, since exclusive use or plain sharing does the same without MIG.
   */
  static List<MigProfile> partialProfiles(GpuModel gpu) {
    int all = gpu.migGeometry().orElseThrow().computeSlices();
    return gpu.migProfiles().stream().filter(p -> !p.mediaExtensions() && p.computeSlices() < all).toList();
  }

  /** How many instances of the profile one card holds, by the MIG placement rules. */
  static int instancesPerGpu(GpuModel gpu, MigProfile p) {
    for (int n = p.maxInstances(); n > 1; n--) {
      if (MigPlanner.plan(gpu, Map.of(p.name(), n)) instanceof MigPlan.Placed) {
        return n;
      }
    }
    return 1;
  }

  /** A layout chosen by {@link #best}, and why no layout with fewer GPUs would do. */
  record Choice(Layout layout, List<String> fewerGpus) {}

  /**
   * The first GPU count (of at least {@code minGpus}) at which some layout fits, keeps up and meets
   * every SLO (the one with the lowest p99 among those); failing that, the layout closest to the
   * SLOs among those that fit and keep up; failing that, the roomiest, to show why it cannot work.
   */
  private static Optional<Choice> best(LayoutForecast forecast, List<List<Layout>> byGpus, int minGpus) {
    Layout closest = null;
    double closestRatio = Double.POSITIVE_INFINITY;
    Layout roomiest = null;
    List<String> fewer = new ArrayList<>();
    for (List<Layout> sameGpus : byGpus) {
      Layout pick = null;
      double pickP99 = Double.POSITIVE_INFINITY;
      String failure = null;
      for (Layout l : sameGpus) {
        if (l.gpus() < minGpus) {
          continue;
        }
        List<MemoryFit.Shortfall> shortfalls = forecast.shortfalls(l);
        if (!shortfalls.isEmpty()) {
          // Does not fit: neither a pick nor the closest; only its reason and its place as the roomiest count.
          if (failure == null) {
            failure = failure(l, new LayoutForecast.Result(shortfalls, List.of()));
          }
          roomiest = l;
          continue;
        }
        LayoutForecast.Result r = forecast.run(l, 1);
        if (r.good() && r.worstP99() < pickP99) {
          pick = l;
          pickP99 = r.worstP99();
        }
        if (r.fits() && r.stable() && r.worstSloRatio() < closestRatio) {
          closest = l;
          closestRatio = r.worstSloRatio();
        }
        if (failure == null) {
          failure = failure(l, r);
        }
        roomiest = l;
      }
      if (pick != null) {
        return Optional.of(new Choice(pick, fewer));
      }
      if (failure != null) {
        fewer.add(failure);
      }
    }
    Layout fallback = closest != null ? closest : roomiest;
    return Optional.ofNullable(fallback).map(l -> new Choice(l, List.of()));
  }

  /** Why a layout fails, in one phrase: {@code on 1 GPU, notebook-12 would run out of GPU memory}. */
  private static String failure(Layout l, LayoutForecast.Result r) {
    String where = l.mode().label() + " on " + l.gpus() + (l.gpus() == 1 ? " GPU" : " GPUs");
    if (!r.fits()) {
      var s = r.shortfalls().getFirst();
      return String.format(Locale.ROOT, "%s: %s would run out of GPU memory (needs %d MiB, %d left)", where, s.tenant(),
          s.neededMiB(), s.availableMiB());
    }
    if (!r.stable()) {
      return where + ": the GPUs could not keep up";
    }
    return where + ": p99 " + Say.ms(r.worstP99()) + " misses the SLO";
  }

  // ---- an option from a layout ----

  private Option option(Situation s, LayoutForecast forecast, Choice choice, Set<Family> ruledOut, int minNodes) {
    Layout layout = choice.layout();
    LayoutForecast.Result r = forecast.run(layout, 1);
    List<String> blockers = new ArrayList<>();
    for (Family f : layout.mode().families()) {
      if (ruledOut.contains(f)) {
        for (RuleOfThumb rule : RuleOfThumb.MODULE) {
          if (rule.rulesOut().contains(f) && rule.applies().test(s)) {
            blockers.add(rule.says());
          }
        }
      }
    }
    if (layout.mode() instanceof SharingMode.Mig m && m.within() instanceof SharingMode.Mps) {
      blockers.add("the NVIDIA device plugin offers MPS on full GPUs only, not on MIG instances (k8s-gpu-semantics §2.2)");
    }
    for (var shortfall : r.shortfalls()) {
      blockers.add(String.format(Locale.ROOT, "%s would run out of GPU memory: needs %d MiB, %d available (%s)",
          shortfall.tenant(), shortfall.neededMiB(), shortfall.availableMiB(), shortfall.reason()));
    }
    if (!r.stable()) {
      blockers.add("the GPUs cannot keep up with the stated request rates");
    }
    List<List<Replica>> perGpu = layout.perGpu();
    Optional<NodePlan> nodes = NodeChoice.cheapest(offers.offers(s.gpu().id()), layout.gpus(), perGpu, minNodes);
    if (nodes.isEmpty()) {
      blockers.add("no priced node type carries " + s.gpu().id() + " with room for the replicas' CPU and memory");
    }
    List<Replica> all = perGpu.stream().flatMap(List::stream).toList();
    int paidGpus = nodes.map(n -> n.nodes() * n.offer().gpus()).orElse(layout.gpus());
    double utilisation = CapacityUse.of(all, Device.whole(s.gpu()), paidGpus, forecast.calibration(), catalog);
    double headroom = r.fits() ? headroom(forecast, layout) : 0;
    List<Risk> risks = risks(s, layout, nodes, utilisation, headroom, r.sloMet());
    return new Option(layout.mode(), layout.gpus(), perGpu, nodes, r.outcomes(), utilisation, headroom, risks, blockers,
        r.shortfalls(), choice.fewerGpus());
  }

  /** The largest multiple of every stated rate at which the layout still keeps up within its SLOs. */
  private double headroom(LayoutForecast forecast, Layout layout) {
    DoublePredicate ok = scale -> {
      LayoutForecast.Result r = forecast.run(layout, scale);
      return r.stable() && r.sloMet();
    };
    double lo;
    double hi;
    if (ok.test(1)) {
      lo = 1;
      hi = Math.min(2, policy.headroomCap());
      while (ok.test(hi)) {
        if (hi >= policy.headroomCap()) {
          return policy.headroomCap();
        }
        lo = hi;
        hi = Math.min(2 * hi, policy.headroomCap());
      }
    } else {
      lo = 0;
      hi = 1;
    }
    for (int i = 0; i < 30; i++) {
      double mid = (lo + hi) / 2;
      if (ok.test(mid)) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** What the option gives up: what this situation makes of it first, then what the mode always costs. */
  private List<Risk> risks(Situation s, Layout layout, Optional<NodePlan> nodes, double utilisation, double headroom,
      boolean sloMet) {
    List<Risk> out = new ArrayList<>();
    Set<Family> f = layout.mode().families();
    boolean shares = layout.mode().tenantsPerDevice() > 1;
    boolean severalReplicas = s.workloads().stream().anyMatch(w -> w.replicas() > 1);
    if (severalReplicas && (layout.gpus() == 1 || nodes.map(NodePlan::nodes).orElse(2) == 1)) {
      out.add(Risks.SHARED_FATE);
    }
    if (s.anySlo() && sloMet && headroom < policy.tightHeadroom()) {
      out.add(Risks.TIGHT_SLO);
    }
    if (utilisation < policy.idleBelow() && !shares && !f.contains(Family.MIG)) {
      out.add(Risks.IDLE_CAPACITY);
    }
    if (f.contains(Family.TIME_SLICING)) {
      out.addAll(List.of(Risks.NO_MEMORY_ISOLATION, Risks.NO_FAULT_ISOLATION, Risks.CONTEXT_SWITCH,
          Risks.NO_PER_POD_METRICS));
    }
    if (f.contains(Family.MPS)) {
      out.addAll(List.of(Risks.SHARED_FAULT_DOMAIN, Risks.MPS_EXPERIMENTAL));
      boolean memoryBound = s.workloads().stream().anyMatch(w -> w.bound() == Boundness.MEMORY);
      if (memoryBound && shares) {
        out.add(Risks.MPS_THREAD_LIMIT);
      }
    }
    if (shares && !f.contains(Family.MIG)) {
      out.add(Risks.KARPENTER_COUNTS_PHYSICAL);
    }
    if (f.contains(Family.MIG)) {
      out.addAll(List.of(Risks.MIG_SLICE_SPEED, Risks.MIG_FIXED_PROFILES));
    }
    return out;
  }

  // ---- the chart ----

  private TenantSweep sweep(LayoutForecast forecast, GpuModel gpu, WorkloadProfile w) {
    int max = Math.min(policy.sweepMaxTenants(), Math.max(8, 2 * w.replicas()));
    List<TenantSweep.Series> series = new ArrayList<>();
    for (Family f : List.of(Family.EXCLUSIVE, Family.TIME_SLICING, Family.MPS, Family.MIG)) {
      if (f == Family.MIG && !gpu.migCapable()) {
        continue;
      }
      List<TenantSweep.Point> points = new ArrayList<>();
      for (int tenants = 1; tenants <= max; tenants++) {
        final int n = tenants;
        List<Replica> rs = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          rs.add(new Replica(w, i));
        }
        Optional<Layout> l = switch (f) {
          case EXCLUSIVE -> Optional.of(new Layout(new SharingMode.Exclusive(), Optional.empty(), 1, List.of(List.of(rs.getFirst()))));
          case TIME_SLICING -> Optional.of(new Layout(n == 1 ? new SharingMode.Exclusive() : new SharingMode.TimeSlicing(n),
              Optional.empty(), 1, List.of(rs)));
          case MPS -> n > SharingMode.Mps.MAX_CLIENTS ? Optional.empty()
              : Optional.of(new Layout(SharingMode.Mps.devicePlugin(n), Optional.empty(), 1, List.of(rs)));
          case MIG -> largestSliceFor(gpu, n, w).map(p -> new Layout(SharingMode.Mig.alone(p.name()), Optional.of(p), n,
              Layout.deal(rs, n)));
        };
        double p99 = Double.NaN;
        if (l.isPresent()) {
          LayoutForecast.Result r = forecast.run(l.get(), 1);
          p99 = r.fits() ? r.worstP99() : Double.NaN;
        }
        points.add(new TenantSweep.Point(n, p99));
      }
      series.add(new TenantSweep.Series(f.label(), points));
    }
    OptionalDouble slo = w.slo().map(x -> OptionalDouble.of(x.p99Ms())).orElse(OptionalDouble.empty());
    return new TenantSweep(w.name(), slo, series);
  }

  /** The profile with the most compute of which one card holds {@code n} instances that fit the workload. */
  private static Optional<MigProfile> largestSliceFor(GpuModel gpu, int n, WorkloadProfile w) {
    return partialProfiles(gpu).stream()
        .filter(p -> p.memoryMiB(gpu) >= w.memoryMiB())
        .filter(p -> instancesPerGpu(gpu, p) >= n)
        .max(Comparator.comparingInt(MigProfile::computeSlices).thenComparingInt(MigProfile::memorySlices));
  }

  // ---- assumptions ----

  private List<String> modelAssumptions(GpuModel gpu, List<WorkloadProfile> workloads) {
    List<String> out = new ArrayList<>();
    Calibration c = model.calibration();
    double bw = gpu.bandwidthGBps().orElseThrow();
    out.add(String.format(Locale.ROOT,
        "Memory-bound requests run at %.1f%% of %s's datasheet bandwidth (%.0f GB/s) alone and %.1f%% with "
            + "kernels overlapped: the shares measured on the calibration's card, assumed to carry over to %s.",
        100 * c.singleStreamBandwidth(), gpu.id(), bw, 100 * c.overlappedBandwidth(), gpu.id()));
    for (String src : gpu.sources()) {
      if (src.toLowerCase(Locale.ROOT).contains("bandwidth") && src.toLowerCase(Locale.ROOT).contains("unconfirmed")) {
        out.add("GPU catalogue on " + gpu.id() + ": " + src + ".");
      }
    }
    if (workloads.stream().anyMatch(w -> w.bound() == Boundness.LAUNCH)) {
      out.add("Launch-bound requests keep the GPU busy " + String.format(Locale.ROOT, "%.0f%%", 100 * c.launchBoundGpuShare())
          + " of the time alone and are set by the host, so they take the same time on any GPU (fitted on the H200 small rows).");
    }
    out.add("Each option is costed at on-demand us-east-1 prices (k8s-gpu-semantics §6) x 730 h a month.");
    return out;
  }

  static RuleOfThumb rule(String id) {
    return RuleOfThumb.MODULE.stream().filter(r -> r.id().equals(id)).findFirst().orElseThrow();
  }
}
