package io.gpufleet.model.gpu;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * One GPU model of the catalogue: what NVML reports (product name, memory, compute capability), its
 * streaming multiprocessors, its MIG geometry and profiles, and the figures a performance model
 * needs (memory bandwidth, peak dense 16-bit tensor throughput). Every empty optional is a fact
 * nobody has confirmed; {@code sources} says where the rest came from.
 *
 * @param id              the catalogue's key ({@code A10G}, {@code H100-80GB}, {@code V100M16})
 * @param productName     the name NVML reports ({@code NVIDIA A10G}); GFD's label is {@link #productLabel()}
 * @param memoryMiB       NVML's total memory in MiB, as {@code nvidia.com/gpu.memory} carries it
 * @param memoryNominal   true when {@code memoryMiB} is the datasheet size × 1024, not an observed NVML value
 * @param bf16Tflops      peak dense BF16 tensor TFLOPS; empty where BF16 is unsupported or unknown
 * @param fp16Tflops      peak dense FP16 tensor TFLOPS
 * @param pciDeviceId     the PCI device ID mig-parted's {@code device-filter} matches ({@code 0x233510DE})
 * @param aliases         other names that identify it (trace model names, Karpenter's {@code instance-gpu-name})
 */
public record GpuModel(
    String id,
    String productName,
    OptionalLong memoryMiB,
    boolean memoryNominal,
    Optional<ComputeCapability> compute,
    OptionalInt multiprocessors,
    Optional<MigGeometry> migGeometry,
    List<MigProfile> migProfiles,
    OptionalDouble bandwidthGBps,
    OptionalDouble bf16Tflops,
    OptionalDouble fp16Tflops,
    Optional<String> pciDeviceId,
    List<String> aliases,
    List<String> sources) {

  public GpuModel {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(productName, "productName");
    migProfiles = List.copyOf(migProfiles);
    aliases = List.copyOf(aliases);
    sources = List.copyOf(sources);
    if (migGeometry.isEmpty() && !migProfiles.isEmpty()) {
      throw new IllegalArgumentException(id + ": MIG profiles without a MIG geometry");
    }
    if (migGeometry.isPresent() && memoryMiB.isEmpty()) {
      throw new IllegalArgumentException(id + ": a MIG-capable GPU needs its memory size");
    }
  }

  public boolean migCapable() {
    return migGeometry.isPresent();
  }

  /**
   * The product as GFD labels it: NVML's name with characters outside {@code [A-Za-z0-9-_. ]}
   * removed and each run of whitespace turned into {@code -} ({@code NVIDIA H100 80GB HBM3} →
   * {@code NVIDIA-H100-80GB-HBM3}) (k8s-gpu-semantics §3).
   */
  public String productLabel() {
    return sanitise(productName);
  }

  static String sanitise(String name) {
    StringBuilder b = new StringBuilder();
    boolean space = false;
    for (char c : name.strip().toCharArray()) {
      if (Character.isWhitespace(c)) {
        space = true;
        continue;
      }
      boolean allowed = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
          || c == '-' || c == '_' || c == '.';
      if (!allowed) {
        continue;
      }
      if (space && !b.isEmpty()) {
        b.append('-');
      }
      space = false;
      b.append(c);
    }
    return b.toString();
  }

  /** GFD's {@code nvidia.com/gpu.family}; {@code undefined} when the compute capability is unknown. */
  public String family() {
    return compute.map(ComputeCapability::family).orElse("undefined");
  }

  public Optional<MigProfile> migProfile(String name) {
    return migProfiles.stream().filter(p -> p.name().equals(name)).findFirst();
  }

  /** The profile whose resource suffix ({@code 1g.10gb.me}) or name ({@code 1g.10gb+me}) this is. */
  public Optional<MigProfile> migProfileByLabel(String label) {
    return migProfiles.stream().filter(p -> p.name().equals(label) || p.labelName().equals(label)).findFirst();
  }

  /** True when this model answers to the name: its id, GFD product label, NVML name or an alias (case-insensitive). */
  public boolean answersTo(String name) {
    return answersToName(name) || aliases.stream().anyMatch(name::equalsIgnoreCase);
  }

  /** True when the name is this model's id, GFD product label or NVML name (case-insensitive), aliases aside. */
  public boolean answersToName(String name) {
    return name.equalsIgnoreCase(id) || name.equalsIgnoreCase(productLabel()) || name.equalsIgnoreCase(productName);
  }

  @Override
  public String toString() {
    return id;
  }
}
