package io.gpufleet.model.cloud;

import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.QuantityFormatException;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The plain-text instance table the built-in catalogue ships as (and a user may write): one type a
 * line, twelve whitespace-separated columns, {@code #} comments. Read by hand so {@code model}
 * stays free of parsing libraries.
 *
 * <pre>name arch vcpu memoryMiB gpus gpuMaker gpuName gpuMemoryMiB allocCpu allocMemory maxPods onDemandPerHour</pre>
 *
 * {@code allocCpu} and {@code allocMemory} may be {@code -} to use Karpenter's estimate
 * ({@link AllocatableEstimate}); ephemeral storage is always the estimate's (default root volume).
 */
public final class InstanceTable {
  private InstanceTable() {}

  static final int COLUMNS = 12;

  public static List<InstanceType> parse(String source, String text, Pricing pricing) {
    List<InstanceType> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      int hash = line.indexOf('#');
      if (hash >= 0) {
        line = line.substring(0, hash);
      }
      line = line.strip();
      if (line.isEmpty()) {
        continue;
      }
      InstanceType t = row(source, i + 1, line.split("\\s+"), pricing);
      if (!seen.add(t.name())) {
        throw new CatalogFormatException(source, i + 1, "instance type " + t.name() + " is listed twice");
      }
      out.add(t);
    }
    return out;
  }

  private static InstanceType row(String source, int line, String[] f, Pricing pricing) {
    if (f.length != COLUMNS) {
      throw new CatalogFormatException(source, line, "expected " + COLUMNS + " columns (name arch vcpu memoryMiB gpus "
          + "gpuMaker gpuName gpuMemoryMiB allocCpu allocMemory maxPods onDemandPerHour), found " + f.length);
    }
    String name = f[0];
    if (name.indexOf('.') <= 0) {
      throw new CatalogFormatException(source, line, "expected an instance type name such as g5.xlarge, found \""
          + name + "\"");
    }
    int vcpu = (int) positive(source, line, "vcpu", f[2]);
    long memory = positive(source, line, "memoryMiB", f[3]);
    int gpus = (int) nonNegative(source, line, "gpus", f[4]);
    Optional<GpuSpec> gpu = Optional.empty();
    if (gpus > 0) {
      gpu = Optional.of(new GpuSpec(f[6], f[5], gpus, positive(source, line, "gpuMemoryMiB", f[7])));
    }
    int maxPods = (int) positive(source, line, "maxPods", f[10]);
    ResourceList estimate = AllocatableEstimate.of(vcpu, memory, maxPods);
    Quantity cpu = f[8].equals("-") ? estimate.getOrZero(ResourceName.CPU) : quantity(source, line, "allocCpu", f[8]);
    Quantity mem = f[9].equals("-") ? estimate.getOrZero(ResourceName.MEMORY)
        : quantity(source, line, "allocMemory", f[9]);
    ResourceList allocatable = ResourceList.EMPTY.with(ResourceName.CPU, cpu).with(ResourceName.MEMORY, mem)
        .with(ResourceName.EPHEMERAL_STORAGE, estimate.getOrZero(ResourceName.EPHEMERAL_STORAGE))
        .with(ResourceName.PODS, Quantity.of(maxPods));
    if (gpu.isPresent() && "nvidia".equals(gpu.get().manufacturer())) {
      allocatable = allocatable.with(ResourceName.NVIDIA_GPU, Quantity.of(gpus));
    }
    double price;
    try {
      price = Double.parseDouble(f[11]);
    } catch (NumberFormatException e) {
      throw new CatalogFormatException(source, line, "onDemandPerHour: expected a price in $/h, found \"" + f[11] + "\"");
    }
    if (!(price >= 0)) {
      throw new CatalogFormatException(source, line, "onDemandPerHour: expected a non-negative price, found " + f[11]);
    }
    return new InstanceType(name, f[1], vcpu, memory, gpu, allocatable, price, pricing.offeringsFor(price));
  }

  private static long positive(String source, int line, String column, String text) {
    long v = nonNegative(source, line, column, text);
    if (v == 0) {
      throw new CatalogFormatException(source, line, column + ": expected a positive integer, found 0");
    }
    return v;
  }

  private static long nonNegative(String source, int line, String column, String text) {
    try {
      long v = Long.parseLong(text);
      if (v < 0) {
        throw new NumberFormatException();
      }
      return v;
    } catch (NumberFormatException e) {
      throw new CatalogFormatException(source, line, column + ": expected a non-negative integer, found \"" + text + "\"");
    }
  }

  private static Quantity quantity(String source, int line, String column, String text) {
    try {
      return Quantity.parse(text);
    } catch (QuantityFormatException e) {
      throw new CatalogFormatException(source, line, column + ": " + e.getMessage() + ", found \"" + text + "\"");
    }
  }
}
