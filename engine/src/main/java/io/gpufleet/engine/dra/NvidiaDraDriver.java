package io.gpufleet.engine.dra;

import io.gpufleet.engine.mig.MigManager;
import io.gpufleet.model.deviceplugin.MigPartedConfig;
import io.gpufleet.model.dra.AttributeValue;
import io.gpufleet.model.dra.Device;
import io.gpufleet.model.dra.DeviceClass;
import io.gpufleet.model.dra.DraObjects;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NVIDIA's DRA driver for GPUs (NVIDIA/k8s-dra-driver-gpu) as a node component: the ResourceSlice
 * its kubelet plugin publishes for a node and the DeviceClasses its chart installs.
 *
 * <p>A node gets a slice when GFD has labelled its GPUs ({@code nvidia.com/gpu.product},
 * {@code nvidia.com/gpu.count}) and it advertises neither {@code nvidia.com/gpu} nor a
 * {@code nvidia.com/mig-*} resource: the device plugin is off there, as it must be where the DRA
 * driver hands out the cards (both at once would give one card twice). A GPU without MIG is device
 * {@code gpu-<minor>} ({@code cmd/gpu-kubelet-plugin/deviceinfo.go}, {@code CanonicalName}) with the
 * attributes of {@code GpuInfo.Attributes()} (read at NVIDIA/k8s-dra-driver-gpu 22407113, v0.4.0-rc.1
 * and 14 commits; the values are filled in {@code nvlib.go}, {@code getGpuInfo}): {@code type=gpu},
 * {@code uuid} (the twin's name-based UUID of the card), {@code productName} (NVML's name, from the
 * catalogue), {@code brand}, {@code architecture} ({@code go-nvlib}'s {@code GetArchitectureAsString}
 * names), {@code cudaComputeCapability} (the catalogue's, as a version, {@code 9.0.0}),
 * {@code driverVersion} and {@code cudaDriverVersion}, and the standard
 * {@code resource.kubernetes.io/pciBusID} and {@code resource.kubernetes.io/pcieRoot}
 * ({@code k8s.io/dynamic-resource-allocation/deviceattribute}); and capacity {@code memory}
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
 * slice of the placement. A card's devices are in name order, as the driver sorts them.
 *
 * <p>Where the values come from, since the twin has no NVML to ask:
 * <ul>
 *   <li>{@code brand}: {@link #BRAND}, what {@code go-nvlib}'s {@code GetBrandAsString} makes of
 *       {@code NVML_BRAND_NVIDIA}, the brand current drivers report for the catalogue's data-center
 *       cards ({@code nvidia-smi -q} shows "Product Brand : NVIDIA" for an H100 80GB HBM3 on 560.35.03
 *       and a Tesla T4 on 530.30.02); the catalogue holds no brand of its own.
 *   <li>{@code driverVersion}, {@code cudaDriverVersion}: GFD's {@code nvidia.com/cuda.driver-version.full}
 *       and {@code nvidia.com/cuda.runtime-version.full} labels, which GFD fills from the same NVML calls
 *       ({@code SystemGetDriverVersion}, {@code SystemGetCudaDriverVersion};
 *       NVIDIA/k8s-device-plugin {@code internal/lm/nvml.go}). A node without them is taken to run the
 *       driver the GPU Operator installs by default ({@link #DEFAULT_DRIVER_VERSION}) with
 *       {@link #DEFAULT_CUDA_DRIVER_VERSION}, which is the twin's assumption, not a reading.
 *       Versions are written as the driver's {@code semver.MustParse(..).String()} writes them: three
 *       numeric parts, a missing one 0, a leading zero dropped ({@code 12.4} is {@code 12.4.0}).
 *   <li>{@code pciBusID}, {@code pcieRoot}: <b>invented</b>. The twin knows no machine's PCI topology;
 *       card {@code m} is put on bus {@code 0x10+m} under a root complex of its own
 *       ({@code 0000:10:00.0}, {@code pci0000:10}), so selectors and attribute comparisons have
 *       well-formed values, which describe no real instance type.
 *   <li>Not published: {@code addressingMode}, which upstream sets only on coherent-memory systems
 *       (Grace Hopper and later), where the twin cannot tell HMM from ATS.
 * </ul>
 */
public final class NvidiaDraDriver {

  /** {@code cmd/gpu-kubelet-plugin/main.go} {@code DriverName}. */
  public static final String DRIVER = "gpu.nvidia.com";

  private static final String DRIVER_VERSION_LABEL = "nvidia.com/cuda.driver-version.full";
  private static final String CUDA_VERSION_LABEL = "nvidia.com/cuda.runtime-version.full";

  /** {@code go-nvlib} {@code GetBrandAsString} for {@code NVML_BRAND_NVIDIA}. */
  public static final String BRAND = "Nvidia";

  /**
   * The driver the GPU Operator installs unless told otherwise (NVIDIA/gpu-operator
   * {@code deployments/gpu-operator/values.yaml}, {@code driver.version}, at a22dbf67).
   */
  public static final String DEFAULT_DRIVER_VERSION = "595.91.07";

  /**
   * Invented: the CUDA driver version taken for {@link #DEFAULT_DRIVER_VERSION}, CUDA 13.2, the toolkit
   * released with the R595 branch as the twin assumes it; no NVML reading or NVIDIA table checked.
   */
  public static final String DEFAULT_CUDA_DRIVER_VERSION = "13.2";

  /** The standard attributes' domain ({@code deviceattribute.StandardDeviceAttributePrefix}). */
  static final String STANDARD = "resource.kubernetes.io/";

  private final GpuCatalog catalog;
  private final MigManager mig;
  private final GpuClaimPreparation.FeatureGates gates;

  public NvidiaDraDriver(GpuCatalog catalog) {
    this(catalog, MigManager.STOCK, GpuClaimPreparation.FeatureGates.DEFAULTS);
  }

  /**
   * With the MIG manager whose configs ({@code mig.config}, a custom mig-parted ConfigMap's included)
   * lay out the nodes' cards, and the driver's feature gates (DynamicMIG changes what it publishes).
   */
  public NvidiaDraDriver(GpuCatalog catalog, MigManager mig, GpuClaimPreparation.FeatureGates gates) {
    this.catalog = catalog;
    this.mig = mig;
    this.gates = gates;
  }

  /**
   * The driver's DeviceClasses ({@code deployments/helm/dra-driver-nvidia-gpu/templates/deviceclass-gpu.yaml},
   * {@code deviceclass-mig.yaml}, NVIDIA/k8s-dra-driver-gpu at 22407113): the chart gives
   * {@code gpu.nvidia.com} {@code extendedResourceName: nvidia.com/gpu} where it installs
   * {@code resource.k8s.io/v1}, as it does on the Kubernetes the twin follows.
   */
  public static List<DeviceClass> deviceClasses() {
    return List.of(
        new DeviceClass("gpu.nvidia.com",
            List.of("device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'"),
            Optional.of("nvidia.com/gpu")),
        new DeviceClass("mig.nvidia.com",
            List.of("device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'mig'")));
  }

  /**
   * The objects written plus what the driver publishes for {@code nodes}: their slices and, where it
   * serves any node, its DeviceClasses unless the objects define classes of the same names.
   */
  public DraObjects published(DraObjects written, List<Node> nodes) {
    List<ResourceSlice> slices = slices(nodes);
    return slices.isEmpty() ? written : written.withSlices(slices).withDefaultClasses(deviceClasses());
  }

  /** The slices of every node the driver serves, in node order. */
  public List<ResourceSlice> slices(List<Node> nodes) {
    List<ResourceSlice> out = new ArrayList<>();
    for (Node n : nodes) {
      out.addAll(slices(n, Optional.empty()));
    }
    return out;
  }

  /**
   * The node's slices with its cards laid out as {@code layout} (the simulator's): the one slice of
   * {@link #slice(Node, MigLayout)}, or under DynamicMIG the partitionable slices of
   * {@link DynamicMig#slices}.
   */
  public List<ResourceSlice> slices(Node node, MigLayout layout) {
    return slices(node, Optional.of(layout));
  }

  private List<ResourceSlice> slices(Node node, Optional<MigLayout> known) {
    if (gates.dynamicMig()) {
      Optional<Served> served = served(node);
      if (served.isPresent() && served.get().model().migCapable()) {
        Served s = served.get();
        Versions v = versions(node);
        return DynamicMig.slices(node.name(), s.model(), s.count(), minor -> cardAttributes(s.model(), v, minor));
      }
    }
    return slice(node, known).stream().toList();
  }

  /** A node the driver publishes for: its cards' model and count. */
  private record Served(GpuModel model, int count) {}

  private Optional<Served> served(Node node) {
    // The device plugin serves a node that advertises any of its resources: nvidia.com/gpu, a MIG
    // resource, or a renamed shared one (time-slicing's renameByDefault: nvidia.com/gpu.shared).
    for (ResourceName r : node.allocatable().quantities().keySet()) {
      if (r.name().startsWith("nvidia.com/")) {
        return Optional.empty();
      }
    }
    Optional<String> product = node.labels().get("nvidia.com/gpu.product");
    Optional<Integer> count = node.labels().get("nvidia.com/gpu.count").flatMap(NvidiaDraDriver::parseCount);
    if (product.isEmpty() || count.isEmpty()) {
      return Optional.empty();
    }
    return catalog.find(product.get()).map(m -> new Served(m, count.get()));
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
    return served(node).map(s -> {
      MigLayout layout = known.orElseGet(() -> layout(node, new GpuInventory(node.name(), s.model(), s.count())));
      return slice(node.name(), s.model(), s.count(), versions(node), layout);
    });
  }

  /**
   * The layout the MIG manager gives a node registering with these cards: its {@code mig.config}
   * label's, none without one.
   */
  public MigLayout layout(Node node, GpuInventory inventory) {
    return node.labels().get(MigPartedConfig.CONFIG_LABEL).isEmpty() ? MigLayout.NONE
        : mig.configure(node.labels(), inventory).layout();
  }

  /** Where a device of the driver's slice is: its card and, for a MIG device, the instance on the card. */
  public record Placement(int gpuIndex, Optional<MigInstance> mig) {}

  /**
   * Which card, and which MIG instance of {@code layout}, a device the driver published is: the
   * inverse of its naming ({@code gpu-<minor>}, {@link #migName}); empty for a name it does not publish
   * on a node with this layout.
   */
  public static Optional<Placement> placement(String device, MigLayout layout) {
    Matcher m = DEVICE_NAME.matcher(device);
    if (!m.matches() || m.group(1).length() > 9) {
      return Optional.empty();
    }
    int minor = Integer.parseInt(m.group(1));
    if (m.group(2) == null) {
      return layout.migEnabled(minor) ? Optional.empty() : Optional.of(new Placement(minor, Optional.empty()));
    }
    for (MigInstance i : layout.instances(minor)) {
      if (migName(minor, i).equals(device)) {
        return Optional.of(new Placement(minor, Optional.of(i)));
      }
    }
    return Optional.empty();
  }

  private static final Pattern DEVICE_NAME = Pattern.compile("gpu-([0-9]+)(-mig-.+)?");

  /** The driver's devices' UUIDs: a card's, or a MIG device's on that card. */
  public static String uuid(String nodeName, Placement p) {
    String card = GpuInventory.uuid(nodeName, p.gpuIndex());
    return p.mig().map(i -> GpuInventory.migUuid(card, i.placement(), i.profile().name())).orElse(card);
  }

  /**
   * Each allocated device's UUID on the allocation's node, whose cards have {@code layout}: what the
   * kubelet plugin's preparation needs, since MPS limits may name a device by its UUID.
   */
  public static Map<String, String> deviceUuids(Allocation allocation, MigLayout layout) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Allocation.Result r : allocation.results()) {
      placement(r.device(), layout).ifPresent(w -> out.put(r.device(), uuid(allocation.node(), w)));
    }
    return out;
  }

  /** The driver's and CUDA's versions on a node: GFD's labels, else the operator's default driver. */
  private static Versions versions(Node node) {
    return new Versions(node.labels().get(DRIVER_VERSION_LABEL).orElse(DEFAULT_DRIVER_VERSION),
        node.labels().get(CUDA_VERSION_LABEL).orElse(DEFAULT_CUDA_DRIVER_VERSION));
  }

  /** {@code driverVersion} and {@code cudaDriverVersion} as NVML would give them. */
  record Versions(String driver, String cuda) {
    static final Versions DEFAULT = new Versions(DEFAULT_DRIVER_VERSION, DEFAULT_CUDA_DRIVER_VERSION);
  }

  /**
   * The slice the driver publishes on a node with {@code count} GPUs of {@code model}, no MIG and the
   * operator's default driver: also what a node not launched yet would get, for sizing it.
   */
  public static ResourceSlice slice(String nodeName, GpuModel model, int count) {
    return slice(nodeName, model, count, Versions.DEFAULT, MigLayout.NONE);
  }

  private static ResourceSlice slice(String nodeName, GpuModel model, int count, Versions versions,
      MigLayout layout) {
    List<Device> devices = new ArrayList<>();
    for (int minor = 0; minor < count; minor++) {
      String uuid = GpuInventory.uuid(nodeName, minor);
      Map<String, AttributeValue> card = cardAttributes(model, versions, minor);
      if (!layout.migEnabled(minor)) {
        Map<String, String> capacity = new LinkedHashMap<>();
        model.memoryMiB().ifPresent(m -> capacity.put("memory", m + "Mi"));
        devices.add(new Device("gpu-" + minor, gpuAttributes(uuid, card), capacity));
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

  /** A whole card's attributes ({@code GpuInfo.Attributes}): {@code type=gpu}, its {@code uuid}, the card's. */
  static Map<String, AttributeValue> gpuAttributes(String uuid, Map<String, AttributeValue> card) {
    Map<String, AttributeValue> a = new LinkedHashMap<>();
    a.put("type", new AttributeValue.Str("gpu"));
    a.put("uuid", new AttributeValue.Str(uuid));
    a.putAll(card);
    return a;
  }

  /**
   * The attributes a card and its MIG devices share ({@code GpuInfo.Attributes}, {@code mig.go}
   * {@code CommonAttributesMig}), in that code's order.
   */
  static Map<String, AttributeValue> cardAttributes(GpuModel model, Versions versions, int minor) {
    Map<String, AttributeValue> a = new LinkedHashMap<>();
    a.put("productName", new AttributeValue.Str(model.productName()));
    a.put("brand", new AttributeValue.Str(BRAND));
    model.compute().ifPresent(cc -> {
      architecture(cc.family()).ifPresent(arch -> a.put("architecture", new AttributeValue.Str(arch)));
      a.put("cudaComputeCapability", new AttributeValue.Version(cc.major() + "." + cc.minor() + ".0"));
    });
    semver(versions.driver()).ifPresent(v -> a.put("driverVersion", new AttributeValue.Version(v)));
    semver(versions.cuda()).ifPresent(v -> a.put("cudaDriverVersion", new AttributeValue.Version(v)));
    a.put(STANDARD + "pciBusID", new AttributeValue.Str(pciBusId(minor)));
    a.put(STANDARD + "pcieRoot", new AttributeValue.Str(pcieRoot(minor)));
    return a;
  }

  /** Invented (see the class comment): card {@code minor} on bus {@code 0x10+minor}, extended BDF notation. */
  static String pciBusId(int minor) {
    return String.format(Locale.ROOT, "0000:%02x:00.0", 0x10 + minor);
  }

  /** Invented: the card's own root complex, {@code pci<domain>:<bus>} as the standard attribute writes it. */
  static String pcieRoot(int minor) {
    return String.format(Locale.ROOT, "pci0000:%02x", 0x10 + minor);
  }

  /**
   * {@code X.Y[.Z]} as {@code semver.MustParse(..).String()} writes it: each part a number, a missing
   * patch 0; empty for anything else (where the driver's {@code MustParse} would stop the plugin).
   */
  static Optional<String> semver(String version) {
    String[] parts = version.split("\\.", -1);
    if (parts.length < 2 || parts.length > 3) {
      return Optional.empty();
    }
    long[] n = new long[3];
    for (int i = 0; i < parts.length; i++) {
      if (parts[i].isEmpty() || parts[i].length() > 18 || !parts[i].chars().allMatch(c -> c >= '0' && c <= '9')) {
        return Optional.empty();
      }
      n[i] = Long.parseLong(parts[i]);
    }
    return Optional.of(n[0] + "." + n[1] + "." + n[2]);
  }

  private static Device migDevice(int minor, String parentUuid, MigInstance i, Map<String, AttributeValue> card) {
    MigProfile p = i.profile();
    Map<String, AttributeValue> a = new LinkedHashMap<>();
    a.put("type", new AttributeValue.Str("mig"));
    a.put("uuid", new AttributeValue.Str(GpuInventory.migUuid(parentUuid, i.placement(), p.name())));
    a.put("parentUUID", new AttributeValue.Str(parentUuid));
    a.put("profile", new AttributeValue.Str(p.name()));
    a.putAll(card);
    Map<String, String> capacity = migCapacities(p);
    for (int s = i.placement().start(); s < i.placement().end(); s++) {
      capacity.put("memorySlice" + s, "1");
    }
    return new Device(migName(minor, i), a, capacity);
  }

  /**
   * {@code mig.go}'s {@code CommonCapacitiesMig}, where the GPU catalogue knows the figures: the
   * profile's {@code multiprocessors}, engines and {@code memory} (NVML's {@code MemorySizeMB} is MiB,
   * {@code nvml.h}; the catalogue holds the GiB figure).
   */
  static Map<String, String> migCapacities(MigProfile p) {
    Map<String, String> capacity = new LinkedHashMap<>();
    p.multiprocessors().ifPresent(sm -> capacity.put("multiprocessors", Integer.toString(sm)));
    p.engines().ifPresent(e -> {
      capacity.put("copyEngines", Integer.toString(e.copy()));
      capacity.put("decoders", Integer.toString(e.decoder()));
      capacity.put("encoders", Integer.toString(e.encoder()));
      capacity.put("jpegEngines", Integer.toString(e.jpeg()));
      capacity.put("ofaEngines", Integer.toString(e.ofa()));
    });
    p.memoryGiB().ifPresent(g -> capacity.put("memory", Math.round(g * 1024) + "Mi"));
    return capacity;
  }

  /**
   * {@code gpu-<minor>-mig-<profile>-<giProfileId>-<placementStart>} ({@code mig.go}, {@code ToCanonicalName}).
   * The catalogue lacks a few GI profile ids (A30's); the name then says so rather than guess one.
   */
  static String migName(int minor, MigInstance i) {
    MigProfile p = i.profile();
    String id = p.giProfileId().isPresent() ? Integer.toString(p.giProfileId().getAsInt()) : "unknown";
    return "gpu-" + minor + "-mig-" + rfc1123(p.name().replace(".", "")) + "-" + id + "-" + i.placement().start();
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
