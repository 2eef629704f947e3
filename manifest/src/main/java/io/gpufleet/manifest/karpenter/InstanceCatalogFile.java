package io.gpufleet.manifest.karpenter;

import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.manifest.yaml.YNode;
import io.gpufleet.manifest.yaml.YamlReader;
import io.gpufleet.model.cloud.AllocatableEstimate;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.CatalogFormatException;
import io.gpufleet.model.cloud.GpuSpec;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceTable;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.cloud.Offering;
import io.gpufleet.model.cloud.Pricing;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A user's instance catalogue, which extends or replaces the built-in one. Two forms:
 *
 * <ul>
 *   <li>the built-in plain table (see {@link InstanceTable}), for files not ending in {@code .yaml} or
 *       {@code .yml}; it extends the built-in catalogue;
 *   <li>YAML, {@code apiVersion: gpufleet.io/v1alpha1, kind: InstanceCatalog}, with {@code spec.mode}
 *       ({@code Extend}, the default, or {@code Replace}), optional {@code spec.pricing} (region, zones,
 *       {@code spotPriceRatio}) and {@code spec.instanceTypes}.
 * </ul>
 *
 * <pre>
 * spec:
 *   mode: Extend
 *   pricing: {zones: [us-east-1a], spotPriceRatio: 0.6}
 *   instanceTypes:
 *   - name: g6.xlarge
 *     vcpu: 4
 *     memory: 16Gi
 *     maxPods: 58
 *     gpu: {name: l4, count: 1, memory: 22888Mi}      # manufacturer defaults to nvidia
 *     onDemandPrice: 0.8048
 *     spotPrice: 0.35                                # optional, else ratio × on-demand
 *     allocatable: {cpu: 3920m, memory: 14162Mi}     # optional, else Karpenter's estimate
 *     offerings:                                     # optional, replaces the generated ones
 *     - {capacityType: spot, zone: us-east-1a, price: 0.35, available: true}
 * </pre>
 */
public record InstanceCatalogFile(Mode mode, Optional<Pricing> pricing, List<InstanceType> instanceTypes) {

  public static final String API_VERSION = "gpufleet.io/v1alpha1";

  public enum Mode { EXTEND, REPLACE }

  private static final Set<String> TYPE_FIELDS = Set.of("name", "architecture", "vcpu", "memory", "maxPods", "gpu",
      "onDemandPrice", "spotPrice", "allocatable", "offerings");

  public InstanceCatalogFile {
    instanceTypes = List.copyOf(instanceTypes);
  }

  /** The catalogue a simulation uses: the built-in one (priced by this file if it says how) changed by this file. */
  public InstanceCatalog applyTo(InstanceCatalog builtIn) {
    return switch (mode) {
      case REPLACE -> new InstanceCatalog(instanceTypes);
      case EXTEND -> builtIn.extendedWith(instanceTypes);
    };
  }

  /** Applies to gpufleet's built-in catalogue, re-priced with this file's pricing when it has one. */
  public InstanceCatalog applyToBuiltIn() {
    return applyTo(InstanceCatalog.builtIn(pricing.orElse(Pricing.DEFAULT)));
  }

  /** Reads a catalogue file; throws {@link ManifestException} with every problem found. */
  public static InstanceCatalogFile read(String file, String text) {
    if (!(file.endsWith(".yaml") || file.endsWith(".yml"))) {
      try {
        return new InstanceCatalogFile(Mode.EXTEND, Optional.empty(), InstanceTable.parse(file, text, Pricing.DEFAULT));
      } catch (CatalogFormatException e) {
        throw new ManifestException(ManifestProblem.error(new Location(file, e.line(), 1), "",
            e.getMessage().substring(e.getMessage().indexOf(": ", file.length()) + 2)));
      }
    }
    Diagnostics d = new Diagnostics();
    List<YNode> docs = new YamlReader().readAll(file, text);
    if (docs.size() != 1) {
      throw new ManifestException(ManifestProblem.error(Location.unknown(file), "",
          "expected one InstanceCatalog document, found " + docs.size()));
    }
    Cursor doc = Cursor.root(docs.getFirst(), d);
    String apiVersion = doc.requiredString("apiVersion");
    String kind = doc.requiredString("kind");
    if (!kind.equals("InstanceCatalog")) {
      doc.get("kind").ifPresent(c -> c.error("expected InstanceCatalog, found \"" + kind + "\""));
    }
    if (!apiVersion.equals(API_VERSION)) {
      doc.get("apiVersion").ifPresent(c -> c.error("expected " + API_VERSION + ", found \"" + apiVersion + "\""));
    }
    Cursor spec = doc.require("spec").orElse(doc);
    spec.checkKnown(Set.of("mode", "pricing", "instanceTypes"), true);
    Mode mode = Mode.EXTEND;
    Optional<Cursor> mc = spec.get("mode");
    if (mc.isPresent()) {
      switch (mc.get().asString()) {
        case "Extend" -> mode = Mode.EXTEND;
        case "Replace" -> mode = Mode.REPLACE;
        default -> mc.get().error("expected Extend or Replace, found \"" + mc.get().asString() + "\"");
      }
    }
    Optional<Pricing> pricing = spec.get("pricing").map(InstanceCatalogFile::pricing);
    Pricing effective = pricing.orElse(Pricing.DEFAULT);
    List<InstanceType> types = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (Cursor t : spec.list("instanceTypes")) {
      Optional<InstanceType> it = instanceType(t, effective);
      if (it.isPresent()) {
        if (!names.add(it.get().name())) {
          t.error("instance type " + it.get().name() + " is listed twice");
        }
        types.add(it.get());
      }
    }
    if (mode == Mode.REPLACE && types.isEmpty()) {
      spec.error("mode Replace needs at least one instance type");
    }
    d.throwIfErrors();
    return new InstanceCatalogFile(mode, pricing, types);
  }

  private static Pricing pricing(Cursor p) {
    p.checkKnown(Set.of("region", "zones", "spotPriceRatio"), true);
    String region = p.string("region", Pricing.DEFAULT.region());
    List<String> zones = p.get("zones").isPresent() ? p.stringList("zones") : Pricing.DEFAULT.zones();
    double ratio = p.get("spotPriceRatio").map(InstanceCatalogFile::number).orElse(Pricing.DEFAULT.spotPriceRatio());
    if (zones.isEmpty()) {
      p.error("zones: at least one zone is needed");
      zones = Pricing.DEFAULT.zones();
    }
    if (!(ratio > 0 && ratio <= 1)) {
      p.get("spotPriceRatio").ifPresent(c -> c.error("expected a fraction in (0, 1], found " + c.node().describe()));
      ratio = Pricing.DEFAULT.spotPriceRatio();
    }
    return new Pricing(region, zones, ratio);
  }

  private static double number(Cursor c) {
    if (c.node() instanceof YNode.YScalar s
        && (s.type() == YNode.YScalar.Type.INTEGER || s.type() == YNode.YScalar.Type.FLOAT)) {
      return Double.parseDouble(s.text());
    }
    c.expected("a number");
    return 0;
  }

  private static Optional<InstanceType> instanceType(Cursor t, Pricing pricing) {
    t.checkKnown(TYPE_FIELDS, true);
    String name = t.requiredString("name");
    if (!name.isEmpty() && (name.indexOf('.') <= 0 || name.endsWith("."))) {
      t.get("name").ifPresent(c -> c.error("expected <family>.<size> such as g5.xlarge, found \"" + name + "\""));
      return Optional.empty();
    }
    int vcpu = t.require("vcpu").map(Cursor::asInt).orElse(0);
    long memoryMib = t.require("memory").map(Cursor::asQuantity).map(q -> q.value() >> 20).orElse(0L);
    int maxPods = t.require("maxPods").map(Cursor::asInt).orElse(0);
    if (vcpu <= 0 || memoryMib <= 0 || maxPods <= 0) {
      t.error("vcpu, memory and maxPods must be positive");
      return Optional.empty();
    }
    Optional<GpuSpec> gpu = t.get("gpu").map(g -> {
      g.checkKnown(Set.of("name", "manufacturer", "count", "memory"), true);
      int count = g.require("count").map(Cursor::asInt).orElse(1);
      long mem = g.get("memory").map(Cursor::asQuantity).map(q -> q.value() >> 20).orElse(0L);
      return new GpuSpec(g.requiredString("name"), g.string("manufacturer", "nvidia"), Math.max(1, count), mem);
    });
    double onDemand = t.require("onDemandPrice").map(InstanceCatalogFile::number).orElse(0.0);
    ResourceList estimate = AllocatableEstimate.of(vcpu, memoryMib, maxPods);
    ResourceList given = t.resourceList("allocatable");
    ResourceList allocatable = estimate.plus(ResourceList.EMPTY);
    for (var e : given.quantities().entrySet()) {
      allocatable = allocatable.with(e.getKey(), e.getValue());
    }
    allocatable = allocatable.with(ResourceName.PODS, Quantity.of(maxPods));
    if (gpu.isPresent() && gpu.get().manufacturer().equals("nvidia") && !given.contains(ResourceName.NVIDIA_GPU)) {
      allocatable = allocatable.with(ResourceName.NVIDIA_GPU, Quantity.of(gpu.get().count()));
    }
    List<Offering> offerings = pricing.offeringsFor(onDemand);
    Optional<Double> spot = t.get("spotPrice").map(InstanceCatalogFile::number);
    if (spot.isPresent()) {
      List<Offering> repriced = new ArrayList<>();
      for (Offering o : offerings) {
        repriced.add(o.capacityType() == CapacityType.SPOT ? new Offering(o.capacityType(), o.zone(), spot.get(), true) : o);
      }
      offerings = repriced;
    }
    if (t.get("offerings").isPresent()) {
      List<Offering> explicit = new ArrayList<>();
      for (Cursor o : t.list("offerings")) {
        o.checkKnown(Set.of("capacityType", "zone", "price", "available"), true);
        String ct = o.requiredString("capacityType");
        Optional<CapacityType> type = CapacityType.fromWire(ct);
        if (type.isEmpty() || type.get() == CapacityType.RESERVED) {
          // Reserved offerings are a capacity reservation's, selected by an EC2NodeClass, never the catalogue's.
          o.get("capacityType").ifPresent(c -> c.error("expected spot or on-demand, found \"" + ct + "\""
              + (type.isPresent() ? " (reserved offerings come from the scenario's capacityReservations, selected by an"
              + " EC2NodeClass's capacityReservationSelectorTerms)" : "")));
          continue;
        }
        double price = o.require("price").map(InstanceCatalogFile::number).orElse(0.0);
        explicit.add(new Offering(type.get(), o.requiredString("zone"), Math.max(0, price), o.bool("available", true)));
      }
      offerings = explicit;
    }
    return Optional.of(new InstanceType(name, t.string("architecture", "amd64"), vcpu, memoryMib, gpu, allocatable,
        Math.max(0, onDemand), offerings));
  }
}
