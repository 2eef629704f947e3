package io.gpufleet.manifest.deviceplugin;

import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.manifest.yaml.YNode;
import io.gpufleet.model.deviceplugin.AllocationPolicy;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.Flags;
import io.gpufleet.model.deviceplugin.MigStrategy;
import io.gpufleet.model.deviceplugin.ReplicatedResource;
import io.gpufleet.model.deviceplugin.SharingSpec;
import io.gpufleet.model.wire.WireEnum;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Decodes the NVIDIA device plugin's {@code version: v1} config as the plugin does
 * ({@code api/config/v1/*.go} and {@code cmd/nvidia-device-plugin/main.go} validateFlags), with its
 * error words: what it refuses to start with is an error (an unknown version, a sharing block
 * without resources, a resource without name or replicas, replicas below 2, a malformed
 * {@code devices}, MPS with {@code migStrategy: mixed}); what it accepts is accepted. The plugin
 * ignores unknown fields, custom {@code rename}s, {@code devices} other than {@code all} and
 * top-level {@code resources}: gpufleet accepts them too, with a warning. A resource name without
 * a prefix gets {@code nvidia.com/} as upstream's NewResourceName gives it; with both
 * {@code timeSlicing} and {@code mps} set MPS wins (sharing.go), with a warning.
 */
public final class DevicePluginConfigDecoder {
  private DevicePluginConfigDecoder() {}

  private static final Set<String> ROOT = Set.of("version", "flags", "resources", "sharing", "imex");
  private static final Set<String> FLAGS = Set.of("migStrategy", "failOnInitError", "nvidiaDriverRoot",
      "nvidiaDevRoot", "mpsRoot", "gdsEnabled", "mofedEnabled", "gdrcopyEnabled", "useNodeFeatureAPI",
      "deviceDiscoveryStrategy", "plugin", "gfd");
  private static final Set<String> PLUGIN = Set.of("passDeviceSpecs", "deviceListStrategy", "deviceIDStrategy",
      "cdiAnnotationPrefix", "nvidiaCTKPath", "containerDriverRoot", "sharedDevicesAllocationPolicy");
  private static final Set<String> GFD = Set.of("oneshot", "noTimestamp", "sleepInterval", "outputFile",
      "machineTypeFile");
  private static final Set<String> SHARING = Set.of("timeSlicing", "mps");
  private static final Set<String> STRATEGY = Set.of("renameByDefault", "failRequestsGreaterThanOne", "resources");
  private static final Set<String> RESOURCE = Set.of("name", "replicas", "rename", "devices");
  private static final Set<String> IMEX = Set.of("channelIDs", "required");
  private static final Set<String> LIST_STRATEGIES = Set.of("envvar", "volume-mounts", "cdi-annotations", "cdi-cri");
  private static final String PREFIX = "nvidia.com/";
  private static final int MAX_NAME = 63;
  private static final Pattern DNS_SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final String UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
  /** A GPU index, a MIG index ({@code 0:1}), a GPU UUID or a MIG UUID (both MIG forms), as replicas.go accepts. */
  private static final Pattern DEVICE_REF = Pattern.compile("\\d+|\\d+:\\d+|GPU-" + UUID + "|MIG-" + UUID
      + "|MIG-GPU-" + UUID + "/\\d+/\\d+");

  public static DevicePluginConfig decode(Cursor root) {
    if (!root.isMap()) {
      root.expected("a device-plugin config (a mapping with version: v1)");
      return DevicePluginConfig.DEFAULT;
    }
    root.checkKnown(ROOT, false);
    root.get("version").ifPresent(v -> {
      String s = v.asString();
      if (!s.isEmpty() && !s.equals("v1")) {
        v.error("unknown version: " + s + " (the plugin knows only version v1)");
      }
    });
    root.get("resources").ifPresent(r -> r.warning("ignored: Customizing the 'resources' field is not yet supported "
        + "in the config. Ignoring..."));
    root.get("imex").ifPresent(i -> i.checkKnown(IMEX, false));
    Flags flags = root.get("flags").map(DevicePluginConfigDecoder::flags).orElse(Flags.DEFAULTS);
    Optional<SharingSpec> timeSlicing = Optional.empty();
    Optional<SharingSpec> mps = Optional.empty();
    Optional<Cursor> sharing = root.get("sharing");
    if (sharing.isPresent()) {
      sharing.get().checkKnown(SHARING, false);
      timeSlicing = sharing.get().get("timeSlicing").map(c -> strategy(c, "timeSlicing", false));
      mps = sharing.get().get("mps").map(c -> strategy(c, "mps", true));
      if (timeSlicing.isPresent() && timeSlicing.get().active() && mps.isPresent() && mps.get().active()) {
        sharing.get().get("timeSlicing").ifPresent(t -> t.warning("ignored: mps is set too, and the plugin's "
            + "sharing strategy is then mps"));
      }
      if (mps.isPresent() && mps.get().active() && flags.migStrategy() == MigStrategy.MIXED) {
        sharing.get().get("mps").ifPresent(m -> m.error("using --mig-strategy=mixed is not supported with MPS"));
      }
    }
    return new DevicePluginConfig(flags, timeSlicing, mps);
  }

  private static Flags flags(Cursor f) {
    f.checkKnown(FLAGS, false);
    MigStrategy mig = f.get("migStrategy").map(DevicePluginConfigDecoder::migStrategy).orElse(MigStrategy.NONE);
    boolean failOnInit = f.bool("failOnInitError", true);
    String driverRoot = f.string("nvidiaDriverRoot", "/");
    f.get("nvidiaDevRoot").ifPresent(Cursor::asString);
    Optional<String> mpsRoot = f.optString("mpsRoot");
    for (String b : List.of("gdsEnabled", "mofedEnabled", "gdrcopyEnabled", "useNodeFeatureAPI")) {
      f.get(b).ifPresent(Cursor::asBoolean);
    }
    String discovery = f.get("deviceDiscoveryStrategy").map(c -> word(c, Set.of("auto", "nvml", "tegra"))).orElse("auto");
    boolean passSpecs = false;
    List<String> listStrategy = List.of("envvar");
    String idStrategy = "uuid";
    AllocationPolicy policy = AllocationPolicy.DISTRIBUTED;
    Optional<Cursor> plugin = f.get("plugin");
    if (plugin.isPresent()) {
      Cursor p = plugin.get();
      p.checkKnown(PLUGIN, false);
      passSpecs = p.bool("passDeviceSpecs", false);
      Optional<Cursor> ls = p.get("deviceListStrategy");
      if (ls.isPresent()) {
        // A string or a list of strings.
        List<Cursor> items = ls.get().node() instanceof YNode.YList ? ls.get().asList()
            : List.of(ls.get());
        List<String> values = new ArrayList<>();
        for (Cursor c : items) {
          values.add(word(c, LIST_STRATEGIES));
        }
        listStrategy = values;
      }
      idStrategy = p.get("deviceIDStrategy").map(c -> word(c, Set.of("uuid", "index"))).orElse("uuid");
      for (String s : List.of("cdiAnnotationPrefix", "nvidiaCTKPath", "containerDriverRoot")) {
        p.get(s).ifPresent(Cursor::asString);
      }
      policy = p.get("sharedDevicesAllocationPolicy").map(c -> oneOf(c, AllocationPolicy.class,
          AllocationPolicy.DISTRIBUTED)).orElse(AllocationPolicy.DISTRIBUTED);
    }
    boolean noTimestamp = false;
    String sleep = "60s";
    Optional<Cursor> gfd = f.get("gfd");
    if (gfd.isPresent()) {
      gfd.get().checkKnown(GFD, false);
      gfd.get().get("oneshot").ifPresent(Cursor::asBoolean);
      noTimestamp = gfd.get().bool("noTimestamp", false);
      Optional<Cursor> s = gfd.get().get("sleepInterval");
      if (s.isPresent()) {
        s.get().asDurationOrNever();
        sleep = s.get().asString();
      }
      gfd.get().get("outputFile").ifPresent(Cursor::asString);
      gfd.get().get("machineTypeFile").ifPresent(Cursor::asString);
    }
    return new Flags(mig, failOnInit, driverRoot, mpsRoot, discovery, passSpecs, listStrategy, idStrategy, policy,
        noTimestamp, sleep);
  }

  /** {@code sharing.timeSlicing} or {@code sharing.mps}: replicas.go's ReplicatedResources. */
  private static SharingSpec strategy(Cursor s, String id, boolean mps) {
    s.checkKnown(STRATEGY, false);
    boolean rename = s.bool("renameByDefault", false);
    // Time-slicing treats an unset failRequestsGreaterThanOne as false; MPS defaults it to true (config.go).
    boolean failGreater = s.bool("failRequestsGreaterThanOne", mps);
    List<ReplicatedResource> resources = new ArrayList<>();
    Optional<Cursor> list = s.get("resources");
    if (list.isEmpty() || list.get().asList().isEmpty()) {
      (list.isPresent() ? list.get() : s).error("no resources specified");
      return new SharingSpec(rename, failGreater, resources);
    }
    Set<String> seen = new HashSet<>();
    for (Cursor r : list.get().asList()) {
      r.checkKnown(RESOURCE, false);
      Optional<Cursor> nameAt = r.get("name");
      Optional<Cursor> replicasAt = r.get("replicas");
      if (nameAt.isEmpty()) {
        r.error("no resource name specified");
      }
      String name = nameAt.map(c -> resourceName(c, mps)).orElse("");
      if (replicasAt.isEmpty()) {
        r.error("no replicas specified");
      }
      int replicas = replicasAt.map(Cursor::asInt).orElse(0);
      if (replicasAt.isPresent() && replicas < 2) {
        replicasAt.get().error("number of replicas must be >= 2, found " + replicas);
      }
      if (!name.isEmpty() && !seen.add(name)) {
        nameAt.get().warning("resource \"" + name + "\" is listed twice; the plugin uses the first entry");
      }
      r.get("rename").ifPresent(c -> {
        // A ResourceName too (replicas.go), so a malformed one fails before the plugin drops it.
        if (validName(c)) {
          c.warning("ignored: Setting the 'rename' field in sharing." + id
              + ".resources is not yet supported in the config. Ignoring...");
        }
      });
      String devices = r.get("devices").map(d -> devices(d, id)).orElse("all");
      resources.add(new ReplicatedResource(name, replicas, devices));
    }
    return new SharingSpec(rename, failGreater, resources);
  }

  /**
   * resources.go NewResourceName: {@code nvidia.com/} is prepended when missing, the whole name is at
   * most 63 characters and the part after the prefix a DNS subdomain. A well-formed name the node
   * never advertises is accepted by the plugin and simply shares nothing.
   */
  private static String resourceName(Cursor c, boolean mps) {
    String name = qualified(c.asString());
    if (!validName(c)) {
      return name;
    }
    if (!name.equals("nvidia.com/gpu") && !name.startsWith("nvidia.com/mig-")) {
      c.warning("the plugin advertises no resource \"" + name + "\" (only nvidia.com/gpu and, with migStrategy "
          + "mixed, nvidia.com/mig-<profile>); this entry shares nothing");
    } else if (mps && name.startsWith("nvidia.com/mig-")) {
      c.warning("MPS never shares MIG devices; this entry shares nothing");
    }
    return name;
  }

  private static String qualified(String raw) {
    return raw.startsWith(PREFIX) ? raw : PREFIX + raw;
  }

  /** NewResourceName's checks, recording upstream's error; true when the name is well formed. */
  private static boolean validName(Cursor c) {
    String name = qualified(c.asString());
    if (name.length() > MAX_NAME) {
      c.error("fully-qualified resource name must be " + MAX_NAME + " characters or less: " + name);
      return false;
    }
    String local = name.substring(PREFIX.length());
    if (!DNS_SUBDOMAIN.matcher(local).matches() || local.length() > 253) {
      c.error("incorrect format for resource name '" + name + "': expected a DNS subdomain after " + PREFIX);
      return false;
    }
    return true;
  }

  /** replicas.go ReplicatedDevices: "all", a count > 0, or a list of indices, MIG indices or UUIDs. */
  private static String devices(Cursor d, String id) {
    String ignored = "ignored: Customizing the 'devices' field in sharing." + id + ".resources is not yet supported "
        + "in the config. Ignoring...";
    if (d.node() instanceof YNode.YScalar s) {
      if (s.type() == YNode.YScalar.Type.INTEGER) {
        long count = d.asLong();
        if (count <= 0) {
          d.error("devices set as '" + s.text() + "' but a count of devices must be > 0");
        } else {
          d.warning(ignored);
        }
        return s.text();
      }
      if (!s.text().equals("all")) {
        d.error("devices set as '" + s.text() + "' but the only valid string input is 'all'");
      }
      return "all";
    }
    if (!(d.node() instanceof YNode.YList)) {
      d.error("unrecognized type for devices spec: expected all, a count or a list, found " + d.node().describe());
      return "all";
    }
    List<String> items = new ArrayList<>();
    for (Cursor c : d.asList()) {
      String v = c.node() instanceof YNode.YScalar s ? s.text() : "";
      if (!DEVICE_REF.matcher(v).matches()) {
        c.error("unsupported type for device in devices list: " + v + " (expected a GPU index, a MIG index "
            + "such as 0:1, or a GPU/MIG UUID)");
      }
      items.add(v);
    }
    d.warning(ignored);
    return String.join(",", items);
  }

  /** main.go validateFlags: "unknown MIG strategy: x". */
  private static MigStrategy migStrategy(Cursor c) {
    String s = c.asString();
    Optional<MigStrategy> m = WireEnum.fromWire(MigStrategy.class, s);
    if (m.isPresent()) {
      return m.get();
    }
    c.error("unknown MIG strategy: " + s + " (expected one of none, single, mixed)");
    return MigStrategy.NONE;
  }

  private static String word(Cursor c, Set<String> allowed) {
    String s = c.asString();
    if (!allowed.contains(s)) {
      c.error("expected one of " + String.join(", ", allowed.stream().sorted().toList()) + ", found \"" + s + "\"");
    }
    return s;
  }

  private static <E extends Enum<E> & WireEnum> E oneOf(Cursor c, Class<E> type, E fallback) {
    String s = c.asString();
    return WireEnum.fromWire(type, s).orElseGet(() -> {
      c.error("expected one of " + String.join(", ", WireEnum.wireNames(type)) + ", found \"" + s + "\"");
      return fallback;
    });
  }
}
