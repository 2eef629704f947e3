package io.gpufleet.engine.advise;

import io.gpufleet.engine.perf.Calibration;
import io.gpufleet.engine.perf.CardForecast;
import io.gpufleet.engine.perf.Colocation;
import io.gpufleet.engine.perf.Device;
import io.gpufleet.engine.perf.MemoryFit;
import io.gpufleet.engine.perf.ServiceDemand;
import io.gpufleet.engine.perf.SharingModel;
import io.gpufleet.engine.perf.Tenant;
import io.gpufleet.engine.perf.TenantForecast;
import io.gpufleet.model.advise.WorkloadProfile;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Runs a layout through the performance model and the memory check, device by device, at the
 * stated request rates times {@code rateScale}. Identical devices are forecast once (one instance
 * per advice; not shared between threads).
 */
final class LayoutForecast {

  record Result(List<MemoryFit.Shortfall> shortfalls, List<WorkloadOutcome> outcomes) {
    boolean fits() {
      return shortfalls.isEmpty();
    }

    boolean stable() {
      return outcomes.stream().allMatch(WorkloadOutcome::stable);
    }

    boolean sloMet() {
      return outcomes.stream().allMatch(WorkloadOutcome::sloMet);
    }

    boolean good() {
      return fits() && sloMet();
    }

    double worstP99() {
      return outcomes.stream().mapToDouble(WorkloadOutcome::p99Ms).max().orElse(0);
    }

    /** The worst p99 as a share of its objective (of the p99 itself when there is none). */
    double worstSloRatio() {
      double worst = 0;
      for (WorkloadOutcome o : outcomes) {
        worst = Math.max(worst, o.sloP99Ms().isPresent() ? o.p99Ms() / o.sloP99Ms().getAsDouble() : 0);
      }
      return worst;
    }
  }

  private record Key(String mode, String slice, List<String> workloads, double rateScale) {}

  /** The worst replica of a workload so far. */
  private static final class Worst {
    int replicas;
    double p50;
    double p99;
    boolean stable = true;

    void add(TenantForecast t) {
      replicas++;
      p50 = Math.max(p50, t.p50Ms());
      p99 = Math.max(p99, t.p99Ms());
      stable &= t.stable();
    }
  }

  private record DeviceResult(List<TenantForecast> tenants, List<MemoryFit.Shortfall> shortfalls) {}

  private final SharingModel model;
  private final GpuCatalog catalog;
  private final GpuModel gpu;
  private final Map<Key, DeviceResult> memo = new HashMap<>();

  LayoutForecast(SharingModel model, GpuCatalog catalog, GpuModel gpu) {
    this.model = model;
    this.catalog = catalog;
    this.gpu = gpu;
  }

  Calibration calibration() {
    return model.calibration();
  }

  Result run(Layout layout, double rateScale) {
    Device device = layout.slice().map(p -> Device.slice(gpu, p)).orElseGet(() -> Device.whole(gpu));
    List<MemoryFit.Shortfall> shortfalls = new ArrayList<>();
    Map<WorkloadProfile, Worst> worst = new LinkedHashMap<>();
    for (List<Replica> group : layout.devices()) {
      if (group.isEmpty()) {
        continue;
      }
      DeviceResult r = device(device, layout, group, rateScale);
      shortfalls.addAll(r.shortfalls());
      for (int i = 0; i < group.size(); i++) {
        worst.computeIfAbsent(group.get(i).profile(), k -> new Worst()).add(r.tenants().get(i));
      }
    }
    List<WorkloadOutcome> outcomes = new ArrayList<>();
    for (var e : worst.entrySet()) {
      WorkloadProfile w = e.getKey();
      Worst x = e.getValue();
      outcomes.add(new WorkloadOutcome(w.name(), x.replicas, x.p50, x.p99,
          w.slo().map(s -> OptionalDouble.of(s.p99Ms())).orElse(OptionalDouble.empty()), x.stable));
    }
    return new Result(shortfalls, outcomes);
  }

  private DeviceResult device(Device device, Layout layout, List<Replica> group, double rateScale) {
    Key key = new Key(layout.mode().label(), device.name(), group.stream().map(r -> r.profile().name()).toList(),
        rateScale);
    DeviceResult cached = memo.get(key);
    if (cached != null) {
      return rename(cached, group);
    }
    Colocation c = colocation(device, layout, group, rateScale);
    CardForecast f = model.openLoop(c);
    DeviceResult result = new DeviceResult(f.tenants(), MemoryFit.check(c));
    memo.put(key, result);
    return result;
  }

  private Colocation colocation(Device device, Layout layout, List<Replica> group, double rateScale) {
    List<Tenant> tenants = new ArrayList<>();
    for (Replica r : group) {
      WorkloadProfile w = r.profile();
      ServiceDemand d = ServiceDemand.of(w.demand(), device, model.calibration(), catalog);
      tenants.add(new Tenant(r.name(), d, w.memoryMiB(), w.load().ratePerSecond() * rateScale,
          w.load().burstiness().scv()));
    }
    return new Colocation(device, layout.mode(), tenants);
  }

  /**
   * The GPU memory shortfalls of a layout alone, as {@link #run} reports them, without forecasting
   * latencies: a layout that does not fit needs no queueing model, and the search meets thousands.
   */
  List<MemoryFit.Shortfall> shortfalls(Layout layout) {
    Device device = layout.slice().map(p -> Device.slice(gpu, p)).orElseGet(() -> Device.whole(gpu));
    List<MemoryFit.Shortfall> out = new ArrayList<>();
    for (List<Replica> group : layout.devices()) {
      if (!group.isEmpty()) {
        out.addAll(MemoryFit.check(colocation(device, layout, group, 1)));
      }
    }
    return out;
  }

  /** A cached device result speaks of the replicas it was computed for; shortfalls name these ones. */
  private static DeviceResult rename(DeviceResult r, List<Replica> group) {
    List<MemoryFit.Shortfall> s = new ArrayList<>();
    for (MemoryFit.Shortfall x : r.shortfalls()) {
      int i = indexOf(r.tenants(), x.tenant());
      s.add(new MemoryFit.Shortfall(i < 0 ? x.tenant() : group.get(i).name(), x.neededMiB(), x.availableMiB(), x.reason()));
    }
    return new DeviceResult(r.tenants(), s);
  }

  private static int indexOf(List<TenantForecast> tenants, String name) {
    for (int i = 0; i < tenants.size(); i++) {
      if (tenants.get(i).tenant().equals(name)) {
        return i;
      }
    }
    return -1;
  }
}
