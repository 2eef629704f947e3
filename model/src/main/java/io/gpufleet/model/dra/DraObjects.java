package io.gpufleet.model.dra;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** The DRA objects a cluster holds: device classes, claims, claim templates and slices. */
public record DraObjects(List<DeviceClass> classes, List<ResourceClaim> claims, List<ResourceClaimTemplate> templates,
    List<ResourceSlice> slices) {

  public static final DraObjects NONE = new DraObjects(List.of(), List.of(), List.of(), List.of());

  public DraObjects {
    classes = List.copyOf(classes);
    claims = List.copyOf(claims);
    templates = List.copyOf(templates);
    slices = List.copyOf(slices);
  }

  /** The objects sorted by kind, in the order read. */
  public static DraObjects of(List<DraObject> objects) {
    List<DeviceClass> classes = new ArrayList<>();
    List<ResourceClaim> claims = new ArrayList<>();
    List<ResourceClaimTemplate> templates = new ArrayList<>();
    List<ResourceSlice> slices = new ArrayList<>();
    for (DraObject o : objects) {
      switch (o) {
        case DeviceClass c -> classes.add(c);
        case ResourceClaim c -> claims.add(c);
        case ResourceClaimTemplate t -> templates.add(t);
        case ResourceSlice s -> slices.add(s);
      }
    }
    return new DraObjects(classes, claims, templates, slices);
  }

  public Optional<DeviceClass> deviceClass(String name) {
    return classes.stream().filter(c -> c.name().equals(name)).findFirst();
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
        Stream.concat(slices.stream(), more.stream()).toList());
  }

  /** The same objects with more classes, skipping any whose name is already defined. */
  public DraObjects withDefaultClasses(List<DeviceClass> defaults) {
    List<DeviceClass> all = new ArrayList<>(classes);
    for (DeviceClass d : defaults) {
      if (deviceClass(d.name()).isEmpty()) {
        all.add(d);
      }
    }
    return new DraObjects(all, claims, templates, slices);
  }

  public boolean isEmpty() {
    return classes.isEmpty() && claims.isEmpty() && templates.isEmpty() && slices.isEmpty();
  }
}
