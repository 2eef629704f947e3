package io.gpufleet.engine.dra;

import io.gpufleet.model.dra.Device;
import io.gpufleet.model.dra.DeviceClass;
import io.gpufleet.model.dra.DeviceRequest;
import io.gpufleet.model.dra.DeviceTaint;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.dra.ResourceSlice;
import io.gpufleet.model.resource.Quantity;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The structured-parameters allocator ({@code k8s.io/dynamic-resource-allocation/structured}) for
 * the requests the twin reads: every request of every claim is met on one node from the devices
 * there (those of its node-local slices, and with DRAPartitionableDevices those of
 * {@code perDeviceNodeSelection} slices naming the node), each device going to at most one request;
 * a device matches when every selector of its class and of the request is true. {@code ExactCount}
 * takes {@code count} devices; {@code All} takes every matching device and needs at least one, none of
 * them already allocated (the API's documentation of {@code allocationMode}). A {@code firstAvailable}
 * request is met by the first of its subrequests, in order, that can be met together with the other
 * requests; its results name {@code <request>/<subrequest>}. Requests are met in order, devices tried
 * in slice order, backtracking (to the next device, then the next subrequest) when a later request
 * cannot be met. A device with a NoSchedule or NoExecute taint (its slice's or a DeviceTaintRule's) goes
 * only to a request or subrequest whose {@code tolerations} tolerate it ({@link DeviceTaints}).
 *
 * <p>Partitionable devices (DRAPartitionableDevices): a device drawing on its pool's shared counters
 * is allocated only while they last ({@link SharedCounters}); a pool that fails validation gives
 * nothing, and when nothing else meets the claims the node fails with upstream's
 * {@code invalid resource pools were encountered}. Consumable capacity (DRAConsumableCapacity): a device
 * with {@code allowMultipleAllocations} may go to several requests, each taking a share of its
 * capacities ({@link CapacityShare}) while the shares fit; under {@code All} such a device with no room
 * left for the share is passed over rather than blocking the request.
 */
public final class DeviceAllocator {

  /**
   * The Kubernetes feature gates the allocator follows ({@code pkg/features}): DRAPartitionableDevices
   * (alpha in 1.33) and DRAConsumableCapacity (alpha in 1.34), both beta and on by default from 1.36 and
   * still in v1.37.
   */
  public record Features(boolean partitionableDevices, boolean consumableCapacity) {
    public static final Features DEFAULTS = new Features(true, true);
  }

  /** What allocating a pod's claims on one node came to. */
  public sealed interface Outcome {
    record Allocated(List<Allocation> allocations) implements Outcome {
      public Allocated {
        allocations = List.copyOf(allocations);
      }
    }

    /** Not on this node: upstream's {@code cannot allocate all claims}. */
    record Unsatisfiable() implements Outcome {}

    /**
     * A selector failed to compile or evaluate, or a request cannot be served at all: upstream aborts the
     * cycle with this error; or the node's pools are invalid ({@link #INVALID_POOLS}), failing this node.
     */
    record Failed(String message) implements Outcome {}
  }

  /** {@code allocator.go}: the node's error when its claims fail and one of its pools is invalid. */
  public static final String INVALID_POOLS = "invalid resource pools were encountered";

  /** A request of a claim and the alternatives (itself, or its subrequests) that could meet it on this node. */
  private record Slot(ResourceClaim claim, List<Option> options) {}

  private record Option(DeviceRequest.Alternative alternative, List<Candidate> candidates) {
    long want() {
      return alternative.devices().allocationMode() == DeviceRequest.AllocationMode.ALL
          ? candidates.size() : alternative.devices().count();
    }
  }

  /** One device taken for a slot: whole, or a share of it ({@code consumed} present). */
  private record Taken(Candidate candidate, Optional<Map<String, Quantity>> consumed) {}

  /** The alternative and devices chosen for one slot. */
  private record Choice(Option option, List<Taken> devices) {}

  private record Candidate(String driver, String pool, Device device, List<DeviceTaint> taints) {
    String id() {
      return driver + "/" + pool + "/" + device.name();
    }
  }

  private final DraObjects dra;
  private final DeviceSelector cel;
  private final Features features;
  private final DeviceTaints taints;
  private final boolean honourTaints;

  public DeviceAllocator(DraObjects dra, DeviceSelector cel) {
    this(dra, cel, Features.DEFAULTS);
  }

  public DeviceAllocator(DraObjects dra, DeviceSelector cel, Features features) {
    this(dra, cel, features, true);
  }

  private DeviceAllocator(DraObjects dra, DeviceSelector cel, Features features, boolean honourTaints) {
    this.dra = dra;
    this.cel = cel;
    this.features = features;
    this.taints = new DeviceTaints(dra);
    this.honourTaints = honourTaints;
  }

  /** The same allocator blind to device taints: how a bound pod's earlier allocation is replayed. */
  public DeviceAllocator ignoringTaints() {
    return new DeviceAllocator(dra, cel, features, false);
  }

  /**
   * The first request whose class does not exist, in upstream's PreFilter words; a subrequest is
   * named {@code <request>/<subrequest>} ({@code dynamicresources.go}, PreFilter).
   */
  public Optional<String> missingClass(List<ResourceClaim> claims) {
    for (ResourceClaim c : claims) {
      for (DeviceRequest r : c.spec().requests()) {
        for (DeviceRequest.Alternative a : r.alternatives()) {
          String className = a.devices().deviceClassName();
          if (dra.deviceClass(className).isEmpty()) {
            return Optional.of("request " + a.resultName() + ": device class " + className + " does not exist");
          }
        }
      }
    }
    return Optional.empty();
  }

  /** Allocates {@code claims} (none of them allocated yet) on {@code node}, avoiding {@code inUse} devices. */
  public Outcome allocate(List<ResourceClaim> claims, String node, Set<String> inUse) {
    return allocate(claims, node, DevicesInUse.dedicated(inUse));
  }

  /** Allocates {@code claims} (none of them allocated yet) on {@code node}, besides what {@code inUse} holds. */
  public Outcome allocate(List<ResourceClaim> claims, String node, DevicesInUse inUse) {
    Optional<String> gated = gatedCapacityRequest(claims);
    if (gated.isPresent()) {
      return new Outcome.Failed(gated.get());
    }
    Search search = new Search(inUse, new SharedCounters(features.partitionableDevices()
        ? poolsOn(node) : List.of(), inUse));
    List<Candidate> onNode = new ArrayList<>();
    for (ResourceSlice s : dra.slices()) {
      if (s.perDeviceNodeSelection() && !features.partitionableDevices()) {
        continue;
      }
      for (Device d : s.devices()) {
        boolean partitioned = !d.consumesCounters().isEmpty();
        if (s.nodeOf(d).filter(node::equals).isPresent() && (features.partitionableDevices() || !partitioned)
            && !search.counters.invalid(s.driver(), s.pool())) {
          onNode.add(new Candidate(s.driver(), s.pool(), d, taints.of(s.driver(), s.pool(), d)));
        }
      }
    }
    List<Slot> slots = new ArrayList<>();
    for (ResourceClaim c : claims) {
      for (DeviceRequest r : c.spec().requests()) {
        List<Option> options = new ArrayList<>();
        for (DeviceRequest.Alternative a : r.alternatives()) {
          DeviceRequest want = a.devices();
          List<Candidate> matching = new ArrayList<>();
          for (Candidate cand : onNode) {
            CelDeviceSelector.Outcome o = matchAll(classSelectors(want), "class " + want.deviceClassName(), cand);
            if (o instanceof CelDeviceSelector.Outcome.Match) {
              o = matchAll(want.selectors(), "claim " + c.key(), cand);
            }
            switch (o) {
              case CelDeviceSelector.Outcome.Failed f -> {
                return new Outcome.Failed(f.message());
              }
              case CelDeviceSelector.Outcome.Match m -> {
                // Under All, a shared device with no room left for this request's share is passed over.
                if (want.allocationMode() != DeviceRequest.AllocationMode.ALL || !search.shareable(cand)
                    || search.shareFits(want, cand)) {
                  matching.add(cand);
                }
              }
              case CelDeviceSelector.Outcome.NoMatch n -> { }
            }
          }
          // A tainted device the request does not tolerate is not allocated to it; "All" then cannot be met
          // (allocator_testing.go: "tainted-two-devices", "tainted-all-devices-single").
          List<Candidate> tolerated = matching.stream()
              .filter(m -> !honourTaints || DeviceTaints.untolerated(m.taints(), want.tolerations()).isEmpty()).toList();
          boolean allBlocked = want.allocationMode() == DeviceRequest.AllocationMode.ALL
              && (matching.isEmpty() || tolerated.size() < matching.size()
              || matching.stream().anyMatch(m -> !search.shareable(m) && inUse.holds(m.id())));
          if (!allBlocked) {
            options.add(new Option(a, tolerated));
          }
        }
        if (options.isEmpty()) {
          return unsatisfiable(search);
        }
        slots.add(new Slot(c, options));
      }
    }
    Optional<String> tooMany = overClaimLimit(claims, slots);
    if (tooMany.isPresent()) {
      return new Outcome.Failed(tooMany.get());
    }
    List<Choice> chosen = new ArrayList<>();
    if (!search.slot(slots, 0, chosen)) {
      return unsatisfiable(search);
    }
    List<Allocation> out = new ArrayList<>();
    for (ResourceClaim c : claims) {
      List<Allocation.Result> results = new ArrayList<>();
      for (int i = 0; i < slots.size(); i++) {
        if (slots.get(i).claim() == c) {
          Choice choice = chosen.get(i);
          for (Taken t : choice.devices()) {
            Candidate cand = t.candidate();
            results.add(new Allocation.Result(choice.option().alternative().resultName(), cand.driver(), cand.pool(),
                cand.device().name(), t.consumed()));
          }
        }
      }
      out.add(new Allocation(c.key(), node, results));
    }
    return new Outcome.Allocated(out);
  }

  private static Outcome unsatisfiable(Search search) {
    return search.counters.anyInvalid() ? new Outcome.Failed(INVALID_POOLS) : new Outcome.Unsatisfiable();
  }

  /**
   * With DRAConsumableCapacity off, a request asking for capacity is an error ({@code allocator.go}:
   * {@code claim <claim>, request <r>: has capacity requests, but the DRAConsumableCapacity feature is disabled}).
   */
  private Optional<String> gatedCapacityRequest(List<ResourceClaim> claims) {
    if (features.consumableCapacity()) {
      return Optional.empty();
    }
    for (ResourceClaim c : claims) {
      for (DeviceRequest r : c.spec().requests()) {
        if (!r.capacity().isEmpty()) {
          return Optional.of("claim " + c.key() + ", request " + r.name()
              + ": has capacity requests, but the DRAConsumableCapacity feature is disabled");
        }
        for (DeviceRequest sub : r.firstAvailable()) {
          if (!sub.capacity().isEmpty()) {
            return Optional.of("claim " + c.key() + ", subrequest " + sub.name()
                + ": has capacity requests, but the DRAConsumableCapacity feature is disabled");
          }
        }
      }
    }
    return Optional.empty();
  }

  /** Every slice of each pool that has a device on {@code node}, wherever the slice is. */
  private List<ResourceSlice> poolsOn(String node) {
    Set<String> pools = new HashSet<>();
    for (ResourceSlice s : dra.slices()) {
      if (s.devices().stream().anyMatch(d -> s.nodeOf(d).filter(node::equals).isPresent())) {
        pools.add(SharedCounters.poolId(s.driver(), s.pool()));
      }
    }
    return dra.slices().stream().filter(s -> pools.contains(SharedCounters.poolId(s.driver(), s.pool()))).toList();
  }

  /**
   * Every selector true: a match; the first false: no match; an error names its owner and index as
   * upstream does ({@code claim default/c: selector #0: CEL runtime error: ...}), with CEL's own text.
   */
  private CelDeviceSelector.Outcome matchAll(List<String> selectors, String owner, Candidate cand) {
    for (int i = 0; i < selectors.size(); i++) {
      CelDeviceSelector.Outcome o = cel.evaluate(selectors.get(i), cand.driver(), cand.device());
      switch (o) {
        case CelDeviceSelector.Outcome.Failed f -> {
          return new CelDeviceSelector.Outcome.Failed(owner + ": selector #" + i + ": " + f.message());
        }
        case CelDeviceSelector.Outcome.NoMatch n -> {
          return n;
        }
        case CelDeviceSelector.Outcome.Match m -> { }
      }
    }
    return new CelDeviceSelector.Outcome.Match();
  }

  /**
   * {@code resourceapi.AllocationResultsMaxSize}: a claim's allocation holds at most 32 devices
   * (k8s.io/api resource/v1 types.go). The allocator sums, per claim, the fewest devices each request
   * could take (its first subrequest that can be met: the smallest count) and refuses the claim before
   * searching, in its words (structured/allocator.go: {@code claim %s: number of requested devices %d
   * exceeds the claim limit of %d}); it also bounds the search's depth.
   */
  static final int ALLOCATION_RESULTS_MAX_SIZE = 32;

  private static Optional<String> overClaimLimit(List<ResourceClaim> claims, List<Slot> slots) {
    for (ResourceClaim c : claims) {
      long devices = 0;
      for (Slot s : slots) {
        if (s.claim() == c) {
          devices += s.options().stream().mapToLong(Option::want).min().orElse(0);
        }
      }
      if (devices > ALLOCATION_RESULTS_MAX_SIZE) {
        return Optional.of("claim " + c.key() + ": number of requested devices " + devices
            + " exceeds the claim limit of " + ALLOCATION_RESULTS_MAX_SIZE);
      }
    }
    return Optional.empty();
  }

  private List<String> classSelectors(DeviceRequest r) {
    return dra.deviceClass(r.deviceClassName()).map(DeviceClass::selectors).orElse(List.of());
  }

  /**
   * One allocation attempt's state: devices taken whole, shares of shared devices and the pools'
   * counters, each taken as the search goes deeper and given back as it backtracks.
   */
  private final class Search {
    private final DevicesInUse inUse;
    private final SharedCounters counters;
    private final Set<String> whole = new HashSet<>();
    private final Map<String, Map<String, Quantity>> shares = new HashMap<>();
    /** Devices this attempt holds (whole or shared) and how many times, for the counters drawn once. */
    private final Map<String, Integer> holds = new HashMap<>();

    Search(DevicesInUse inUse, SharedCounters counters) {
      this.inUse = inUse;
      this.counters = counters;
      inUse.shared().forEach((id, used) -> shares.put(id, new HashMap<>(used)));
    }

    boolean shareable(Candidate c) {
      return features.consumableCapacity() && c.device().allowMultipleAllocations();
    }

    /** Whether the request's share of a shared device fits beside the shares already allocated. */
    boolean shareFits(DeviceRequest request, Candidate c) {
      return CapacityShare.of(request, c.driver(), c.device()).filter(s -> fits(c, s)).isPresent();
    }

    private boolean fits(Candidate c, Map<String, Quantity> share) {
      Map<String, Quantity> used = shares.getOrDefault(c.id(), Map.of());
      for (var e : share.entrySet()) {
        Quantity have = Quantity.parse(c.device().capacity().get(e.getKey()));
        if (used.getOrDefault(e.getKey(), Quantity.ZERO).plus(e.getValue()).compareTo(have) > 0) {
          return false;
        }
      }
      return true;
    }

    /** Takes {@code c} for {@code request}, whole or a share; empty, taking nothing, where it cannot. */
    Optional<Taken> take(DeviceRequest request, Candidate c) {
      String id = c.id();
      Optional<Map<String, Quantity>> share = Optional.empty();
      if (shareable(c)) {
        if (inUse.dedicated().contains(id) || whole.contains(id)) {
          return Optional.empty();
        }
        share = CapacityShare.of(request, c.driver(), c.device()).filter(s -> fits(c, s));
        if (share.isEmpty()) {
          return Optional.empty();
        }
      } else if (inUse.holds(id) || holds.containsKey(id)
          || features.consumableCapacity() && !CapacityShare.wholeMeets(request, c.driver(), c.device())) {
        return Optional.empty();
      }
      if (!inUse.holds(id) && !holds.containsKey(id) && !counters.take(c.driver(), c.pool(), c.device())) {
        return Optional.empty();
      }
      holds.merge(id, 1, Integer::sum);
      if (share.isEmpty()) {
        whole.add(id);
      } else {
        Map<String, Quantity> used = shares.computeIfAbsent(id, k -> new HashMap<>());
        share.get().forEach((k, v) -> used.merge(k, v, Quantity::plus));
      }
      return Optional.of(new Taken(c, share));
    }

    void give(Taken t) {
      String id = t.candidate().id();
      t.consumed().ifPresentOrElse(s -> s.forEach((k, v) -> shares.get(id).merge(k, v, Quantity::minus)),
          () -> whole.remove(id));
      if (holds.merge(id, -1, Integer::sum) == 0) {
        holds.remove(id);
        if (!inUse.holds(id)) {
          counters.give(t.candidate().driver(), t.candidate().pool(), t.candidate().device());
        }
      }
    }

    /** Meets slot {@code i} with its first option that leaves the later slots satisfiable. */
    boolean slot(List<Slot> slots, int i, List<Choice> chosen) {
      if (i == slots.size()) {
        return true;
      }
      for (Option option : slots.get(i).options()) {
        if (pick(slots, i, option, 0, new ArrayList<>(), chosen)) {
          return true;
        }
      }
      return false;
    }

    /** Chooses {@code option.want()} devices of slot {@code i} from position {@code from} on, then the later slots. */
    private boolean pick(List<Slot> slots, int i, Option option, int from, List<Taken> taken, List<Choice> chosen) {
      long want = option.want();
      if (taken.size() == want) {
        chosen.add(new Choice(option, List.copyOf(taken)));
        if (slot(slots, i + 1, chosen)) {
          return true;
        }
        chosen.removeLast();
        return false;
      }
      List<Candidate> cands = option.candidates();
      for (int k = from; k < cands.size(); k++) {
        if (cands.size() - k < want - taken.size()) {
          return false;
        }
        Optional<Taken> t = take(option.alternative().devices(), cands.get(k));
        if (t.isPresent()) {
          taken.add(t.get());
          if (pick(slots, i, option, k + 1, taken, chosen)) {
            return true;
          }
          taken.removeLast();
          give(t.get());
        }
      }
      return false;
    }
  }
}
