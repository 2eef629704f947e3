package io.gpufleet.engine.dra;

import io.gpufleet.engine.mig.MigManager;
import io.gpufleet.model.deviceplugin.MigPartedConfig;
import io.gpufleet.model.dra.AttributeValue;
import io.gpufleet.model.dra.Device;
import io.gpufleet.model.dra.DeviceClass;
import io.gpufleet.model.dra.ResourceSlice;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.gpu.MigInstance;
import io.gpufleet.model.gpu.MigLayout;
import io.gpufleet.model.gpu.MigProfile;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.ResourceName;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * NVIDIA's DRA driver for GPUs (NVIDIA/k8s-dra-driver-gpu) as a node component: the ResourceSlice
 * its kubelet plugin publishes for a node and the DeviceClasses its chart installs.
 *
 * <p>A node gets a slice when GFD has labelled its GPUs ({@code nvidia.com/gpu.product},
 * {@code nvidia.com/gpu.count}) and it advertises neither {@code nvidia.com/gpu} nor a
 * {@code nvidia.com/mig-*} resource: the device plugin is off there, as it must be where the DRA
 * driver hands out the cards (both at once would give one card twice). A GPU without MIG is device
 * {@code gpu-<minor>} ({@code cmd/gpu-kubelet-plugin/deviceinfo.go}, {@code CanonicalName}) with the
 * attributes of {@code GpuInfo.Attributes()} that the twin knows: {@code type=gpu}, {@code uuid}
 * (the twin's name-based UUID of the card), {@code productName} (NVML's name), {@code architecture}
 * ({@code go-nvlib}'s {@code GetArchitectureAsString} names), {@code cudaComputeCapability} (a
 * version, {@code 9.0.0}), and {@code driverVersion} from GFD's
 * {@code nvidia.com/cuda.driver-version.full} label when the node has it; and capacity {@code memory}
 * ({@code partitions.go}, {@code fullGpuCapacity}).
 *
 * <p>A node with a {@code nvidia.com/mig.config} label has the layout the MIG manager gives it
 * ({@link MigManager#configure}); the driver then publishes, for each MIG-enabled card, the MIG
 * devices on it and not the card (static MIG, {@code nvlib.go}): named
 * {@code gpu-<minor>-mig-<profile>-<giProfileId>-<placementStart>} ({@code mig.go},
 * {@code ToCanonicalName}), with {@code CommonAttributesMig}'s attributes ({@code type=mig},
 * {@code parentUUID}, {@code profile}, and the card's product, architecture and versions) and
 * {@code uuid}, and {@code CommonCapacitiesMig}'s capacities where the GPU catalogue knows them
 * ({@code multiprocessors}, the engines, {@code memory}) plus one {@code memorySlice<i>} per memory
 * slice of the placement. A card's devices are in name order, as the driver sorts them. Not derived:
 * {@code brand}, {@code cudaDriverVersion}, {@code addressingMode} and the PCI attributes
 * ({@code resource.kubernetes.io/pciBusID}, {@code pcieRoot}), which need a real machine.
 */
public final class NvidiaDraDriver {

  /** {@code cmd/gpu-kubelet-plugin/main.go} {@code DriverName}. */
  public static final String DRIVER = "gpu.nvidia.com";

  private static final String DRIVER_VERSION_LABEL = "nvidia.com/cuda.driver-version.full";

  private final GpuCatalog catalog;
  private final MigManager mig;

  public NvidiaDraDriver(GpuCatalog catalog) {
    this(catalog, MigManager.STOCK);
  }

  /** With the MIG manager whose configs ({@code mig.config}) lay out the nodes' cards. */
  public NvidiaDraDriver(GpuCatalog catalog, MigManager mig) {
    this.catalog = catalog;
    this.mig = mig;
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

  /**
   * The objects written plus what the driver publishes for {@code nodes}: their slices and, where it
   * serves any node, its DeviceClasses unless the objects define classes of the same names.
   */
  public io.gpufleet.model.dra.DraObjects published(io.gpufleet.model.dra.DraObjects written, List<Node> nodes) {
    List<ResourceSlice> slices = slices(nodes);
    return slices.isEmpty() ? written : written.withSlices(slices).withDefaultClasses(deviceClasses());
  }

  /** The slices of every node the driver serves, in node order. */
  public List<ResourceSlice> slices(List<Node> nodes) {
    List<ResourceSlice> out = new ArrayList<>();
    for (Node n : nodes) {
      slice(n).ifPresent(out::add);
    }
    return out;
  }

  /**
   * The node's slice, pool named after the node as the kubelet plugin names it, its cards laid out
   * as the MIG manager lays out a node registering with its {@code mig.config} label.
   */
  public Optional<ResourceSlice> slice(Node node) {
    return slice(node, Optional.empty());
  }

  /** As {@link #slice(Node)}, for a node whose cards have this MIG layout now (the simulator's). */
  public Optional<ResourceSlice> slice(Node node, MigLayout layout) {
    return slice(node, Optional.of(layout));
  }

  private Optional<ResourceSlice> slice(Node node, Optional<MigLayout> known) {
    for (ResourceName r : node.allocatable().quantities().keySet()) {
      if (r.equals(ResourceName.NVIDIA_GPU) || r.name().startsWith("nvidia.com/mig-")) {
        return Optional.empty();
      }
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
    MigLayout layout = known.orElseGet(() -> node.labels().get(MigPartedConfig.CONFIG_LABEL).isEmpty()
        ? MigLayout.NONE : mig.configure(node.labels(), new GpuInventory(node.name(), model.get(), count.get()))
        .layout());
    return Optional.of(slice(node.name(), model.get(), count.get(), node.labels().get(DRIVER_VERSION_LABEL),
        layout));
  }

  /**
   * The slice the driver publishes on a node with {@code count} GPUs of {@code model} and no MIG:
   * also what a node not launched yet would get, for sizing it.
   */
  public static ResourceSlice slice(String nodeName, GpuModel model, int count, Optional<String> driverVersion) {
    return slice(nodeName, model, count, driverVersion, MigLayout.NONE);
  }

  private static ResourceSlice slice(String nodeName, GpuModel model, int count, Optional<String> driverVersion,
      MigLayout layout) {
    List<Device> devices = new ArrayList<>();
    for (int minor = 0; minor < count; minor++) {
      String uuid = GpuInventory.uuid(nodeName, minor);
      Map<String, AttributeValue> card = cardAttributes(model, driverVersion);
      if (!layout.migEnabled(minor)) {
        Map<String, AttributeValue> a = new LinkedHashMap<>();
        a.put("type", new AttributeValue.Str("gpu"));
        a.put("uuid", new AttributeValue.Str(uuid));
        a.putAll(card);
        Map<String, String> capacity = new LinkedHashMap<>();
        model.memoryMiB().ifPresent(m -> capacity.put("memory", m + "Mi"));
        devices.add(new Device("gpu-" + minor, a, capacity));
        continue;
      }
      TreeMap<String, Device> byName = new TreeMap<>();
      for (MigInstance i : layout.instances(minor)) {
        Device d = migDevice(minor, uuid, i, card);
        byName.put(d.name(), d);
      }
      devices.addAll(byName.values());
    }
    return new ResourceSlice(nodeName + "-" + DRIVER, DRIVER, nodeName, Optional.of(nodeName), devices);
  }

  /** The attributes a card and its MIG devices share. */
  private static Map<String, AttributeValue> cardAttributes(GpuModel model, Optional<String> driverVersion) {
    Map<String, AttributeValue> a = new LinkedHashMap<>();
    a.put("productName", new AttributeValue.Str(model.productName()));
    model.compute().ifPresent(cc -> {
      architecture(cc.family()).ifPresent(arch -> a.put("architecture", new AttributeValue.Str(arch)));
      a.put("cudaComputeCapability", new AttributeValue.Version(cc.major() + "." + cc.minor() + ".0"));
    });
    driverVersion.ifPresent(v -> a.put("driverVersion", new AttributeValue.Version(v)));
    return a;
  }

  private static Device migDevice(int minor, String parentUuid, MigInstance i, Map<String, AttributeValue> card) {
    MigProfile p = i.profile();
    Map<String, AttributeValue> a = new LinkedHashMap<>();
    a.put("type", new AttributeValue.Str("mig"));
    a.put("uuid", new AttributeValue.Str(GpuInventory.migUuid(parentUuid, i.placement(), p.name())));
    a.put("parentUUID", new AttributeValue.Str(parentUuid));
    a.put("profile", new AttributeValue.Str(p.name()));
    a.putAll(card);
    Map<String, String> capacity = new LinkedHashMap<>();
    p.multiprocessors().ifPresent(sm -> capacity.put("multiprocessors", Integer.toString(sm)));
    p.engines().ifPresent(e -> {
      capacity.put("copyEngines", Integer.toString(e.copy()));
      capacity.put("decoders", Integer.toString(e.decoder()));
      capacity.put("encoders", Integer.toString(e.encoder()));
      capacity.put("jpegEngines", Integer.toString(e.jpeg()));
      capacity.put("ofaEngines", Integer.toString(e.ofa()));
    });
    // NVML's MemorySizeMB is MiB (nvml.h), announced in bytes; the catalogue holds the GiB figure.
    p.memoryGiB().ifPresent(g -> capacity.put("memory", Math.round(g * 1024) + "Mi"));
    for (int s = i.placement().start(); s < i.placement().end(); s++) {
      capacity.put("memorySlice" + s, "1");
    }
    // The catalogue lacks a few GI profile ids (A30's); the name then says so rather than guess one.
    String id = p.giProfileId().isPresent() ? Integer.toString(p.giProfileId().getAsInt()) : "unknown";
    return new Device("gpu-" + minor + "-mig-" + rfc1123(p.name().replace(".", "")) + "-" + id + "-"
        + i.placement().start(), a, capacity);
  }

  /** {@code mig.go}'s {@code toRFC1123Compliant}. */
  static String rfc1123(String name) {
    String n = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-.]", "-");
    n = n.replaceAll("^-+|-+$", "");
    if (n.endsWith(".")) {
      n = n.substring(0, n.length() - 1);
    }
    return n.length() > 253 ? n.substring(0, 253) : n;
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
