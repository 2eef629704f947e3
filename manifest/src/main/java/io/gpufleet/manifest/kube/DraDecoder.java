package io.gpufleet.manifest.kube;

import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.model.dra.AttributeValue;
import io.gpufleet.model.dra.ClaimStatus;
import io.gpufleet.model.dra.CounterSet;
import io.gpufleet.model.dra.Device;
import io.gpufleet.model.dra.DeviceConfig;
import io.gpufleet.model.dra.DeviceClass;
import io.gpufleet.model.dra.DeviceRequest;
import io.gpufleet.model.dra.DeviceTaint;
import io.gpufleet.model.dra.DeviceTaintRule;
import io.gpufleet.model.dra.DeviceToleration;
import io.gpufleet.model.dra.DraObject;
import io.gpufleet.model.dra.GpuConfig;
import io.gpufleet.model.dra.PodResourceClaim;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.dra.ResourceClaimSpec;
import io.gpufleet.model.dra.ResourceClaimTemplate;
import io.gpufleet.model.dra.RequestPolicy;
import io.gpufleet.model.dra.ResourceSlice;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.validation.FieldError;
import io.gpufleet.model.validation.LabelSyntax;
import io.gpufleet.model.validation.ResourceClaimValidation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads {@code resource.k8s.io/v1} DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice
 * and DeviceTaintRule, and a pod's {@code spec.resourceClaims}. The checks are the API server's for the
 * fields read ({@code pkg/apis/resource/validation/validation.go}: request names are DNS labels and
 * unique, {@code deviceClassName} is a DNS subdomain, {@code allocationMode} is {@code ExactCount}
 * or {@code All}, {@code count} is positive and only with {@code ExactCount}, a device attribute
 * has exactly one value; {@code pkg/apis/core/validation/validation.go}: a pod claim names exactly
 * one of {@code resourceClaimName} and {@code resourceClaimTemplateName}, and a container's
 * {@code resources.claims[].name} is one of the pod's claims). A request has exactly one of
 * {@code exactly} and {@code firstAvailable} (DRAPrioritizedList, on by default): at most eight
 * subrequests with unique DNS-label names. A slice's {@code sharedCounters}, {@code perDeviceNodeSelection}
 * with a device's {@code nodeName}, and a device's {@code consumesCounters} (DRAPartitionableDevices), and a
 * device's {@code allowMultipleAllocations} and capacity {@code requestPolicy} with a request's
 * {@code capacity.requests} (DRAConsumableCapacity), both on by default in v1.37, are read. Fields that
 * would change the allocation and are not modelled ({@code constraints}, {@code adminAccess},
 * slices or devices for a node selector or all nodes) are errors; those that do not change it (a class's opaque {@code config})
 * warnings. A claim's opaque {@code config} for NVIDIA's GPU driver ({@code GpuConfig}) is read.
 */
final class DraDecoder {

  /** {@code resource.k8s.io/v1}'s limit on requests per claim and selectors per request or class. */
  static final int MAX_REQUESTS = 32;
  static final int MAX_SELECTORS = 32;
  /** {@code ResourceSliceMaxDevices} (128, k8s.io/api resource/v1 types.go): devices in one slice. */
  static final int MAX_DEVICES_PER_SLICE = 128;
  /** {@code DeviceTaintsMaxLength} and {@code DeviceTolerationsMaxLength} (k8s.io/api resource/v1 types.go). */
  static final int MAX_TAINTS = 16;
  static final int MAX_TOLERATIONS = 16;
  /** {@code FirstAvailableDeviceRequestMaxSize} ({@code pkg/apis/resource/types.go}). */
  static final int MAX_SUBREQUESTS = DeviceRequest.FIRST_AVAILABLE_MAX_SIZE;

  private static final Set<String> EXACTLY_FIELDS = Set.of("deviceClassName", "selectors", "allocationMode", "count",
      "adminAccess", "tolerations", "capacity");
  /** A {@code DeviceSubRequest}'s fields: {@code exactly}'s less {@code adminAccess}, plus its {@code name}. */
  private static final Set<String> SUBREQUEST_FIELDS = Set.of("name", "deviceClassName", "selectors",
      "allocationMode", "count", "tolerations", "capacity");

  /** NVIDIA's GPU DRA driver, whose opaque GpuConfig the twin decodes. */
  private static final String NVIDIA_GPU_DRIVER = GpuConfig.DRIVER;

  private final KubeDecoder kube;
  private final boolean strict;

  DraDecoder(KubeDecoder kube, boolean strict) {
    this.kube = kube;
    this.strict = strict;
  }

  Optional<DraObject> decode(String kind, Cursor doc) {
    doc.checkKnown(Set.of("apiVersion", "kind", "metadata", "spec", "status"), strict);
    return switch (kind) {
      case "DeviceClass" -> Optional.of(deviceClass(doc));
      case "ResourceClaim" -> Optional.of(claim(doc));
      case "ResourceClaimTemplate" -> Optional.of(template(doc));
      case "ResourceSlice" -> Optional.of(slice(doc));
      case "DeviceTaintRule" -> Optional.of(taintRule(doc));
      default -> Optional.empty();
    };
  }

  private DeviceClass deviceClass(Cursor doc) {
    ObjectMeta meta = kube.meta(doc, false);
    List<String> selectors = List.of();
    Optional<String> extended = Optional.empty();
    Optional<Cursor> spec = doc.get("spec");
    if (spec.isPresent()) {
      Cursor s = spec.get();
      s.checkKnown(Set.of("selectors", "config", "extendedResourceName"), strict);
      selectors = selectors(s);
      s.get("config").ifPresent(c -> c.warning("not modelled by gpufleet: a class's opaque driver configuration "
          + "does not change which device is allocated; it is not passed on"));
      extended = s.get("extendedResourceName").map(this::extendedResourceName);
    }
    return new DeviceClass(meta.name(), selectors, extended);
  }

  private ResourceClaim claim(Cursor doc) {
    ObjectMeta meta = kube.meta(doc, true);
    ResourceClaimSpec spec = doc.require("spec").map(this::claimSpec).orElse(new ResourceClaimSpec(List.of()));
    Optional<ClaimStatus> status = doc.get("status").map(this::claimStatus);
    // Checked as the API server checks a status it stores (validateResourceClaimStatusUpdate).
    status.ifPresent(st -> kube.report(doc, ResourceClaimValidation.status(st, spec)));
    return new ResourceClaim(meta.namespace(), meta.name(), spec, status);
  }

  /**
   * A claim's recorded {@code status} (a dump's): the allocation's device results and {@code reservedFor}.
   * A pod bound by {@code spec.nodeName} holds the claim only where this status allocates it and reserves
   * it for the pod, as the kubelet requires. Read but not modelled, said so: a result's {@code shareID},
   * {@code consumedCapacity}, {@code bindingConditions}, {@code adminAccess}; the allocation's
   * {@code config}; {@code status.devices}. The allocation's {@code nodeSelector} is not read: the node is
   * the reserving pod's.
   */
  private ClaimStatus claimStatus(Cursor s) {
    s.checkKnown(Set.of("allocation", "reservedFor", "devices"), strict);
    s.get("devices").ifPresent(c -> c.warning("not modelled by gpufleet: the drivers' device status is not read"));
    Optional<List<ClaimStatus.AllocatedDevice>> allocation = s.get("allocation").map(a -> {
      a.checkKnown(Set.of("devices", "nodeSelector", "allocationTimestamp"), strict);
      List<ClaimStatus.AllocatedDevice> results = new ArrayList<>();
      a.get("devices").ifPresent(d -> {
        d.checkKnown(Set.of("results", "config"), strict);
        d.get("config").ifPresent(c -> c.warning("not modelled by gpufleet: an allocation's recorded device "
            + "configuration is not read; the claim's and its class's are"));
        for (Cursor r : d.list("results")) {
          r.checkKnown(Set.of("request", "driver", "pool", "device", "adminAccess", "tolerations", "shareID",
              "consumedCapacity", "bindingConditions", "bindingFailureConditions"), strict);
          for (String f : List.of("shareID", "consumedCapacity", "bindingConditions", "bindingFailureConditions",
              "adminAccess")) {
            r.get(f).ifPresent(c -> c.warning("not modelled by gpufleet: a recorded result's " + f
                + " is not read; the device counts as given whole"));
          }
          results.add(new ClaimStatus.AllocatedDevice(r.requiredString("request"), r.requiredString("driver"),
              r.requiredString("pool"), r.requiredString("device")));
        }
      });
      return results;
    });
    List<ClaimStatus.Consumer> reservedFor = new ArrayList<>();
    for (Cursor c : s.list("reservedFor")) {
      c.checkKnown(Set.of("apiGroup", "resource", "name", "uid"), strict);
      reservedFor.add(new ClaimStatus.Consumer(c.string("apiGroup", ""), c.string("resource", ""),
          c.string("name", ""), c.string("uid", "")));
    }
    return new ClaimStatus(allocation, reservedFor);
  }

  private ResourceClaimTemplate template(Cursor doc) {
    ObjectMeta meta = kube.meta(doc, true);
    ResourceClaimSpec spec = new ResourceClaimSpec(List.of());
    Optional<Cursor> outer = doc.require("spec");
    if (outer.isPresent()) {
      outer.get().checkKnown(Set.of("metadata", "spec"), strict);
      spec = outer.get().require("spec").map(this::claimSpec).orElse(spec);
    }
    return new ResourceClaimTemplate(meta.namespace(), meta.name(), spec);
  }

  private ResourceClaimSpec claimSpec(Cursor spec) {
    spec.checkKnown(Set.of("devices"), strict);
    List<DeviceRequest> requests = new ArrayList<>();
    Optional<Cursor> devices = spec.get("devices");
    if (devices.isEmpty()) {
      return new ResourceClaimSpec(requests);
    }
    Cursor d = devices.get();
    d.checkKnown(Set.of("requests", "constraints", "config"), strict);
    d.get("constraints").ifPresent(c -> c.error("not modelled by gpufleet: constraints (matchAttribute, "
        + "distinctAttribute) change which devices may be allocated together; remove them to schedule here"));
    List<Cursor> items = d.list("requests");
    if (items.size() > MAX_REQUESTS) {
      d.get("requests").ifPresent(c -> c.error("Too many: " + items.size() + ": must have at most " + MAX_REQUESTS
          + " items"));
    }
    Set<String> names = new HashSet<>();
    Set<String> refs = new HashSet<>();
    for (Cursor r : items) {
      r.checkKnown(Set.of("name", "exactly", "firstAvailable"), strict);
      String name = uniqueLabel(r, names);
      refs.add(name);
      Optional<Cursor> exactly = r.get("exactly");
      List<Cursor> alternatives = r.list("firstAvailable");
      if (exactly.isPresent() && !alternatives.isEmpty()) {
        r.error("Invalid value: null: exactly one of `exactly` or `firstAvailable` is required, but multiple "
            + "fields are set");
      } else if (exactly.isPresent()) {
        requests.add(devices(name, exactly.get(), EXACTLY_FIELDS));
      } else if (alternatives.isEmpty()) {
        r.error("Required value: exactly one of `exactly` or `firstAvailable` is required");
      } else {
        requests.add(firstAvailable(name, r, alternatives, refs));
      }
    }
    return new ResourceClaimSpec(requests, configs(d, refs));
  }

  /**
   * {@code firstAvailable}: at most {@value #MAX_SUBREQUESTS} subrequests, each named by a DNS label
   * unique in the list, with the fields of {@code exactly} less {@code adminAccess}
   * ({@code validateDeviceSubRequest}). Their names, as {@code <request>/<subrequest>}, join {@code refs}.
   */
  private DeviceRequest firstAvailable(String name, Cursor request, List<Cursor> items, Set<String> refs) {
    if (items.size() > MAX_SUBREQUESTS) {
      request.get("firstAvailable").ifPresent(c -> c.error("Too many: " + items.size() + ": must have at most "
          + MAX_SUBREQUESTS + " items"));
    }
    Set<String> names = new HashSet<>();
    List<DeviceRequest> subrequests = new ArrayList<>();
    for (Cursor sub : items) {
      String subName = uniqueLabel(sub, names);
      refs.add(name + "/" + subName);
      subrequests.add(devices(subName, sub, SUBREQUEST_FIELDS));
    }
    return DeviceRequest.firstAvailable(name, subrequests);
  }

  /**
   * {@code spec.devices.config[]}: each names requests of this claim (none: all) and carries
   * {@code opaque} parameters for a driver ({@code validateDeviceConfiguration}). NVIDIA's GPU driver's
   * {@code GpuConfig} is decoded as its strict decoder decodes it; what the twin does not model is
   * said so with a warning and not applied.
   */
  private List<DeviceConfig> configs(Cursor devices, Set<String> requestNames) {
    List<DeviceConfig> out = new ArrayList<>();
    for (Cursor c : devices.list("config")) {
      c.checkKnown(Set.of("requests", "opaque"), strict);
      List<String> requests = new ArrayList<>();
      for (Cursor r : c.list("requests")) {
        String name = r.asString();
        if (!requestNames.contains(name)) {
          r.error("Invalid value: \"" + name + "\": must be the name of a request in the claim or the name of a "
              + "request and a subrequest separated by '/'");
        }
        requests.add(name);
      }
      Optional<Cursor> opaque = c.require("opaque");
      if (opaque.isEmpty()) {
        continue;
      }
      Cursor o = opaque.get();
      o.checkKnown(Set.of("driver", "parameters"), strict);
      String driver = o.requiredString("driver");
      if (!driver.isEmpty()) {
        LabelSyntax.dns1123SubdomainErrors(driver).forEach(m -> o.get("driver").orElseThrow()
            .error("Invalid value: \"" + driver + "\": " + m));
      }
      Optional<Cursor> parameters = o.require("parameters");
      if (parameters.isEmpty()) {
        continue;
      }
      out.add(new DeviceConfig(requests, driver, parameters(driver, parameters.get())));
    }
    return out;
  }

  /** The NVIDIA GPU driver's GpuConfig; anything else is kept by kind and not applied. */
  private DeviceConfig.Parameters parameters(String driver, Cursor p) {
    String apiVersion = p.string("apiVersion", "");
    String kind = p.string("kind", "");
    if (!driver.equals(NVIDIA_GPU_DRIVER) || !apiVersion.equals(GpuConfig.API_VERSION)
        || !kind.equals(GpuConfig.KIND)) {
      p.warning("not modelled by gpufleet: opaque parameters " + apiVersion + " " + kind + " for driver " + driver
          + " are not applied (the twin applies " + GpuConfig.API_VERSION + " " + GpuConfig.KIND + " of driver "
          + NVIDIA_GPU_DRIVER + ")");
      return new DeviceConfig.Unmodelled(apiVersion, kind);
    }
    // The driver's StrictDecoder fails on any field its types do not have (api.go), so these are errors.
    p.checkKnown(Set.of("apiVersion", "kind", "sharing"), true);
    return new GpuConfig(p.get("sharing").map(s -> {
      s.checkKnown(Set.of("strategy", "timeSlicingConfig", "mpsConfig"), true);
      Optional<GpuConfig.TimeSlicing> ts = s.get("timeSlicingConfig").map(t -> {
        t.checkKnown(Set.of("interval"), true);
        return new GpuConfig.TimeSlicing(t.optString("interval"));
      });
      Optional<GpuConfig.Mps> mps = s.get("mpsConfig").map(m -> {
        m.checkKnown(Set.of("defaultActiveThreadPercentage", "defaultPinnedDeviceMemoryLimit",
            "defaultPerDevicePinnedMemoryLimit"), true);
        Optional<Integer> percentage = m.get("defaultActiveThreadPercentage").map(Cursor::asInt);
        Optional<Long> pinned = m.get("defaultPinnedDeviceMemoryLimit").map(q -> q.asQuantity().value());
        Map<String, Long> perDevice = new LinkedHashMap<>();
        m.get("defaultPerDevicePinnedMemoryLimit").ifPresent(x -> x.entries().forEach((k, v) ->
            perDevice.put(k, v.asQuantity().value())));
        return new GpuConfig.Mps(percentage, pinned, perDevice);
      });
      return new GpuConfig.Sharing(s.string("strategy", ""), ts, mps);
    }));
  }

  /** {@code exactly} or one subrequest: a class, selectors, an allocation mode and count. */
  private DeviceRequest devices(String name, Cursor e, Set<String> known) {
    e.checkKnown(known, strict);
    String className = e.requiredString("deviceClassName");
    if (!className.isEmpty()) {
      LabelSyntax.dns1123SubdomainErrors(className).forEach(m -> e.get("deviceClassName").orElseThrow()
          .error("Invalid value: \"" + className + "\": " + m));
    }
    List<String> selectors = selectors(e);
    DeviceRequest.AllocationMode mode = DeviceRequest.AllocationMode.EXACT_COUNT;
    Optional<Cursor> m = e.get("allocationMode");
    if (m.isPresent()) {
      String v = m.get().asString();
      switch (v) {
        case "ExactCount" -> mode = DeviceRequest.AllocationMode.EXACT_COUNT;
        case "All" -> mode = DeviceRequest.AllocationMode.ALL;
        default -> m.get().error("Unsupported value: \"" + v + "\": supported values: \"All\", \"ExactCount\"");
      }
    }
    long count = 1;
    Optional<Cursor> c = e.get("count");
    if (c.isPresent()) {
      count = c.get().asLong();
      if (mode == DeviceRequest.AllocationMode.ALL) {
        c.get().error("Invalid value: " + count + ": must not be specified when allocationMode is 'All'");
      } else if (count <= 0) {
        c.get().error("Invalid value: " + count + ": must be greater than zero");
      }
    }
    e.get("adminAccess").ifPresent(a -> a.error("not modelled by gpufleet: admin access to devices in use"));
    List<DeviceToleration> tolerations = tolerations(e);
    Map<String, Quantity> capacity = new LinkedHashMap<>();
    e.get("capacity").ifPresent(a -> {
      a.checkKnown(Set.of("requests"), strict);
      a.get("requests").ifPresent(r -> r.entries().forEach((k, v) -> capacity.put(k, v.asQuantity())));
    });
    return new DeviceRequest(name, className, selectors, mode, count).withCapacity(capacity)
        .withTolerations(tolerations);
  }

  /**
   * {@code selectors[].cel.expression}; each must be set and compile, as the API server's
   * {@code validateCELSelector} requires ({@code Invalid value: "<expression>": compilation failed: ...}).
   */
  private List<String> selectors(Cursor parent) {
    List<Cursor> items = parent.list("selectors");
    if (items.size() > MAX_SELECTORS) {
      parent.get("selectors").ifPresent(c -> c.error("Too many: " + items.size() + ": must have at most "
          + MAX_SELECTORS + " items"));
    }
    List<String> out = new ArrayList<>();
    for (Cursor s : items) {
      s.checkKnown(Set.of("cel"), strict);
      Optional<Cursor> cel = s.require("cel");
      if (cel.isEmpty()) {
        continue;
      }
      cel.get().checkKnown(Set.of("expression"), strict);
      String expression = cel.get().requiredString("expression");
      if (expression.isBlank()) {
        cel.get().error("Required value: expression");
      } else {
        Cursor at = cel.get().get("expression").orElse(cel.get());
        // Go's %q, as field.Invalid prints the value: an expression is full of quotes.
        String quoted = "\"" + expression.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        Optional<FieldError> tooLong = ResourceClaimValidation.celExpressionLength(at.path(), expression);
        if (tooLong.isPresent()) {
          // validateCELSelector: field.TooLong, and a too long expression is not compiled.
          at.error(tooLong.get().message());
          continue;
        }
        Optional<String> error = kube.selectorError(expression);
        error.ifPresent(m -> at.error("Invalid value: " + quoted + ": " + m));
        if (error.isEmpty() && kube.selectorTooComplex(expression)) {
          // validateCELSelector: result.MaxCost > CELSelectorExpressionMaxCost is field.Forbidden.
          at.error("Forbidden: too complex, exceeds cost limit");
        }
        out.add(expression);
      }
    }
    return out;
  }

  private ResourceSlice slice(Cursor doc) {
    ObjectMeta meta = kube.meta(doc, false);
    Optional<Cursor> spec = doc.require("spec");
    if (spec.isEmpty()) {
      return new ResourceSlice(meta.name(), "", "", Optional.empty(), List.of());
    }
    Cursor s = spec.get();
    s.checkKnown(Set.of("driver", "pool", "nodeName", "nodeSelector", "allNodes", "devices", "perDeviceNodeSelection",
        "sharedCounters"), strict);
    String driver = s.requiredString("driver");
    if (!driver.isEmpty()) {
      LabelSyntax.dns1123SubdomainErrors(driver).forEach(m -> s.get("driver").orElseThrow()
          .error("Invalid value: \"" + driver + "\": " + m));
    }
    String pool = s.require("pool").map(p -> {
      p.checkKnown(Set.of("name", "generation", "resourceSliceCount"), strict);
      return p.requiredString("name");
    }).orElse("");
    Optional<String> nodeName = s.optString("nodeName").filter(n -> !n.isEmpty());
    boolean perDevice = s.get("perDeviceNodeSelection").map(Cursor::asBoolean).orElse(false);
    for (String other : List.of("nodeSelector", "allNodes")) {
      s.get(other).ifPresent(c -> c.error("not modelled by gpufleet: only slices local to one node (nodeName, "
          + "or perDeviceNodeSelection with each device's nodeName) are; found " + other));
    }
    if (nodeName.isEmpty() && s.get("nodeSelector").isEmpty() && s.get("allNodes").isEmpty() && !perDevice) {
      s.error("Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` "
          + "is required");
    }
    List<CounterSet> shared = new ArrayList<>();
    Set<String> sets = new HashSet<>();
    for (Cursor c : s.list("sharedCounters")) {
      c.checkKnown(Set.of("name", "counters"), strict);
      shared.add(new CounterSet(uniqueLabel(c, sets), counters(c)));
    }
    if (!shared.isEmpty() && !s.list("devices").isEmpty()) {
      // validateResourceSliceSpec (v1.35+): a slice carries either devices or shared counters.
      s.get("sharedCounters").orElseThrow().error("Invalid value: only one of `devices` or `sharedCounters` "
          + "may be set");
    }
    List<Device> devices = new ArrayList<>();
    Set<String> names = new HashSet<>();
    List<Cursor> items = s.list("devices");
    if (items.size() > MAX_DEVICES_PER_SLICE) {
      // validateResourceSliceSpec: field.TooMany, the devices then not read one by one.
      s.get("devices").ifPresent(c -> c.error("Too many: " + items.size() + ": must have at most "
          + MAX_DEVICES_PER_SLICE + " items"));
      return new ResourceSlice(meta.name(), driver, pool, nodeName, devices);
    }
    for (Cursor d : items) {
      d.checkKnown(Set.of("name", "attributes", "capacity", "consumesCounters", "nodeName", "nodeSelector",
          "allNodes", "taints", "bindsToNode", "bindingConditions", "bindingFailureConditions",
          "allowMultipleAllocations"), strict);
      String name = uniqueLabel(d, names);
      for (String other : List.of("bindingConditions", "nodeSelector", "allNodes")) {
        d.get(other).ifPresent(c -> c.error("not modelled by gpufleet: " + other));
      }
      Optional<String> deviceNode = d.optString("nodeName").filter(n -> !n.isEmpty());
      if (perDevice && deviceNode.isEmpty() && d.get("nodeSelector").isEmpty() && d.get("allNodes").isEmpty()) {
        d.error("Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes` is required when "
            + "`perDeviceNodeSelection` is set to true in the ResourceSlice spec");
      } else if (!perDevice) {
        d.get("nodeName").ifPresent(c -> c.error("Invalid value: `nodeName` can only be set if "
            + "`perDeviceNodeSelection` is set to true in the ResourceSlice spec"));
      }
      Map<String, AttributeValue> attributes = new LinkedHashMap<>();
      d.get("attributes").ifPresent(a -> a.entries().forEach((k, v) -> attribute(v).ifPresent(x -> attributes.put(k, x))));
      Map<String, String> capacity = new LinkedHashMap<>();
      Map<String, RequestPolicy> policies = new LinkedHashMap<>();
      d.get("capacity").ifPresent(a -> a.entries().forEach((k, v) -> {
        v.checkKnown(Set.of("value", "requestPolicy"), strict);
        v.require("value").ifPresent(q -> {
          q.asQuantity();
          capacity.put(k, q.asString());
        });
        v.get("requestPolicy").ifPresent(p -> policies.put(k, requestPolicy(p)));
      }));
      List<CounterSet> draws = new ArrayList<>();
      for (Cursor c : d.list("consumesCounters")) {
        c.checkKnown(Set.of("counterSet", "counters"), strict);
        draws.add(new CounterSet(c.requiredString("counterSet"), counters(c)));
      }
      boolean multiple = d.get("allowMultipleAllocations").map(Cursor::asBoolean).orElse(false);
      List<DeviceTaint> taints = new ArrayList<>();
      List<Cursor> taintItems = d.list("taints");
      if (taintItems.size() > MAX_TAINTS) {
        d.get("taints").ifPresent(c -> c.error("Too many: " + taintItems.size() + ": must have at most " + MAX_TAINTS
            + " items"));
      }
      taintItems.forEach(t -> taint(t).ifPresent(taints::add));
      devices.add(new Device(name, attributes, capacity, draws, deviceNode, multiple, policies, taints));
    }
    return new ResourceSlice(meta.name(), driver, pool, nodeName, devices, perDevice, shared);
  }

  /** A counter set's or a device's {@code counters}: each counter's {@code value}. */
  private Map<String, Quantity> counters(Cursor c) {
    Map<String, Quantity> out = new LinkedHashMap<>();
    c.get("counters").ifPresent(m -> m.entries().forEach((k, v) -> {
      v.checkKnown(Set.of("value"), strict);
      v.require("value").ifPresent(q -> out.put(k, q.asQuantity()));
    }));
    return out;
  }

  /** A capacity's {@code requestPolicy}: {@code default} and {@code validValues} or {@code validRange}. */
  private RequestPolicy requestPolicy(Cursor p) {
    p.checkKnown(Set.of("default", "validValues", "validRange"), strict);
    Optional<Quantity> def = p.get("default").map(Cursor::asQuantity);
    List<Quantity> values = p.list("validValues").stream().map(Cursor::asQuantity).toList();
    Optional<Cursor> range = p.get("validRange");
    range.ifPresent(r -> r.checkKnown(Set.of("min", "max", "step"), strict));
    return new RequestPolicy(def, values, range.flatMap(r -> r.get("min")).map(Cursor::asQuantity),
        range.flatMap(r -> r.get("max")).map(Cursor::asQuantity), range.flatMap(r -> r.get("step")).map(Cursor::asQuantity));
  }

  /**
   * {@code spec.extendedResourceName}: an extended resource name as a pod's resources write it
   * (fully qualified outside {@code kubernetes.io}; {@code validateExtendedResourceName}).
   */
  private String extendedResourceName(Cursor c) {
    String v = c.asString();
    if (!v.contains("/") || !ResourceName.of(v).isExtended() || !LabelSyntax.qualifiedNameErrors(v).isEmpty()) {
      c.error("Invalid value: \"" + v + "\": must be an extended resource name: a fully qualified name outside "
          + "the kubernetes.io domain, such as nvidia.com/gpu");
    }
    return v;
  }

  /**
   * A device's taint or a rule's ({@code validateDeviceTaint}): {@code key} a label name, {@code value}
   * a label value, {@code effect} one of None, NoSchedule, NoExecute. {@code timeAdded} is what the
   * API server sets when the taint is applied; the twin sets it so and says so when one is written.
   */
  private Optional<DeviceTaint> taint(Cursor t) {
    t.checkKnown(Set.of("key", "value", "effect", "timeAdded"), strict);
    String key = t.requiredString("key");
    if (!key.isEmpty()) {
      LabelSyntax.qualifiedNameErrors(key).forEach(m -> t.get("key").orElseThrow()
          .error("Invalid value: \"" + key + "\": " + m));
    }
    String value = t.string("value", "");
    LabelSyntax.labelValueErrors(value).forEach(m -> t.get("value").orElseThrow()
        .error("Invalid value: \"" + value + "\": " + m));
    String effect = t.requiredString("effect");
    Optional<DeviceTaint.Effect> e = DeviceTaint.Effect.of(effect);
    if (!effect.isEmpty() && e.isEmpty()) {
      t.get("effect").orElseThrow().error("Unsupported value: \"" + effect
          + "\": supported values: \"NoExecute\", \"NoSchedule\", \"None\"");
    }
    t.get("timeAdded").ifPresent(c -> c.warning("not modelled by gpufleet: a written timeAdded; the taint counts "
        + "as added when it is applied (the API server's default)"));
    return key.isEmpty() || e.isEmpty() ? Optional.empty() : Optional.of(new DeviceTaint(key, value, e.get()));
  }

  /**
   * A request's {@code tolerations} ({@code validateDeviceToleration}): at most
   * {@value #MAX_TOLERATIONS}; {@code operator} Equal (the default) or Exists; Exists takes no value;
   * an empty key needs Exists; {@code effect}, when set, NoSchedule or NoExecute.
   */
  private List<DeviceToleration> tolerations(Cursor request) {
    List<Cursor> items = request.list("tolerations");
    if (items.size() > MAX_TOLERATIONS) {
      request.get("tolerations").ifPresent(c -> c.error("Too many: " + items.size() + ": must have at most "
          + MAX_TOLERATIONS + " items"));
    }
    List<DeviceToleration> out = new ArrayList<>();
    for (Cursor t : items) {
      t.checkKnown(Set.of("key", "operator", "value", "effect", "tolerationSeconds"), strict);
      String key = t.string("key", "");
      if (!key.isEmpty()) {
        LabelSyntax.qualifiedNameErrors(key).forEach(m -> t.get("key").orElseThrow()
            .error("Invalid value: \"" + key + "\": " + m));
      }
      String op = t.string("operator", "Equal");
      DeviceToleration.Operator operator = DeviceToleration.Operator.EQUAL;
      switch (op) {
        case "Equal" -> operator = DeviceToleration.Operator.EQUAL;
        case "Exists" -> operator = DeviceToleration.Operator.EXISTS;
        default -> t.get("operator").orElseThrow().error("Unsupported value: \"" + op
            + "\": supported values: \"Equal\", \"Exists\"");
      }
      String value = t.string("value", "");
      if (operator == DeviceToleration.Operator.EXISTS && !value.isEmpty()) {
        t.get("value").orElseThrow().error("Invalid value: \"" + value
            + "\": value must be empty when `operator` is 'Exists'");
      }
      if (key.isEmpty() && operator != DeviceToleration.Operator.EXISTS) {
        t.error("Invalid value: \"" + op + "\": operator must be Exists when `key` is empty, which means "
            + "\"match all values and all keys\"");
      }
      Optional<DeviceTaint.Effect> effect = Optional.empty();
      Optional<String> e = t.optString("effect").filter(x -> !x.isEmpty());
      if (e.isPresent()) {
        effect = DeviceTaint.Effect.of(e.get()).filter(x -> x != DeviceTaint.Effect.NONE);
        if (effect.isEmpty()) {
          t.get("effect").orElseThrow().error("Unsupported value: \"" + e.get()
              + "\": supported values: \"NoExecute\", \"NoSchedule\"");
        }
      }
      Optional<Long> seconds = t.get("tolerationSeconds").map(Cursor::asLong);
      out.add(new DeviceToleration(key, operator, value, effect, seconds));
    }
    return out;
  }

  /**
   * {@code resource.k8s.io/v1} DeviceTaintRule: {@code spec.deviceSelector} ({@code driver},
   * {@code pool}, {@code device}) and {@code spec.taint}. The selectors and class upstream tombstoned
   * in 1.35 are refused as the API refuses unknown fields.
   */
  private DeviceTaintRule taintRule(Cursor doc) {
    ObjectMeta meta = kube.meta(doc, false);
    doc.get("status").ifPresent(s -> s.warning("not modelled by gpufleet: a rule's status conditions are not read"));
    Optional<Cursor> spec = doc.require("spec");
    Optional<DeviceTaintRule.Selector> selector = Optional.empty();
    DeviceTaint taint = new DeviceTaint("", "", DeviceTaint.Effect.NONE);
    if (spec.isPresent()) {
      Cursor s = spec.get();
      s.checkKnown(Set.of("deviceSelector", "taint"), strict);
      selector = s.get("deviceSelector").map(sel -> {
        sel.checkKnown(Set.of("driver", "pool", "device"), true);
        sel.optString("driver").filter(d -> !d.isEmpty()).ifPresent(d -> LabelSyntax.dns1123SubdomainErrors(d)
            .forEach(m -> sel.get("driver").orElseThrow().error("Invalid value: \"" + d + "\": " + m)));
        return new DeviceTaintRule.Selector(sel.optString("driver"), sel.optString("pool"), sel.optString("device"));
      });
      if (selector.isEmpty()) {
        s.warning("spec.deviceSelector is not set: the rule matches no device (upstream: \"Without a selector, no "
            + "devices are matched\")");
      }
      Optional<Cursor> t = s.require("taint");
      if (t.isPresent()) {
        taint = taint(t.get()).orElse(taint);
      }
    }
    return new DeviceTaintRule(meta.name(), selector, taint);
  }

  /** {@code name}: required, a DNS label, not seen before in its list. */
  private static String uniqueLabel(Cursor item, Set<String> seen) {
    String name = item.requiredString("name");
    if (!name.isEmpty()) {
      Cursor at = item.get("name").orElseThrow();
      LabelSyntax.dns1123LabelErrors(name).forEach(m -> at.error("Invalid value: \"" + name + "\": " + m));
      if (!seen.add(name)) {
        at.error("Duplicate value: \"" + name + "\"");
      }
    }
    return name;
  }

  /** One attribute: exactly one of bool, int, string, version. */
  private Optional<AttributeValue> attribute(Cursor v) {
    v.checkKnown(Set.of("bool", "int", "string", "version"), strict);
    List<AttributeValue> found = new ArrayList<>();
    v.get("bool").ifPresent(c -> found.add(new AttributeValue.Bool(c.asBoolean())));
    v.get("int").ifPresent(c -> found.add(new AttributeValue.Int(c.asLong())));
    v.get("string").ifPresent(c -> found.add(new AttributeValue.Str(c.asString())));
    v.get("version").ifPresent(c -> found.add(new AttributeValue.Version(c.asString())));
    if (found.size() != 1) {
      v.error("Invalid value: exactly one value must be specified, found " + found.size());
      return Optional.empty();
    }
    return Optional.of(found.getFirst());
  }

  /**
   * A pod's {@code spec.resourceClaims}, and its containers' {@code resources.claims} checked
   * against them.
   */
  List<PodResourceClaim> podClaims(Cursor spec) {
    List<PodResourceClaim> out = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (Cursor c : spec.list("resourceClaims")) {
      String name = uniqueLabel(c, names);
      Optional<String> claim = c.optString("resourceClaimName");
      Optional<String> template = c.optString("resourceClaimTemplateName");
      if (claim.isPresent() == template.isPresent()) {
        c.error("Invalid value: must specify one of: `resourceClaimName`, `resourceClaimTemplateName`");
        continue;
      }
      out.add(claim.<PodResourceClaim>map(n -> new PodResourceClaim.Named(name, n))
          .orElseGet(() -> new PodResourceClaim.FromTemplate(name, template.orElseThrow())));
    }
    for (String list : List.of("initContainers", "containers")) {
      for (Cursor container : spec.list(list)) {
        container.get("resources").ifPresent(r -> {
          for (Cursor claim : r.list("claims")) {
            String name = claim.requiredString("name");
            if (!name.isEmpty() && !names.contains(name)) {
              claim.get("name").orElseThrow().error("Not found: \"" + name + "\": must be the name of one of "
                  + "spec.resourceClaims");
            }
          }
        });
      }
    }
    return out;
  }
}
