package io.gpufleet.model.cloud;

import io.gpufleet.model.gpu.InstanceTypeGpus;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The instance types a cloud offers, in a fixed order. The built-in catalogue is the reference's
 * AWS GPU table (§6) with a few CPU types; a user catalogue replaces or extends it.
 */
public record InstanceCatalog(List<InstanceType> types) {

  static final String BUILT_IN_RESOURCE = "aws-instance-types.txt";

  public InstanceCatalog {
    types = List.copyOf(types);
    Set<String> names = new HashSet<>();
    for (InstanceType t : types) {
      if (!names.add(t.name())) {
        throw new IllegalArgumentException("instance type " + t.name() + " is listed twice");
      }
    }
  }

  /** The built-in catalogue with the default pricing (spot at 0.7 × on-demand, three us-east-1 zones). */
  public static InstanceCatalog builtIn() {
    return builtIn(Pricing.DEFAULT);
  }

  public static InstanceCatalog builtIn(Pricing pricing) {
    return new InstanceCatalog(InstanceTable.parse(BUILT_IN_RESOURCE, builtInText(), pricing));
  }

  static String builtInText() {
    try (InputStream in = InstanceCatalog.class.getResourceAsStream(BUILT_IN_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("the built-in instance catalogue " + BUILT_IN_RESOURCE + " is missing");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public Optional<InstanceType> find(String name) {
    for (InstanceType t : types) {
      if (t.name().equals(name)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  public InstanceType require(String name) {
    return find(name).orElseThrow(() -> new IllegalArgumentException("no instance type " + name + " in the catalogue"));
  }

  /** This catalogue with the given types added; a type with a name already here replaces it in place. */
  public InstanceCatalog extendedWith(List<InstanceType> more) {
    Map<String, InstanceType> byName = new LinkedHashMap<>();
    for (InstanceType t : types) {
      byName.put(t.name(), t);
    }
    for (InstanceType t : more) {
      byName.put(t.name(), t);
    }
    return new InstanceCatalog(new ArrayList<>(byName.values()));
  }

  /**
   * The catalogue as the GPU model's {@link io.gpufleet.model.gpu.InstanceTypeGpus} role: an instance
   * type's GPUs by a name the GPU catalogue knows (Karpenter's GPU names are its aliases; EC2 names
   * both A100 sizes {@code a100}, so the 80 GB one is told by its memory).
   */
  public InstanceTypeGpus instanceTypeGpus() {
    return name -> find(name).flatMap(InstanceType::gpu)
        .map(g -> new InstanceTypeGpus.Attached(g.catalogName(), g.count()));
  }

  public InstanceCatalog filter(Predicate<InstanceType> keep) {
    return new InstanceCatalog(types.stream().filter(keep).toList());
  }

  public int size() {
    return types.size();
  }
}
