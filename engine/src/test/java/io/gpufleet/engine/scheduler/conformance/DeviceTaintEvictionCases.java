package io.gpufleet.engine.scheduler.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.dra.Allocation;
import io.gpufleet.engine.dra.DeviceTaintEviction;
import io.gpufleet.model.dra.Device;
import io.gpufleet.model.dra.DeviceRequest;
import io.gpufleet.model.dra.DeviceTaint;
import io.gpufleet.model.dra.DeviceTaintRule;
import io.gpufleet.model.dra.DeviceToleration;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.dra.ResourceClaimSpec;
import io.gpufleet.model.dra.ResourceSlice;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The device taint eviction controller's TestController
 * ({@code pkg/controller/devicetainteviction/device_taint_eviction_test.go}): when an allocated claim,
 * and the pod using it, is to be evicted. Upstream's fixtures: driver {@code some-driver}, node and
 * pool {@code worker}, devices {@code instance}, {@code instance-no-schedule} (a NoSchedule taint) and
 * {@code instance-no-execute} (a None and a NoExecute taint, at {@code taintTime}), claim
 * {@code my-pod-my-resource} (request {@code req-1}) allocated {@code instance}, rules
 * {@code ruleEvict} (driver some-driver, {@code example.com/taint=something:NoExecute} at
 * {@code taintTime}) and {@code ruleNone}. The cases translated compare the eviction time the
 * controller computes ({@code allocatedClaims[].eviction}, {@code deletePodAt}); its work queue,
 * events and the rules' status conditions are not modelled.
 */
final class DeviceTaintEvictionCases {
  private DeviceTaintEvictionCases() {}

  static final String FILE = "pkg/controller/devicetainteviction/device_taint_eviction_test.go";
  private static final String PLUGIN = "Device taint eviction";
  private static final String DRIVER = "some-driver";
  private static final Instant TAINT_TIME = Instant.parse("2000-01-01T00:00:00Z");
  /** What the controller uses for a taint without a time: never reached here, every taint has one. */
  private static final Instant UNKNOWN = Instant.parse("2100-01-01T00:00:00Z");
  private static final String KEY = "example.com/taint";

  private static final DeviceTaint TAINT = new DeviceTaint(KEY, "something", DeviceTaint.Effect.NO_EXECUTE,
      Optional.of(TAINT_TIME));

  /** {@code slice}, or with {@code instance} tainted by {@code taint} ({@code sliceTainted}). */
  private static ResourceSlice slice(String node, Optional<DeviceTaint> instanceTaint) {
    return new ResourceSlice(node + "-slice", DRIVER, node, Optional.of(node), List.of(
        new Device("instance", Map.of(), Map.of(), instanceTaint.map(List::of).orElse(List.of())),
        new Device("instance-no-schedule", Map.of(), Map.of(), List.of(new DeviceTaint(KEY, "",
            DeviceTaint.Effect.NO_SCHEDULE))),
        new Device("instance-no-execute", Map.of(), Map.of(), List.of(
            new DeviceTaint(KEY, "", DeviceTaint.Effect.NONE, Optional.of(TAINT_TIME)),
            new DeviceTaint(KEY, "", DeviceTaint.Effect.NO_EXECUTE, Optional.of(TAINT_TIME))))));
  }

  private static DeviceTaintRule rule(String name, Optional<String> device, DeviceTaint.Effect effect, Instant at) {
    return new DeviceTaintRule(name, Optional.of(new DeviceTaintRule.Selector(Optional.of(DRIVER), Optional.empty(),
        device)), new DeviceTaint(KEY, "something", effect, Optional.of(at)));
  }

  private static final DeviceTaintRule RULE_EVICT = rule("evict", Optional.empty(), DeviceTaint.Effect.NO_EXECUTE,
      TAINT_TIME);
  private static final DeviceTaintRule RULE_NONE = rule("evict", Optional.empty(), DeviceTaint.Effect.NONE,
      TAINT_TIME);

  /** A claim with request {@code req-1}, tolerating {@code tolerations}, and its allocation of {@code devices}. */
  private record Held(ResourceClaim claim, Allocation allocation) {}

  private static Held held(String namespace, String name, List<DeviceToleration> tolerations, String... devices) {
    ResourceClaim c = new ResourceClaim(namespace, name, new ResourceClaimSpec(List.of(new DeviceRequest("req-1",
        "my-resource-class", List.of(), DeviceRequest.AllocationMode.EXACT_COUNT, devices.length)
        .withTolerations(tolerations))));
    List<Allocation.Result> results = new ArrayList<>();
    for (String d : devices) {
      results.add(new Allocation.Result("req-1", DRIVER, "worker", d));
    }
    return new Held(c, new Allocation(c.key(), "worker", results));
  }

  /** {@code inUseClaim}: allocated {@code instance}. */
  private static Held inUse() {
    return held("default", "my-pod-my-resource", List.of(), "instance");
  }

  /** {@code allocationResultOtherDevices}: {@code instance-no-schedule} and {@code instance-no-execute}. */
  private static Held other(String namespace, String name) {
    return held(namespace, name, List.of(), "instance-no-schedule", "instance-no-execute");
  }

  private static Optional<Instant> claimEviction(DraObjects dra, Held h) {
    return new DeviceTaintEviction(dra).of(h.claim(), h.allocation(), UNKNOWN).map(DeviceTaintEviction.Eviction::at);
  }

  /** A pod goes when the first of its claims does ({@code deletePodAt}). */
  private static Optional<Instant> podEviction(DraObjects dra, Held... claims) {
    Optional<Instant> first = Optional.empty();
    for (Held h : claims) {
      Optional<Instant> at = claimEviction(dra, h);
      if (at.isPresent() && (first.isEmpty() || at.get().isBefore(first.get()))) {
        first = at;
      }
    }
    return first;
  }

  private static DraObjects objects(List<ResourceSlice> slices, DeviceTaintRule... rules) {
    return new DraObjects(List.of(), List.of(), List.of(), slices, List.of(rules));
  }

  static List<UpstreamCase> cases() {
    List<UpstreamCase> c = new ArrayList<>();
    List<ResourceSlice> plain = List.of(slice("worker", Optional.empty()), slice("worker-2", Optional.empty()));
    List<ResourceSlice> tainted = List.of(slice("worker", Optional.of(TAINT)), slice("worker-2", Optional.empty()));
    c.add(UpstreamCase.of(PLUGIN, FILE, "untainted-claim", () ->
        assertThat(claimEviction(objects(plain), inUse())).isEmpty()));
    c.add(UpstreamCase.of(PLUGIN, FILE, "tainted-claim-through-resourceslice", () ->
        assertThat(claimEviction(objects(tainted), inUse())).contains(TAINT_TIME)));
    c.add(UpstreamCase.of(PLUGIN, FILE, "tainted-claim-through-rule", () ->
        assertThat(claimEviction(objects(List.of(), RULE_EVICT), inUse())).contains(TAINT_TIME)));
    c.add(UpstreamCase.of(PLUGIN, FILE, "evict-pod-resourceclaim", () ->
        assertThat(podEviction(objects(tainted), inUse())).contains(TAINT_TIME)));
    c.add(UpstreamCase.of(PLUGIN, FILE, "evict-pod-rule", () ->
        assertThat(podEviction(objects(List.of(), RULE_EVICT), inUse())).contains(TAINT_TIME)));
    // inUseClaimWithToleration: Equal example.com/taint=something NoExecute for an hour.
    Duration hour = Duration.ofSeconds(60 * 60);
    Held tolerating = held("default", "my-pod-my-resource", List.of(new DeviceToleration(KEY,
        DeviceToleration.Operator.EQUAL, "something", Optional.of(DeviceTaint.Effect.NO_EXECUTE),
        Optional.of(hour.toSeconds()))), "instance");
    c.add(UpstreamCase.of(PLUGIN, FILE, "evict-pod-rule-later", () ->
        assertThat(podEviction(objects(List.of(), RULE_EVICT), tolerating)).contains(TAINT_TIME.plus(hour))));
    c.add(UpstreamCase.of(PLUGIN, FILE, "evict-many-pods-many-namespaces", () -> {
      DraObjects dra = objects(List.of(), RULE_EVICT);
      assertThat(podEviction(dra, inUse())).contains(TAINT_TIME);
      assertThat(podEviction(dra, other("default-other", "my-pod-my-resource"))).contains(TAINT_TIME);
    }));
    c.add(UpstreamCase.of(PLUGIN, FILE, "evict-many-pods-same-namespace", () -> {
      DraObjects dra = objects(List.of(), RULE_EVICT);
      assertThat(podEviction(dra, inUse())).contains(TAINT_TIME);
      assertThat(podEviction(dra, other("default", "my-pod-my-resource-other"))).contains(TAINT_TIME);
    }));
    c.add(UpstreamCase.of(PLUGIN, FILE, "none-pod-rule", () ->
        assertThat(podEviction(objects(List.of(slice("worker", Optional.empty())), RULE_NONE), inUse())).isEmpty()));
    c.add(UpstreamCase.of(PLUGIN, FILE, "multiple-claims-same-rule", () ->
        assertThat(podEviction(objects(List.of(), RULE_EVICT), inUse(), other("default", "my-pod-my-resource-other")))
            .contains(TAINT_TIME)));
    // ruleEvictInstance1 (instance, at taintTime) and ruleEvictInstance2Later (instance-no-execute, 40s later).
    Instant later = TAINT_TIME.plusSeconds(40);
    DraObjects twoRules = objects(List.of(), rule("evict-instance", Optional.of("instance"),
        DeviceTaint.Effect.NO_EXECUTE, TAINT_TIME), rule("evict-instance-no-execute", Optional.of("instance-no-execute"),
        DeviceTaint.Effect.NO_EXECUTE, later));
    c.add(UpstreamCase.of(PLUGIN, FILE, "multiple-claims-different-rules-order-1", () -> {
      Held shared = other("default", "my-pod-my-resource-other");
      assertThat(claimEviction(twoRules, inUse())).contains(TAINT_TIME);
      assertThat(claimEviction(twoRules, shared)).contains(later);
      assertThat(podEviction(twoRules, inUse(), shared)).contains(TAINT_TIME);
    }));
    return c;
  }
}
