package io.gpufleet.engine.dra;

import io.gpufleet.model.dra.AttributeValue;
import io.gpufleet.model.dra.Device;
import io.gpufleet.model.dra.DeviceClass;
import io.gpufleet.model.dra.ResourceSlice;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.node.Node;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * NVIDIA's DRA driver for GPUs (NVIDIA/k8s-dra-driver-gpu) as a node component: the ResourceSlice
 * its kubelet plugin publishes for a node and the DeviceClasses its chart installs.
 *
 * <p>A node gets a slice when GFD has labelled its GPUs ({@code nvidia.com/gpu.product},
 * {@code nvidia.com/gpu.count}) and it advertises no {@code nvidia.com/gpu}: the device plugin is
 * off there, as it must be where the DRA driver hands out the cards (both at once would give one card
 * twice). Devices are named {@code gpu-<minor>} ({@code cmd/gpu-kubelet-plugin/deviceinfo.go},
 * {@code CanonicalName}), with the attributes of {@code GpuInfo.Attributes()} that the catalogue
 * knows: {@code type=gpu}, {@code productName} (NVML's name), {@code architecture}
 * ({@code go-nvlib}'s {@code GetArchitectureAsString} names), {@code cudaComputeCapability} (a
 * version, {@code 9.0.0}), and {@code driverVersion} from GFD's
 * {@code nvidia.com/cuda.driver-version.full} label when the node has it; and capacity {@code memory}
 * ({@code partitions.go}, {@code fullGpuCapacity}). Not derived: {@code uuid}, {@code brand},
 * {@code cudaDriverVersion}, PCI attributes, and MIG devices.
 */
public final class NvidiaDraDriver {

  /** {@code cmd/gpu-kubelet-plugin/main.go} {@code DriverName}. */
  public static final String DRIVER = "gpu.nvidia.com";

  private static final String DRIVER_VERSION_LABEL = "nvidia.com/cuda.driver-version.full";

  private final GpuCatalog catalog;

  public NvidiaDraDriver(GpuCatalog catalog) {
    this.catalog = catalog;
  }

  /**
   * The driver's DeviceClasses ({@code deployments/helm/dra-driver-nvidia-gpu/templates/deviceclass-gpu.yaml},
   * {@code deviceclass-mig.yaml}).
   */
  public static List<DeviceClass> deviceClasses() {
    return List.of(
        new DeviceClass("gpu.nvidia.com",
            List.of("device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'")),
        new DeviceClass("mig.nvidia.com",
            List.of("device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'mig'")));
  }

  /** The slices of every node the driver serves, in node order. */
  public List<ResourceSlice> slices(List<Node> nodes) {
    List<ResourceSlice> out = new ArrayList<>();
    for (Node n : nodes) {
      slice(n).ifPresent(out::add);
    }
    return out;
  }

  /** The node's slice, pool named after the node as the kubelet plugin names it. */
  public Optional<ResourceSlice> slice(Node node) {
    if (node.allocatable().contains(io.gpufleet.model.resource.ResourceName.NVIDIA_GPU)) {
      return Optional.empty();
    }
    Optional<String> product = node.labels().get("nvidia.com/gpu.product");
    Optional<Integer> count = node.labels().get("nvidia.com/gpu.count").flatMap(NvidiaDraDriver::parseCount);
    if (product.isEmpty() || count.isEmpty()) {
      return Optional.empty();
    }
    Optional<GpuModel> model = catalog.find(product.get());
    if (model.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(slice(node.name(), model.get(), count.get(), node.labels().get(DRIVER_VERSION_LABEL)));
  }

  /**
   * The slice the driver publishes on a node with {@code count} GPUs of {@code model}: also what a
   * node not launched yet would get, for sizing it.
   */
  public static ResourceSlice slice(String nodeName, GpuModel model, int count, Optional<String> driverVersion) {
    List<Device> devices = new ArrayList<>();
    for (int minor = 0; minor < count; minor++) {
      devices.add(device(minor, model, driverVersion));
    }
    return new ResourceSlice(nodeName + "-" + DRIVER, DRIVER, nodeName, Optional.of(nodeName), devices);
  }

  private static Device device(int minor, GpuModel model, Optional<String> driverVersion) {
    Map<String, AttributeValue> a = new LinkedHashMap<>();
    a.put("type", new AttributeValue.Str("gpu"));
    a.put("productName", new AttributeValue.Str(model.productName()));
    model.compute().ifPresent(cc -> {
      architecture(cc.family()).ifPresent(arch -> a.put("architecture", new AttributeValue.Str(arch)));
      a.put("cudaComputeCapability", new AttributeValue.Version(cc.major() + "." + cc.minor() + ".0"));
    });
    driverVersion.ifPresent(v -> a.put("driverVersion", new AttributeValue.Version(v)));
    Map<String, String> capacity = new LinkedHashMap<>();
    model.memoryMiB().ifPresent(m -> capacity.put("memory", m + "Mi"));
    return new Device("gpu-" + minor, a, capacity);
  }

  /** GFD's family as NVML's architecture string. */
  static Optional<String> architecture(String family) {
    return Optional.ofNullable(switch (family) {
      case "kepler" -> "Kepler";
      case "maxwell" -> "Maxwell";
      case "pascal" -> "Pascal";
      case "volta" -> "Volta";
      case "turing" -> "Turing";
      case "ampere" -> "Ampere";
      case "ada-lovelace" -> "Ada Lovelace";
      case "hopper" -> "Hopper";
      case "blackwell" -> "Blackwell";
      default -> null;
    });
  }

  private static Optional<Integer> parseCount(String s) {
    try {
      return Optional.of(Integer.parseInt(s));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
