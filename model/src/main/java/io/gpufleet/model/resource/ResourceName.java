package io.gpufleet.model.resource;

import java.util.Objects;

/** The name of a resource in a resource list: {@code cpu}, {@code memory}, {@code nvidia.com/gpu}, ... */
public record ResourceName(String name) implements Comparable<ResourceName> {

  public static final ResourceName CPU = new ResourceName("cpu");
  public static final ResourceName MEMORY = new ResourceName("memory");
  public static final ResourceName EPHEMERAL_STORAGE = new ResourceName("ephemeral-storage");
  public static final ResourceName PODS = new ResourceName("pods");
  public static final ResourceName NVIDIA_GPU = new ResourceName("nvidia.com/gpu");
  public static final ResourceName NVIDIA_GPU_SHARED = new ResourceName("nvidia.com/gpu.shared");

  public ResourceName {
    Objects.requireNonNull(name, "name");
  }

  /**
   * The record's usual equality and hash, written out: resource names are compared and hashed all
   * through a call, and the generated methods cost a bootstrap at the first use in every one. The
   * hash is the generated one's ({@code 31 * 0 + name.hashCode()}), so hash maps keep their order.
   */
  @Override
  public boolean equals(Object o) {
    return o == this || o instanceof ResourceName other && name.equals(other.name);
  }

  @Override
  public int hashCode() {
    return name.hashCode();
  }

  public static ResourceName of(String name) {
    return switch (name) {
      case "cpu" -> CPU;
      case "memory" -> MEMORY;
      case "ephemeral-storage" -> EPHEMERAL_STORAGE;
      case "pods" -> PODS;
      case "nvidia.com/gpu" -> NVIDIA_GPU;
      default -> new ResourceName(name);
    };
  }

  /**
   * Resources in the default {@code kubernetes.io} namespace: cpu, memory, storage, pods, hugepages,
   * and any name containing {@code kubernetes.io/} ({@code IsNativeResource}, helpers.go).
   */
  public boolean isNative() {
    return !name.contains("/") || name.contains("kubernetes.io/");
  }

  /** An extended resource: fully qualified outside {@code kubernetes.io}, not a quota name. */
  public boolean isExtended() {
    return !isNative() && !name.startsWith("requests.");
  }

  public boolean isHugePages() {
    return name.startsWith("hugepages-");
  }

  /** Resources the API server forbids overcommitting: extended resources and huge pages. */
  public boolean overcommitForbidden() {
    return isExtended() || isHugePages();
  }

  /** Extended resources and {@code pods} are counted in whole units ({@code IsIntegerResourceName}, helpers.go). */
  public boolean mustBeInteger() {
    return isExtended() || equals(PODS);
  }

  /** A name the device plugin hands out for a GPU or a slice of one. */
  public boolean isNvidiaGpuLike() {
    return name.startsWith("nvidia.com/gpu") || name.startsWith("nvidia.com/mig-");
  }

  /**
   * Orders cpu, memory, ephemeral-storage and pods first (the order kubectl and kube-scheduler
   * report them in), then every other name alphabetically.
   */
  @Override
  public int compareTo(ResourceName o) {
    int a = rank();
    int b = o.rank();
    return a != b ? Integer.compare(a, b) : name.compareTo(o.name);
  }

  private int rank() {
    return switch (name) {
      case "cpu" -> 0;
      case "memory" -> 1;
      case "ephemeral-storage" -> 2;
      case "pods" -> 3;
      default -> 4;
    };
  }

  @Override
  public String toString() {
    return name;
  }
}
