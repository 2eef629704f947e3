package io.gpufleet.model.dra;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** The DRA objects a cluster holds: device classes, claims, claim templates, slices and device taint rules. */
public record DraObjects(List<DeviceClass> classes, List<ResourceClaim> claims, List<ResourceClaimTemplate> templates,
    List<ResourceSlice> slices, List<DeviceTaintRule> taintRules) {

  public static final DraObjects NONE = new DraObjects(List.of(), List.of(), List.of(), List.of(), List.of());

  public DraObjects {
    classes = List.copyOf(classes);
    claims = List.copyOf(claims);
    templates = List.copyOf(templates);
    slices = List.copyOf(slices);
    taintRules = List.copyOf(taintRules);
  }

  /** Without device taint rules. */
  public DraObjects(List<DeviceClass> classes, List<ResourceClaim> claims, List<ResourceClaimTemplate> templates,
      List<ResourceSlice> slices) {
    this(classes, claims, templates, slices, List.of());
  }

  /** The objects sorted by kind, in the order read. */
  public static DraObjects of(List<DraObject> objects) {
    List<DeviceClass> classes = new ArrayList<>();
    List<ResourceClaim> claims = new ArrayList<>();
    List<ResourceClaimTemplate> templates = new ArrayList<>();
    List<ResourceSlice> slices = new ArrayList<>();
    List<DeviceTaintRule> rules = new ArrayList<>();
    for (DraObject o : objects) {
      switch (o) {
        case DeviceClass c -> classes.add(c);
        case ResourceClaim c -> claims.add(c);
        case ResourceClaimTemplate t -> templates.add(t);
        case ResourceSlice s -> slices.add(s);
        case DeviceTaintRule r -> rules.add(r);
      }
    }
    return new DraObjects(classes, claims, templates, slices, rules);
  }

  /** Every object, by kind in the order above. */
  public List<DraObject> all() {
    List<DraObject> all = new ArrayList<>();
    all.addAll(classes);
    all.addAll(claims);
    all.addAll(templates);
    all.addAll(slices);
    all.addAll(taintRules);
    return all;
  }

  public Optional<DeviceClass> deviceClass(String name) {
    return classes.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  /**
   * The class that serves extended resource {@code resource}: the implicit
   * {@code deviceclass.resource.kubernetes.io/<class>} names its class; otherwise the class whose
   * {@code extendedResourceName} it is, the one read last when several claim it (upstream picks the
   * class created later; objects read in order are created in order).
   */
  public Optional<DeviceClass> classForExtendedResource(String resource) {
    if (resource.startsWith(DeviceClass.IMPLICIT_PREFIX)) {
      return deviceClass(resource.substring(DeviceClass.IMPLICIT_PREFIX.length()));
    }
    DeviceClass found = null;
    for (DeviceClass c : classes) {
      if (c.extendedResourceName().filter(resource::equals).isPresent()) {
        found = c;
      }
    }
    return Optional.ofNullable(found);
  }

  public Optional<ResourceClaim> claim(String namespace, String name) {
    return claims.stream().filter(c -> c.namespace().equals(namespace) && c.name().equals(name)).findFirst();
  }

  public Optional<ResourceClaimTemplate> template(String namespace, String name) {
    return templates.stream().filter(c -> c.namespace().equals(namespace) && c.name().equals(name)).findFirst();
  }

  /** The same objects with more slices (a driver's, derived for the nodes). */
  public DraObjects withSlices(List<ResourceSlice> more) {
    return new DraObjects(classes, claims, templates,
        Stream.concat(slices.stream(), more.stream()).toList(), taintRules);
  }

  /** The same objects with these claims in place of theirs. */
  public DraObjects withClaims(List<ResourceClaim> replaced) {
    return new DraObjects(classes, replaced, templates, slices, taintRules);
  }

  /** The same objects with more classes, skipping any whose name is already defined. */
  public DraObjects withDefaultClasses(List<DeviceClass> defaults) {
    List<DeviceClass> all = new ArrayList<>(classes);
    for (DeviceClass d : defaults) {
      if (deviceClass(d.name()).isEmpty()) {
        all.add(d);
      }
    }
    return new DraObjects(all, claims, templates, slices, taintRules);
  }

  public boolean isEmpty() {
    return classes.isEmpty() && claims.isEmpty() && templates.isEmpty() && slices.isEmpty() && taintRules.isEmpty();
  }
}
