package io.gpufleet.engine.scheduler.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.dra.Allocation;
import io.gpufleet.engine.dra.CelDeviceSelector;
import io.gpufleet.engine.dra.DeviceAllocator;
import io.gpufleet.engine.dra.DevicesInUse;
import io.gpufleet.model.dra.CounterSet;
import io.gpufleet.model.dra.Device;
import io.gpufleet.model.dra.DeviceClass;
import io.gpufleet.model.dra.DeviceRequest;
import io.gpufleet.model.dra.DeviceTaint;
import io.gpufleet.model.dra.DeviceToleration;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.RequestPolicy;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.dra.ResourceClaimSpec;
import io.gpufleet.model.dra.ResourceSlice;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The structured allocator's table ({@code allocator_testing.go}, TestAllocator), its partitionable-device
 * cases (DRAPartitionableDevices: shared counters, {@code consumesCounters}, per-device node selection)
 * and consumable-capacity cases (DRAConsumableCapacity: {@code allowMultipleAllocations},
 * {@code requestPolicy}, {@code capacity.requests}), with upstream's fixtures and expectations. A result
 * with a {@code shareID} is written with its consumed capacity ({@code share{capacity-0=1}}); an expected
 * {@code nil} or empty result is the allocator's unsatisfiable outcome. Cases with binding conditions,
 * claim constraints or node-selector devices are not translated: the twin refuses those fields when it
 * reads them. The two partitionable-device cases with device taints ({@link #taintedPartitionable}) are
 * counted with the device taint cases.
 */
final class DraPartitionCases {
  private DraPartitionCases() {}

  private static final String FILE = DraAllocatorCases.FILE;
  private static final String PLUGIN = "DRA allocator";
  /** The row {@link DraTaintCases} counts in. */
  private static final String TAINTS = "DRA device taints";
  private static final String NODE = "node-1";
  private static final String A = "driver-a";

  private static final DeviceAllocator.Features PARTITIONABLE_OFF = new DeviceAllocator.Features(false, true);
  private static final DeviceAllocator.Features CONSUMABLE_OFF = new DeviceAllocator.Features(true, false);

  /** {@code class(name, driver)}. */
  private static DeviceClass cls(String name, String driver) {
    return new DeviceClass(name, List.of("device.driver == \"" + driver + "\""));
  }

  /** {@code classWithAllowMultipleAllocations(name, driver, multi)}. */
  private static DeviceClass multiClass(String name, String driver, boolean multi) {
    return new DeviceClass(name, List.of("device.driver == \"" + driver + "\" && device.allowMultipleAllocations == "
        + multi));
  }

  private static final List<DeviceClass> CLASS_A = List.of(cls("class-a", A));

  private static Map<String, Quantity> q(String... kv) {
    Map<String, Quantity> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], Quantity.parse(kv[i + 1]));
    }
    return m;
  }

  /** A device under construction, as upstream's {@code device(...)} with its {@code with...} wrappers. */
  private record Dev(String name, Map<String, String> capacity, List<CounterSet> counters, Optional<String> node,
      boolean multi, Map<String, RequestPolicy> policies, Map<String, String> strings) {
    static Dev of(String name) {
      return new Dev(name, Map.of(), List.of(), Optional.empty(), false, Map.of(), Map.of());
    }

    Dev capacity(String... kv) {
      Map<String, String> c = new TreeMap<>(capacity);
      for (int i = 0; i < kv.length; i += 2) {
        c.put(kv[i], kv[i + 1]);
      }
      return new Dev(name, c, counters, node, multi, policies, strings);
    }

    /** {@code withDeviceCounterConsumption}. */
    Dev consumes(String set, String... kv) {
      List<CounterSet> c = new ArrayList<>(counters);
      c.add(new CounterSet(set, q(kv)));
      return new Dev(name, capacity, c, node, multi, policies, strings);
    }

    /** {@code device(name, fromCounters, ...)}: capacities equal to the counters consumed. */
    Dev fromCounters() {
      Dev d = this;
      for (CounterSet c : counters) {
        for (var e : c.counters().entrySet()) {
          d = d.capacity(e.getKey(), e.getValue().amount().toPlainString());
        }
      }
      return d;
    }

    Dev on(String nodeName) {
      return new Dev(name, capacity, counters, Optional.of(nodeName), multi, policies, strings);
    }

    Dev shareable() {
      return new Dev(name, capacity, counters, node, true, policies, strings);
    }

    /** {@code withCapacityRequestPolicyRange}: default 2, range min 2, step 2, max 4. */
    Dev range(String capacityName, String value) {
      return policy(capacityName, value, new RequestPolicy(Optional.of(Quantity.of(2)), List.of(),
          Optional.of(Quantity.of(2)), Optional.of(Quantity.of(4)), Optional.of(Quantity.of(2))));
    }

    /** {@code withCapacityRequestPolicyValidValues}: the default first, then the others. */
    Dev validValues(String capacityName, String value, long def, long... more) {
      List<Quantity> values = new ArrayList<>(List.of(Quantity.of(def)));
      for (long m : more) {
        values.add(Quantity.of(m));
      }
      return policy(capacityName, value, new RequestPolicy(Optional.of(Quantity.of(def)), values, Optional.empty(),
          Optional.empty(), Optional.empty()));
    }

    private Dev policy(String capacityName, String value, RequestPolicy p) {
      Map<String, RequestPolicy> ps = new TreeMap<>(policies);
      ps.put(capacityName, p);
      return new Dev(name, capacity, counters, node, multi, ps, strings).capacity(capacityName, value);
    }

    Dev attr(String k, String v) {
      Map<String, String> s = new TreeMap<>(strings);
      s.put(k, v);
      return new Dev(name, capacity, counters, node, multi, policies, s);
    }

    Device device() {
      Map<String, io.gpufleet.model.dra.AttributeValue> a = new TreeMap<>();
      strings.forEach((k, v) -> a.put(k, v.equals("true") || v.equals("false")
          ? new io.gpufleet.model.dra.AttributeValue.Bool(Boolean.parseBoolean(v))
          : new io.gpufleet.model.dra.AttributeValue.Str(v)));
      return new Device(name, a, capacity, counters, node, multi, policies);
    }
  }

  /** {@code sliceWithDevices(name, node-1, pool, driver, ...)}. */
  private static ResourceSlice devices(String name, String node, String pool, Dev... devs) {
    return new ResourceSlice(name, A, pool, Optional.of(node), List.of(devs).stream().map(Dev::device).toList());
  }

  /** {@code sliceWithDevices(name, nodeSelectionPerDevice, pool, driver, ...)}. */
  private static ResourceSlice perDevice(String name, String pool, Dev... devs) {
    return new ResourceSlice(name, A, pool, Optional.empty(), List.of(devs).stream().map(Dev::device).toList(), true,
        List.of());
  }

  /** {@code sliceWithCounterSets(name, node, pool, driver, counterSet(...)...)}. */
  private static ResourceSlice counters(String name, Optional<String> node, String pool, CounterSet... sets) {
    return new ResourceSlice(name, A, pool, node, List.of(), node.isEmpty(), List.of(sets));
  }

  private static CounterSet set(String name, String... kv) {
    return new CounterSet(name, q(kv));
  }

  private static DeviceRequest req(String name, long count, String... selectors) {
    return new DeviceRequest(name, "class-a", List.of(selectors), DeviceRequest.AllocationMode.EXACT_COUNT, count);
  }

  private static DeviceRequest all(String name) {
    return new DeviceRequest(name, "class-a", List.of(), DeviceRequest.AllocationMode.ALL, 0);
  }

  private static DeviceRequest cap(DeviceRequest r, String amount) {
    return r.withCapacity(q("capacity-0", amount));
  }

  private static String memAtLeast(String amount) {
    return "device.capacity[\"driver-a\"].memory.compareTo(quantity(\"" + amount + "\")) >= 0";
  }

  private static ResourceClaim claim(String name, DeviceRequest... requests) {
    return new ResourceClaim("default", name, new ResourceClaimSpec(List.of(requests)));
  }

  private static List<ResourceClaim> claims(ResourceClaim... c) {
    return List.of(c);
  }

  /** One run: classes, claims, slices, what is in use and the gates. */
  private record Run(List<DeviceClass> classes, List<ResourceClaim> claims, List<ResourceSlice> slices,
      DevicesInUse inUse, DeviceAllocator.Features features) {
    DeviceAllocator.Outcome outcome() {
      DraObjects dra = new DraObjects(classes, claims, List.of(), slices);
      return new DeviceAllocator(dra, new CelDeviceSelector(), features).allocate(claims, NODE, inUse);
    }

    /** Each claim's results, {@code request driver/pool/device} and a share's consumption; empty for nil. */
    Optional<List<List<String>>> results() {
      if (!(outcome() instanceof DeviceAllocator.Outcome.Allocated a)) {
        assertThat(outcome()).isInstanceOf(DeviceAllocator.Outcome.Unsatisfiable.class);
        return Optional.empty();
      }
      List<List<String>> out = new ArrayList<>();
      for (Allocation al : a.allocations()) {
        out.add(al.results().stream().map(r -> r.request() + " " + r.deviceId() + r.consumedCapacity()
            .map(DraPartitionCases::share).orElse("")).toList());
      }
      return Optional.of(out);
    }
  }

  private static String share(Map<String, Quantity> consumed) {
    StringBuilder b = new StringBuilder(" share{");
    consumed.forEach((k, v) -> b.append(b.length() > 7 ? "," : "").append(k).append('=')
        .append(v.amount().toPlainString()));
    return b.append('}').toString();
  }

  private static Run run(List<DeviceClass> classes, List<ResourceClaim> claims, ResourceSlice... slices) {
    return new Run(classes, claims, List.of(slices), DevicesInUse.NONE, DeviceAllocator.Features.DEFAULTS);
  }

  private static Run run(List<ResourceClaim> claims, ResourceSlice... slices) {
    return run(CLASS_A, claims, slices);
  }

  private static Run inUse(Run r, String... devices) {
    return new Run(r.classes(), r.claims(), r.slices(), DevicesInUse.dedicated(Set.of(devices)), r.features());
  }

  private static Run shared(Run r, String device, String capacity0) {
    return new Run(r.classes(), r.claims(), r.slices(),
        new DevicesInUse(Set.of(), Map.of(device, q("capacity-0", capacity0))), r.features());
  }

  private static Run gates(Run r, DeviceAllocator.Features f) {
    return new Run(r.classes(), r.claims(), r.slices(), r.inUse(), f);
  }

  private static Runnable expect(Run r, List<List<String>> want) {
    return () -> assertThat(r.results()).contains(want);
  }

  private static Runnable expectNil(Run r) {
    return () -> assertThat(r.results()).isEmpty();
  }

  private static Runnable expectError(Run r, String substring) {
    return () -> assertThat(r.outcome()).isInstanceOfSatisfying(DeviceAllocator.Outcome.Failed.class,
        f -> assertThat(f.message()).contains(substring));
  }

  private static final Optional<String> ON_NODE = Optional.of(NODE);
  private static final String INVALID = "invalid resource pools were encountered";

  private static String id(String pool, String device) {
    return A + "/" + pool + "/" + device;
  }

  static List<UpstreamCase> cases() {
    List<UpstreamCase> c = new ArrayList<>();
    partitionable(c);
    consumable(c);
    taintedPartitionable(c);
    return c;
  }

  private static void add(List<UpstreamCase> c, String name, Runnable check) {
    c.add(UpstreamCase.of(PLUGIN, FILE, name, check));
  }

  private static void partitionable(List<UpstreamCase> c) {
    CounterSet mem8 = set("counter-set-1", "memory", "8Gi");
    Dev d1 = Dev.of("device-1").consumes("counter-set-1", "memory", "4Gi").fromCounters();
    Dev d2 = Dev.of("device-2").consumes("counter-set-1", "memory", "6Gi").fromCounters();
    Dev d3 = Dev.of("device-3").consumes("counter-set-1", "memory", "4Gi").fromCounters();
    DeviceRequest firstAvailable = DeviceRequest.firstAvailable("req-1", List.of(
        req("subReq-0", 1, memAtLeast("6Gi")), req("subReq-1", 1, memAtLeast("4Gi"))));
    add(c, "partitionable-devices-single-device", expect(run(claims(claim("claim-0", req("req-0", 1))),
        devices("slice-1", NODE, "pool-1", Dev.of("device-1").consumes("counter-set-1", "memory", "4Gi")),
        counters("slice-2", ON_NODE, "pool-1", mem8)), List.of(List.of("req-0 driver-a/pool-1/device-1"))));
    add(c, "partitionable-devices-prioritized-list", expect(run(claims(claim("claim-0", req("req-0", 1),
        firstAvailable)), devices("slice-1", NODE, "pool-1", d1, d2, d3), counters("slice-2", ON_NODE, "pool-1", mem8)),
        List.of(List.of("req-0 driver-a/pool-1/device-1", "req-1/subReq-1 driver-a/pool-1/device-3"))));
    add(c, "partitionable-devices-multiple-devices", expect(run(claims(claim("claim-0", req("req-0", 1),
        req("req-1", 1))), devices("slice-1", NODE, "pool-1", d1, d2, d3), counters("slice-2", ON_NODE, "pool-1", mem8)),
        List.of(List.of("req-0 driver-a/pool-1/device-1", "req-1 driver-a/pool-1/device-3"))));
    add(c, "partitionable-devices-multiple-capacity-pools", expect(run(claims(claim("claim-0", req("req-0", 1),
        firstAvailable)), devices("slice-1", NODE, "pool-1",
            Dev.of("device-1").consumes("counter-set-1", "memory", "4Gi").consumes("counter-set-2", "cpus", "4")
                .fromCounters(),
            Dev.of("device-2").consumes("counter-set-1", "memory", "6Gi").consumes("counter-set-2", "cpus", "6")
                .fromCounters(),
            Dev.of("device-3").consumes("counter-set-1", "memory", "4Gi").consumes("counter-set-2", "cpus", "4")
                .fromCounters()),
        counters("slice-2", ON_NODE, "pool-1", set("counter-set-1", "memory", "18Gi"), set("counter-set-2", "cpus", "8"))),
        List.of(List.of("req-0 driver-a/pool-1/device-1", "req-1/subReq-1 driver-a/pool-1/device-3"))));
    add(c, "partitionable-devices-multiple-counters", expect(run(claims(claim("claim-0", req("req-0", 1),
        req("req-1", 1))), devices("slice-1", NODE, "pool-1",
            Dev.of("device-1").consumes("counter-set-1", "memory", "4Gi", "cpus", "6")
                .consumes("counter-set-2", "cpus", "4", "memory", "2Gi").fromCounters(),
            Dev.of("device-2").consumes("counter-set-1", "memory", "6Gi", "cpus", "4")
                .consumes("counter-set-2", "cpus", "6", "memory", "6Gi").fromCounters(),
            Dev.of("device-3").consumes("counter-set-1", "memory", "4Gi", "cpus", "4")
                .consumes("counter-set-2", "cpus", "4", "memory", "4Gi").fromCounters()),
        counters("slice-2", ON_NODE, "pool-1", set("counter-set-1", "cpus", "8", "memory", "18Gi"),
            set("counter-set-2", "cpus", "12", "memory", "18Gi"))),
        List.of(List.of("req-0 driver-a/pool-1/device-2", "req-1 driver-a/pool-1/device-3"))));
    CounterSet big = set("counter-set-1", "cpus", "8", "memory", "18Gi");
    add(c, "partitionable-devices-multiple-pools", expect(inUse(run(claims(claim("claim-0", req("req-0", 1),
        req("req-1", 1))),
        devices("slice-1", NODE, "pool-1", Dev.of("device-1").consumes("counter-set-1", "cpus", "6", "memory", "4Gi")
                .fromCounters(),
            Dev.of("device-2").consumes("counter-set-1", "cpus", "4", "memory", "6Gi").fromCounters(),
            Dev.of("device-3").consumes("counter-set-1", "cpus", "4", "memory", "4Gi").fromCounters()),
        counters("slice-2", ON_NODE, "pool-1", big),
        devices("slice-3", NODE, "pool-2", Dev.of("device-1").consumes("counter-set-1", "cpus", "6", "memory", "4Gi")
                .fromCounters(),
            Dev.of("device-2").consumes("counter-set-1", "cpus", "1", "memory", "7Gi").fromCounters(),
            Dev.of("device-3").consumes("counter-set-1", "cpus", "1", "memory", "7Gi").fromCounters()),
        counters("slice-4", ON_NODE, "pool-2", big)),
        id("pool-1", "device-2"), id("pool-1", "device-3"), id("pool-2", "device-1")),
        List.of(List.of("req-0 driver-a/pool-2/device-2", "req-1 driver-a/pool-2/device-3"))));
    add(c, "partitionable-devices-unused-counters-in-counter-set", expect(run(claims(claim("claim-0", req("req-0", 2))),
        devices("slice-1", NODE, "pool-1", Dev.of("device-1").consumes("counter-set-1", "memory", "5Gi"),
            Dev.of("device-2").consumes("counter-set-1", "memory", "4Gi"),
            Dev.of("device-3").consumes("counter-set-1", "memory", "4Gi")),
        counters("slice-2", ON_NODE, "pool-1", set("counter-set-1", "memory", "8Gi", "unused", "1Gi"))),
        List.of(List.of("req-0 driver-a/pool-1/device-2", "req-0 driver-a/pool-1/device-3"))));
    CounterSet mem18 = set("counter-set-1", "memory", "18Gi");
    add(c, "partitionable-devices-no-capacity-available", expectNil(inUse(run(claims(claim("claim-0", req("req-0", 1))),
        devices("slice-1", NODE, "pool-1", d1, Dev.of("device-2").consumes("counter-set-1", "memory", "16Gi")
            .fromCounters()), counters("slice-2", ON_NODE, "pool-1", mem18)), id("pool-1", "device-2"))));
    add(c, "partitionable-devices-overallocated-capacity-pool", expectNil(inUse(run(claims(claim("claim-0",
        req("req-0", 1))), devices("slice-1", NODE, "pool-1", d1, Dev.of("device-2")
            .consumes("counter-set-1", "memory", "20Gi").fromCounters()),
        counters("slice-2", ON_NODE, "pool-1", mem18)), id("pool-1", "device-2"))));
    add(c, "partitionable-devices-disabled-device-consumes-counters", expectNil(gates(run(claims(claim("claim-0",
        req("req-0", 1))), devices("slice-1", NODE, "pool-1", Dev.of("device-1").consumes("counter-set-1", "memory",
            "4Gi")), counters("slice-2", ON_NODE, "pool-1", mem18)), PARTITIONABLE_OFF)));
    add(c, "partitionable-devices-disabled-other-device-do-not-consume-counters", expect(gates(run(claims(
        claim("claim-0", req("req-0", 1))), devices("slice-1", NODE, "pool-1", Dev.of("device-1")
            .consumes("counter-set-1", "memory", "4Gi"), Dev.of("device-2")),
        counters("slice-2", ON_NODE, "pool-1", mem18)), PARTITIONABLE_OFF),
        List.of(List.of("req-0 driver-a/pool-1/device-2"))));
    add(c, "partitionable-devices-disabled-per-device-node-selection", expectNil(gates(run(claims(claim("claim-0",
        req("req-0", 1))), perDevice("slice-1", "pool-1", Dev.of("device-2").on(NODE))), PARTITIONABLE_OFF)));
    add(c, "partitionable-devices-per-device-node-selection-nodename", expect(run(claims(claim("claim-0",
        DeviceRequest.firstAvailable("req-0", List.of(req("subReq-0", 1, memAtLeast("6Gi")),
            req("subReq-1", 1, memAtLeast("4Gi")))))),
        perDevice("slice-1", "pool-1", d1.on(NODE), d2.on("node-2")),
        counters("slice-2", Optional.empty(), "pool-1", mem18)),
        List.of(List.of("req-0/subReq-1 driver-a/pool-1/device-1"))));
    add(c, "partitionable-devices-with-attribute-selector", expect(run(claims(claim("claim-0", req("req-0", 2),
        req("req-1", 1, "device.attributes[\"driver-a\"].special"))),
        devices("slice-1", NODE, "pool-1",
            Dev.of("device-1").attr("special", "true").consumes("counter-set-1", "cpu1", "1")
                .consumes("counter-set-2", "mem", "10Gi"),
            Dev.of("device-2").attr("special", "false").consumes("counter-set-1", "cpu2", "1")
                .consumes("counter-set-2", "mem", "10Gi"),
            Dev.of("device-3").attr("special", "false").consumes("counter-set-1", "cpu3", "1")
                .consumes("counter-set-2", "mem", "10Gi")),
        counters("slice-2", ON_NODE, "pool-1", set("counter-set-1", "cpu1", "1", "cpu2", "1", "cpu3", "1"),
            set("counter-set-2", "mem", "30Gi"))),
        List.of(List.of("req-0 driver-a/pool-1/device-2", "req-0 driver-a/pool-1/device-3",
            "req-1 driver-a/pool-1/device-1"))));
    add(c, "partitionable-devices-same-counter-set-name-in-different-resource-slices", expectError(run(claims(
        claim("claim-0", req("req-0", 1))), devices("slice-1", NODE, "pool-1", Dev.of("device-1")),
        counters("slice-2", ON_NODE, "pool-1", set("counter-set-1")),
        devices("slice-3", NODE, "pool-1", Dev.of("device-2")),
        counters("slice-4", ON_NODE, "pool-1", set("counter-set-1"))), INVALID));
    add(c, "partitionable-devices-device-counter-consumption-references-unknown-counter-set", expectError(run(claims(
        claim("claim-0", req("req-0", 1))), devices("slice-1", NODE, "pool-1", Dev.of("device-1")
            .consumes("counter-set-2")), counters("slice-2", ON_NODE, "pool-1", set("counter-set-1"))), INVALID));
    add(c, "partitionable-devices-device-counter-consumption-references-unknown-counter-in-counter-set",
        expectError(run(claims(claim("claim-0", req("req-0", 1))), devices("slice-1", NODE, "pool-1",
            Dev.of("device-1").consumes("counter-set-1", "memory", "8Gi")),
            counters("slice-2", ON_NODE, "pool-1", set("counter-set-1", "other-memory", "8Gi"))), INVALID));
    add(c, "partitionable-devices-device-counter-consumption-references-counter-set-in-other-pool",
        expectError(run(claims(claim("claim-0", req("req-0", 1))), devices("slice-1", NODE, "pool-1",
            Dev.of("device-1").consumes("counter-set-1", "memory", "8Gi")),
            counters("slice-2", ON_NODE, "pool-2", set("counter-set-1", "memory", "8Gi"))), INVALID));
    add(c, "partitionable-devices-devices-on-different-nodes-consume-same-counter-set", expect(inUse(run(claims(
        claim("claim-0", DeviceRequest.firstAvailable("req-0", List.of(req("subReq-0", 1, memAtLeast("6Gi")),
            req("subReq-1", 1, memAtLeast("2Gi")))))),
        counters("slice-1", ON_NODE, "pool-1", mem8),
        devices("slice-2", NODE, "pool-1", Dev.of("device-1").consumes("counter-set-1", "memory", "6Gi").fromCounters(),
            Dev.of("device-2").consumes("counter-set-1", "memory", "2Gi").fromCounters()),
        devices("slice-3", "node-2", "pool-1", Dev.of("device-3").consumes("counter-set-1", "memory", "6Gi"))),
        id("pool-1", "device-3")), List.of(List.of("req-0/subReq-1 driver-a/pool-1/device-2"))));
    add(c, "partitionable-devices-validation-error-on-non-targeting-slice", expectError(run(claims(claim("claim-0",
        req("req-0", 1))), counters("slice-1", ON_NODE, "pool-1", mem8),
        devices("slice-2", NODE, "pool-1", Dev.of("device-1").consumes("counter-set-1", "memory", "6Gi").fromCounters()),
        devices("slice-3", "node-2", "pool-1", Dev.of("device-3").consumes("counter-set-2", "memory", "6Gi"))),
        INVALID));
  }

  /**
   * The partitionable-device cases with device taints (DRAPartitionableDevices and DRADeviceTaints):
   * "partitionable-devices-with-binding-conditions-and-taints" and its "-tolerated" twin. Upstream's
   * devices also carry binding conditions (DRADeviceBindingConditions), which the twin does not model
   * (it refuses {@code bindingConditions} when it reads a slice), so the devices are given without them.
   * They do not decide either outcome: the claim asks for two devices and the pool has two, so the
   * allocator's order among them is moot, and a device whose taint is not tolerated cannot be used at
   * all. Compared, as in {@link DraTaintCases}: which devices are allocated, not the results'
   * {@code bindingConditions} or {@code tolerations}.
   */
  private static void taintedPartitionable(List<UpstreamCase> c) {
    DeviceTaint key1 = new DeviceTaint("key1", "value1", DeviceTaint.Effect.NO_SCHEDULE);
    // tolerationNoScheduleKey1: Exists key1, NoSchedule.
    DeviceToleration tolerateKey1 = new DeviceToleration("key1", DeviceToleration.Operator.EXISTS, "",
        Optional.of(DeviceTaint.Effect.NO_SCHEDULE), Optional.empty());
    Device tainted = Dev.of("device-1").consumes("counter-set-1", "memory", "4Gi").fromCounters().device()
        .withTaints(List.of(key1));
    Device plain = Dev.of("device-2").consumes("counter-set-1", "memory", "4Gi").fromCounters().device();
    ResourceSlice devices = new ResourceSlice("slice-1", A, "pool-1", ON_NODE, List.of(tainted, plain));
    ResourceSlice counters = counters("slice-2", ON_NODE, "pool-1", set("counter-set-1", "memory", "8Gi"));
    c.add(UpstreamCase.of(TAINTS, FILE, "partitionable-devices-with-binding-conditions-and-taints",
        expectNil(run(claims(claim("claim-0", req("req-0", 2))), devices, counters))));
    c.add(UpstreamCase.of(TAINTS, FILE, "partitionable-devices-with-binding-conditions-and-taints-tolerated",
        expect(run(claims(claim("claim-0", req("req-0", 2).withTolerations(List.of(tolerateKey1)))), devices,
            counters), List.of(List.of("req-0 driver-a/pool-1/device-1", "req-0 driver-a/pool-1/device-2")))));
  }

  private static void consumable(List<UpstreamCase> c) {
    List<DeviceClass> multi = List.of(multiClass("class-a", A, true));
    List<DeviceClass> dedicated = List.of(multiClass("class-a", A, false));
    Dev one = Dev.of("device-1").capacity("capacity-0", "1").shareable();
    add(c, "consumable-capacity-disabled-feature", expectError(gates(run(claims(claim("claim-0",
        cap(req("req-0", 1), "1"))), devices("slice-1", NODE, "pool-1", Dev.of("device-1"))), CONSUMABLE_OFF),
        "request req-0: has capacity requests, but the DRAConsumableCapacity feature is disabled"));
    add(c, "consumable-capacity-disabled-feature-with-prioritized-list", expectError(gates(run(claims(claim("claim-0",
        DeviceRequest.firstAvailable("req-0", List.of(cap(req("subReq-0", 1), "1"), cap(req("subReq-1", 1), "1"))))),
        devices("slice-1", NODE, "pool-1", Dev.of("device-1"))), CONSUMABLE_OFF),
        "subrequest subReq-0: has capacity requests, but the DRAConsumableCapacity feature is disabled"));
    add(c, "consumable-capacity-multi-allocatable-device-with-missing-capacity-request", expectNil(run(claims(
        claim("claim-0", cap(req("req-0", 1), "1"))), devices("slice-1", NODE, "pool-1",
            Dev.of("device-1").capacity("capacity-1", "1").shareable()))));
    add(c, "consumable-capacity-multi-allocatable-device-allocation-mode-all-with-missing-capacity-request",
        expectNil(run(multi, claims(claim("claim-0", cap(all("req-0"), "1"))), devices("slice-1", NODE, "pool-1",
            Dev.of("device-1").capacity("capacity-1", "1").shareable()))));
    add(c, "consumable-capacity-multi-allocatable-device-without-capacity-without-capacity-request", expect(run(multi,
        claims(claim("claim-0", req("req-0", 1)), claim("claim-1", req("req-0", 1))),
        devices("slice-1", NODE, "pool-1", Dev.of("device-1").shareable())),
        List.of(List.of("req-0 driver-a/pool-1/device-1 share{}"), List.of("req-0 driver-a/pool-1/device-1 share{}"))));
    add(c, "consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request", expect(run(multi,
        claims(claim("claim-0", req("req-0", 1)), claim("claim-1", req("req-0", 1))),
        devices("slice-1", NODE, "pool-1", one, Dev.of("device-2").capacity("capacity-0", "1").shareable())),
        List.of(List.of("req-0 driver-a/pool-1/device-1 share{capacity-0=1}"),
            List.of("req-0 driver-a/pool-1/device-2 share{capacity-0=1}"))));
    add(c, "consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request-block",
        expectNil(run(multi, claims(claim("claim-0", req("req-0", 1)), claim("claim-1", req("req-0", 1))),
            devices("slice-1", NODE, "pool-1", Dev.of("device-1").capacity("capacity-0", "2").shareable()))));
    add(c, "consumable-capacity-multi-allocatable-device-without-policy-with-capacity-request", expect(run(multi,
        claims(claim("claim-0", cap(req("req-0", 1), "1")), claim("claim-1", cap(req("req-0", 1), "1"))),
        devices("slice-1", NODE, "pool-1", Dev.of("device-1").capacity("capacity-0", "2").shareable())),
        List.of(List.of("req-0 driver-a/pool-1/device-1 share{capacity-0=1}"),
            List.of("req-0 driver-a/pool-1/device-1 share{capacity-0=1}"))));
    Dev range4 = Dev.of("device-1").shareable().range("capacity-0", "4");
    add(c, "consumable-capacity-multi-allocatable-device-with-policy-without-capacity-request", expect(run(multi,
        claims(claim("claim-0", req("req-0", 1)), claim("claim-1", req("req-0", 1))),
        devices("slice-1", NODE, "pool-1", range4)),
        List.of(List.of("req-0 driver-a/pool-1/device-1 share{capacity-0=2}"),
            List.of("req-0 driver-a/pool-1/device-1 share{capacity-0=2}"))));
    Dev zero = Dev.of("device-1").shareable().validValues("capacity-0", "1", 0);
    add(c, "consumable-capacity-multi-allocatable-device-with-zero-request-policy", expect(run(multi,
        claims(claim("claim-0", req("req-0", 1)), claim("claim-1", req("req-0", 1))),
        devices("slice-1", NODE, "pool-1", zero)),
        List.of(List.of("req-0 driver-a/pool-1/device-1 share{capacity-0=0}"),
            List.of("req-0 driver-a/pool-1/device-1 share{capacity-0=0}"))));
    add(c, "consumable-capacity-multi-allocatable-device-violates-zero-request-policy", expectNil(run(multi,
        claims(claim("claim-0", cap(req("req-0", 1), "1"))), devices("slice-1", NODE, "pool-1", zero))));
    add(c, "consumable-capacity-multi-allocatable-device-with-range-policy-with-capacity-request", expect(run(multi,
        claims(claim("claim-0", cap(req("req-0", 1), "1")), claim("claim-1", cap(req("req-0", 1), "1"))),
        devices("slice-1", NODE, "pool-1", range4)),
        List.of(List.of("req-0 driver-a/pool-1/device-1 share{capacity-0=2}"),
            List.of("req-0 driver-a/pool-1/device-1 share{capacity-0=2}"))));
    add(c, "consumable-capacity-multi-allocatable-device-with-range-policy-step", expect(run(multi,
        claims(claim("claim-0", cap(req("req-0", 1), "3"))), devices("slice-1", NODE, "pool-1", range4)),
        List.of(List.of("req-0 driver-a/pool-1/device-1 share{capacity-0=4}"))));
    add(c, "consumable-capacity-multi-allocatable-device-with-valid-values-policy", expect(run(multi,
        claims(claim("claim-0", cap(req("req-0", 1), "2"))), devices("slice-1", NODE, "pool-1",
            Dev.of("device-1").shareable().validValues("capacity-0", "4", 1, 2))),
        List.of(List.of("req-0 driver-a/pool-1/device-1 share{capacity-0=2}"))));
    add(c, "consumable-capacity-multi-allocatable-device-with-valid-values-policy-round-up", expect(run(multi,
        claims(claim("claim-0", cap(req("req-0", 1), "2"))), devices("slice-1", NODE, "pool-1",
            Dev.of("device-1").shareable().validValues("capacity-0", "3", 1, 3))),
        List.of(List.of("req-0 driver-a/pool-1/device-1 share{capacity-0=3}"))));
    Dev range2 = Dev.of("device-1").shareable().range("capacity-0", "2");
    add(c, "consumable-capacity-multi-allocatable-device-with-exceeded-consumable-capacity-request", expectNil(run(multi,
        claims(claim("claim-0", cap(req("req-0", 1), "1")), claim("claim-1", cap(req("req-0", 1), "2"))),
        devices("slice-1", NODE, "pool-1", range2))));
    add(c, "consumable-capacity-multi-allocatable-device-with-request-over-max-sharing-policy", expectNil(run(multi,
        claims(claim("claim-0", cap(req("req-0", 1), "6"))), devices("slice-1", NODE, "pool-1",
            Dev.of("device-1").shareable().range("capacity-0", "10")))));
    add(c, "consumable-capacity-multi-allocatable-device-with-allocated-capacity-use-remaining", expect(shared(run(multi,
        claims(claim("claim-0", cap(req("req-0", 1), "2"))), devices("slice-1", NODE, "pool-1", range4)),
        id("pool-1", "device-1"), "2"), List.of(List.of("req-0 driver-a/pool-1/device-1 share{capacity-0=2}"))));
    add(c, "consumable-capacity-multi-allocatable-device-with-allocated-capacity-next-device", expect(shared(run(multi,
        claims(claim("claim-0", cap(req("req-0", 1), "2"))), devices("slice-1", NODE, "pool-1", range2,
            Dev.of("device-2").shareable().range("capacity-0", "2"))), id("pool-1", "device-1"), "2"),
        List.of(List.of("req-0 driver-a/pool-1/device-2 share{capacity-0=2}"))));
    add(c, "consumable-capacity-multi-allocatable-device-with-subrequest", expect(run(multi, claims(claim("claim-0",
        DeviceRequest.firstAvailable("req-0", List.of(cap(req("subReq-0", 1), "4"), cap(req("subReq-1", 1), "2"),
            req("subReq-1", 1))))), devices("slice-1", NODE, "pool-1", range2)),
        List.of(List.of("req-0/subReq-1 driver-a/pool-1/device-1 share{capacity-0=2}"))));
    add(c, "consumable-capacity-multi-allocatable-device-with-no-available-consumable-capacity", expectNil(shared(run(
        multi, claims(claim("claim-0", cap(req("req-0", 1), "2"))), devices("slice-1", NODE, "pool-1", range2)),
        id("pool-1", "device-1"), "2")));
    add(c, "consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-no-capacity", expect(run(multi,
        claims(claim("claim-0", cap(all("req-0"), "2"))), devices("slice-1", NODE, "pool-1",
            Dev.of("device-1").capacity("capacity-0", "2").shareable(), Dev.of("device-2").shareable())),
        List.of(List.of("req-0 driver-a/pool-1/device-1 share{capacity-0=2}"))));
    add(c, "consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-insufficient-capacity",
        expect(run(multi, claims(claim("claim-0", cap(all("req-0"), "2"))), devices("slice-1", NODE, "pool-1",
            Dev.of("device-1").capacity("capacity-0", "2").shareable(), Dev.of("device-2").capacity("capacity-0", "1")
                .shareable())), List.of(List.of("req-0 driver-a/pool-1/device-1 share{capacity-0=2}"))));
    Dev two1 = Dev.of("device-1").capacity("capacity-0", "2").shareable();
    Dev one2 = Dev.of("device-2").capacity("capacity-0", "1").shareable();
    add(c, "consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-sufficient", expect(run(
        claims(claim("claim-0", cap(req("req-0", 1), "1"), cap(all("req-1"), "1"))),
        devices("slice-1", NODE, "pool-1", two1, one2)),
        List.of(List.of("req-0 driver-a/pool-1/device-1 share{capacity-0=1}",
            "req-1 driver-a/pool-1/device-1 share{capacity-0=1}", "req-1 driver-a/pool-1/device-2 share{capacity-0=1}"))));
    add(c, "consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-sufficient", expect(shared(run(
        claims(claim("claim-0", cap(all("req-0"), "1"))), devices("slice-1", NODE, "pool-1", two1, one2)),
        id("pool-1", "device-1"), "1"), List.of(List.of("req-0 driver-a/pool-1/device-1 share{capacity-0=1}",
            "req-0 driver-a/pool-1/device-2 share{capacity-0=1}"))));
    add(c, "consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-insufficient", expectNil(run(
        claims(claim("claim-0", cap(req("req-0", 1), "1"), cap(all("req-1"), "1"))),
        devices("slice-1", NODE, "pool-1", one, one2))));
    add(c, "consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-insufficient", expect(shared(run(
        claims(claim("claim-0", cap(all("req-0"), "1"))), devices("slice-1", NODE, "pool-1", one, one2)),
        id("pool-1", "device-1"), "1"), List.of(List.of("req-0 driver-a/pool-1/device-2 share{capacity-0=1}"))));
    add(c, "consumable-capacity-dedicated-device-with-consumable-capacity-request", expect(run(dedicated,
        claims(claim("claim-0", cap(req("req-0", 1), "1"))), devices("slice-1", NODE, "pool-1",
            Dev.of("device-1").capacity("capacity-0", "1"))), List.of(List.of("req-0 driver-a/pool-1/device-1"))));
    add(c, "consumable-capacity-dedicated-device-with-multiple-consumable-capacity-request", expectNil(run(dedicated,
        claims(claim("claim-0", cap(req("req-0", 1), "1")), claim("claim-1", cap(req("req-0", 1), "1"))),
        devices("slice-1", NODE, "pool-1", Dev.of("device-1").range("capacity-0", "2")))));
    add(c, "allow-multiple-allocations-exclude-multi-allocatable-device-by-class-selector", expectNil(run(dedicated,
        claims(claim("claim-0", cap(req("req-0", 1), "1"))), devices("slice-1", NODE, "pool-1", one))));
    add(c, "allow-multiple-allocations-not-allocate-multi-allocatable-device-which-already-dedicated", expectNil(inUse(
        run(multi, claims(claim("claim-0", cap(req("req-0", 1), "1"))), devices("slice-1", NODE, "pool-1", range2)),
        id("pool-1", "device-1"))));
    add(c, "allow-multiple-allocations-not-allocate-dedicated-device-which-change-from-multi-allocatable",
        expectNil(shared(run(multi, claims(claim("claim-0", cap(req("req-0", 1), "1"))), devices("slice-1", NODE,
            "pool-1", Dev.of("device-1").range("capacity-0", "2"))), id("pool-1", "device-1"), "1")));
    add(c, "allow-multiple-allocations-with-partitionable-device", expect(run(multi, claims(claim("claim-0",
        req("req-0", 1), DeviceRequest.firstAvailable("req-1", List.of(req("subReq-0", 1, memAtLeast("6Gi")),
            req("subReq-1", 1, memAtLeast("4Gi")))))),
        devices("slice-1", NODE, "pool-1",
            Dev.of("device-1").consumes("counter-set-1", "memory", "4Gi").fromCounters().shareable(),
            Dev.of("device-2").consumes("counter-set-1", "memory", "6Gi").fromCounters().shareable(),
            Dev.of("device-3").consumes("counter-set-1", "memory", "4Gi").fromCounters().shareable()),
        counters("slice-2", ON_NODE, "pool-1", set("counter-set-1", "memory", "8Gi"))),
        List.of(List.of("req-0 driver-a/pool-1/device-1 share{memory=4294967296}",
            "req-1/subReq-1 driver-a/pool-1/device-3 share{memory=4294967296}"))));
    String atLeast4 = "device.capacity[\"driver-a\"][\"capacity-0\"].compareTo(quantity(\"4\")) >= 0";
    String atLeast2 = "device.capacity[\"driver-a\"][\"capacity-0\"].compareTo(quantity(\"2\")) >= 0";
    add(c, "consumable-capacity-with-partitionable-device-multiple-capacity-pools", expect(run(claims(claim("claim-0",
        cap(req("req-0", 1), "1"), cap(req("req-2", 1), "2"), DeviceRequest.firstAvailable("req-1", List.of(
            cap(req("subReq-0", 1, atLeast4), "1"), cap(req("subReq-1", 1, atLeast2), "1"))))),
        devices("slice-1", NODE, "pool-1",
            Dev.of("device-1").consumes("counter-set-1", "capacity-0", "2").consumes("counter-set-2", "capacity-1", "4")
                .fromCounters().shareable().range("capacity-1", "4"),
            Dev.of("device-2").consumes("counter-set-1", "capacity-0", "4").consumes("counter-set-2", "capacity-1", "4")
                .fromCounters().shareable().range("capacity-1", "4"),
            Dev.of("device-3").consumes("counter-set-1", "capacity-0", "2").consumes("counter-set-2", "capacity-1", "4")
                .fromCounters().shareable().range("capacity-1", "4")),
        counters("slice-2", ON_NODE, "pool-1", set("counter-set-1", "capacity-0", "4"),
            set("counter-set-2", "capacity-1", "8"))),
        List.of(List.of("req-0 driver-a/pool-1/device-1 share{capacity-0=1,capacity-1=2}",
            "req-2 driver-a/pool-1/device-3 share{capacity-0=2,capacity-1=2}",
            "req-1/subReq-1 driver-a/pool-1/device-1 share{capacity-0=1,capacity-1=2}"))));
  }
}
