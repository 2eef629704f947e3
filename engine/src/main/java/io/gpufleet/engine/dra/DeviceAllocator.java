package io.gpufleet.engine.dra;

import io.gpufleet.model.dra.Device;
import io.gpufleet.model.dra.DeviceClass;
import io.gpufleet.model.dra.DeviceRequest;
import io.gpufleet.model.dra.DeviceTaint;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.dra.ResourceSlice;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The structured-parameters allocator ({@code k8s.io/dynamic-resource-allocation/structured}) for
 * the requests the twin reads: every request of every claim is met on one node from its
 * node-local slices, each device going to at most one request; a device matches when every selector
 * of its class and of the request is true. {@code ExactCount} takes {@code count} devices;
 * {@code All} takes every matching device and needs at least one, none of them already allocated
 * (the API's documentation of {@code allocationMode}). A {@code firstAvailable} request is met by
 * the first of its subrequests, in order, that can be met together with the other requests; its
 * results name {@code <request>/<subrequest>}. Requests are met in order, devices tried in slice
 * order, backtracking (to the next device, then the next subrequest) when a later request cannot be met.
 * A device with a NoSchedule or NoExecute taint (its slice's or a DeviceTaintRule's) goes only to a
 * request or subrequest whose {@code tolerations} tolerate it ({@link DeviceTaints}).
 */
public final class DeviceAllocator {

  /** What allocating a pod's claims on one node came to. */
  public sealed interface Outcome {
    record Allocated(List<Allocation> allocations) implements Outcome {
      public Allocated {
        allocations = List.copyOf(allocations);
      }
    }

    /** Not on this node: upstream's {@code cannot allocate all claims}. */
    record Unsatisfiable() implements Outcome {}

    /** A selector failed to compile or evaluate: upstream aborts the cycle with this error. */
    record Failed(String message) implements Outcome {}
  }

  /** A request of a claim and the alternatives (itself, or its subrequests) that could meet it on this node. */
  private record Slot(ResourceClaim claim, List<Option> options) {}

  private record Option(DeviceRequest.Alternative alternative, List<Candidate> candidates) {
    long want() {
      return alternative.devices().allocationMode() == DeviceRequest.AllocationMode.ALL
          ? candidates.size() : alternative.devices().count();
    }
  }

  /** The alternative and devices chosen for one slot. */
  private record Choice(Option option, List<Candidate> devices) {}

  private record Candidate(String driver, String pool, Device device, List<DeviceTaint> taints) {
    String id() {
      return driver + "/" + pool + "/" + device.name();
    }
  }

  private final DraObjects dra;
  private final DeviceSelector cel;
  private final DeviceTaints taints;
  private final boolean honourTaints;

  public DeviceAllocator(DraObjects dra, DeviceSelector cel) {
    this(dra, cel, true);
  }

  private DeviceAllocator(DraObjects dra, DeviceSelector cel, boolean honourTaints) {
    this.dra = dra;
    this.cel = cel;
    this.taints = new DeviceTaints(dra);
    this.honourTaints = honourTaints;
  }

  /** The same allocator blind to device taints: how a bound pod's earlier allocation is replayed. */
  public DeviceAllocator ignoringTaints() {
    return new DeviceAllocator(dra, cel, false);
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
    List<Candidate> onNode = new ArrayList<>();
    for (ResourceSlice s : dra.slices()) {
      if (s.nodeName().filter(node::equals).isPresent()) {
        for (Device d : s.devices()) {
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
              case CelDeviceSelector.Outcome.Match m -> matching.add(cand);
              case CelDeviceSelector.Outcome.NoMatch n -> { }
            }
          }
          // A tainted device the request does not tolerate is not allocated to it; "All" then cannot be met
          // (allocator_testing.go: "tainted-two-devices", "tainted-all-devices-single").
          List<Candidate> tolerated = matching.stream()
              .filter(m -> !honourTaints || DeviceTaints.untolerated(m.taints(), want.tolerations()).isEmpty()).toList();
          boolean allBlocked = want.allocationMode() == DeviceRequest.AllocationMode.ALL
              && (matching.isEmpty() || tolerated.size() < matching.size()
              || matching.stream().anyMatch(m -> inUse.contains(m.id())));
          if (!allBlocked) {
            options.add(new Option(a, tolerated));
          }
        }
        if (options.isEmpty()) {
          return new Outcome.Unsatisfiable();
        }
        slots.add(new Slot(c, options));
      }
    }
    List<Choice> chosen = new ArrayList<>();
    if (!search(slots, 0, new HashSet<>(inUse), chosen)) {
      return new Outcome.Unsatisfiable();
    }
    List<Allocation> out = new ArrayList<>();
    for (ResourceClaim c : claims) {
      List<Allocation.Result> results = new ArrayList<>();
      for (int i = 0; i < slots.size(); i++) {
        if (slots.get(i).claim() == c) {
          Choice choice = chosen.get(i);
          for (Candidate cand : choice.devices()) {
            results.add(new Allocation.Result(choice.option().alternative().resultName(), cand.driver(), cand.pool(),
                cand.device().name()));
          }
        }
      }
      out.add(new Allocation(c.key(), node, results));
    }
    return new Outcome.Allocated(out);
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

  private List<String> classSelectors(DeviceRequest r) {
    return dra.deviceClass(r.deviceClassName()).map(DeviceClass::selectors).orElse(List.of());
  }

  /** Meets slot {@code i} with its first option that leaves the later slots satisfiable. */
  private static boolean search(List<Slot> slots, int i, Set<String> used, List<Choice> chosen) {
    if (i == slots.size()) {
      return true;
    }
    for (Option option : slots.get(i).options()) {
      if (pick(slots, i, option, 0, new ArrayList<>(), used, chosen)) {
        return true;
      }
    }
    return false;
  }

  /** Chooses {@code option.want()} free devices of slot {@code i} from position {@code from} on, then the later slots. */
  private static boolean pick(List<Slot> slots, int i, Option option, int from, List<Candidate> taken,
      Set<String> used, List<Choice> chosen) {
    long want = option.want();
    if (taken.size() == want) {
      chosen.add(new Choice(option, List.copyOf(taken)));
      if (search(slots, i + 1, used, chosen)) {
        return true;
      }
      chosen.removeLast();
      return false;
    }
    List<Candidate> cands = option.candidates();
    for (int k = from; k < cands.size(); k++) {
      Candidate c = cands.get(k);
      if (cands.size() - k < want - taken.size()) {
        return false;
      }
      if (used.add(c.id())) {
        taken.add(c);
        if (pick(slots, i, option, k + 1, taken, used, chosen)) {
          return true;
        }
        taken.removeLast();
        used.remove(c.id());
      }
    }
    return false;
  }

}
