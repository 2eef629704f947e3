package io.gpufleet.model.cloud;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * An instance type as Karpenter's cloud provider describes it: its shape (vCPU, memory, GPUs), what
 * the kubelet will leave allocatable, its on-demand price and its offerings (capacity type × zone).
 * Names follow EC2's {@code <family>.<size>} form, e.g. {@code g5.xlarge}, {@code p6-b200.48xlarge}.
 */
public record InstanceType(
    String name,
    String architecture,
    int vcpu,
    long memoryMib,
    Optional<GpuSpec> gpu,
    ResourceList allocatable,
    double onDemandPrice,
    List<Offering> offerings) {

  public InstanceType {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(architecture, "architecture");
    Objects.requireNonNull(gpu, "gpu");
    Objects.requireNonNull(allocatable, "allocatable");
    offerings = List.copyOf(offerings);
    if (name.indexOf('.') <= 0 || name.endsWith(".")) {
      throw new IllegalArgumentException("an instance type name is <family>.<size>, found \"" + name + "\"");
    }
  }

  public String family() {
    return name.substring(0, name.indexOf('.'));
  }

  public String size() {
    return name.substring(name.indexOf('.') + 1);
  }

  /** The letters that open the family: {@code g} for g6e, {@code p} for p6-b200. */
  public String category() {
    String f = family();
    int i = 0;
    while (i < f.length() && Character.isLetter(f.charAt(i))) {
      i++;
    }
    return f.substring(0, i);
  }

  /** The digits after the category: 6 for g6e and p6-b200; empty when there are none. */
  public Optional<Integer> generation() {
    String f = family();
    int i = category().length();
    int j = i;
    while (j < f.length() && Character.isDigit(f.charAt(j))) {
      j++;
    }
    return j == i ? Optional.empty() : Optional.of(Integer.parseInt(f.substring(i, j)));
  }

  public int gpuCount() {
    return gpu.map(GpuSpec::count).orElse(0);
  }

  public long maxPods() {
    return allocatable.getOrZero(ResourceName.PODS).value();
  }

  /**
   * What the instance has, as Karpenter counts it against NodePool limits (reference §1.1): vCPU,
   * memory, pods and physical GPUs as {@code nvidia.com/gpu}.
   */
  public ResourceList capacity() {
    ResourceList c = ResourceList.EMPTY
        .with(ResourceName.CPU, Quantity.of(vcpu))
        .with(ResourceName.MEMORY, Quantity.ofMebibytes(memoryMib))
        .with(ResourceName.PODS, Quantity.of(maxPods()));
    if (gpuCount() > 0 && "nvidia".equals(gpu.get().manufacturer())) {
      c = c.with(ResourceName.NVIDIA_GPU, Quantity.of(gpuCount()));
    }
    return c;
  }

  /**
   * The labels every node of this type carries (zone and capacity type depend on the offering and
   * are added at launch). GPU labels are set only for GPU types (reference §1.2).
   */
  public Labels labels() {
    TreeMap<String, String> m = new TreeMap<>();
    m.put(InstanceLabels.INSTANCE_TYPE, name);
    m.put(InstanceLabels.ARCH, architecture);
    m.put(InstanceLabels.OS, "linux");
    m.put(InstanceLabels.INSTANCE_CATEGORY, category());
    m.put(InstanceLabels.INSTANCE_FAMILY, family());
    generation().ifPresent(g -> m.put(InstanceLabels.INSTANCE_GENERATION, Integer.toString(g)));
    m.put(InstanceLabels.INSTANCE_SIZE, size());
    m.put(InstanceLabels.INSTANCE_CPU, Integer.toString(vcpu));
    m.put(InstanceLabels.INSTANCE_MEMORY, Long.toString(memoryMib));
    gpu.ifPresent(g -> {
      m.put(InstanceLabels.INSTANCE_GPU_NAME, g.name());
      m.put(InstanceLabels.INSTANCE_GPU_MANUFACTURER, g.manufacturer());
      m.put(InstanceLabels.INSTANCE_GPU_COUNT, Integer.toString(g.count()));
      m.put(InstanceLabels.INSTANCE_GPU_MEMORY, Long.toString(g.memoryMib()));
    });
    return Labels.of(m);
  }

  /** The available offerings that pass the filter, cheapest first (ties by capacity type, then zone). */
  public List<Offering> available(Predicate<Offering> filter) {
    List<Offering> out = new ArrayList<>();
    for (Offering o : offerings) {
      if (o.available() && filter.test(o)) {
        out.add(o);
      }
    }
    out.sort(OFFERING_ORDER);
    return out;
  }

  /** The cheapest available offering that passes the filter. */
  public Optional<Offering> cheapest(Predicate<Offering> filter) {
    Offering best = null;
    for (Offering o : offerings) {
      if (o.available() && filter.test(o) && (best == null || OFFERING_ORDER.compare(o, best) < 0)) {
        best = o;
      }
    }
    return Optional.ofNullable(best);
  }

  public InstanceType withOfferings(List<Offering> newOfferings) {
    return new InstanceType(name, architecture, vcpu, memoryMib, gpu, allocatable, onDemandPrice, newOfferings);
  }

  /**
   * Price, then capacity type in launch priority (reserved, spot, on-demand), then zone: deterministic.
   * Written out rather than Comparator.comparingDouble(..).thenComparing(..), whose lambdas inside
   * java.util the AOT cache does not hold, so that a CLI start makes no classes for them at run time.
   */
  public static final Comparator<Offering> OFFERING_ORDER = (a, b) -> {
    int c = Double.compare(a.pricePerHour(), b.pricePerHour());
    if (c == 0) {
      c = a.capacityType().compareTo(b.capacityType());
    }
    return c != 0 ? c : a.zone().compareTo(b.zone());
  };

  @Override
  public String toString() {
    return name;
  }
}
