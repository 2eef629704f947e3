package io.gpufleet.manifest.deviceplugin;

import io.gpufleet.manifest.yaml.Cursor;
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

/**
 * Decodes the NVIDIA device plugin's {@code version: v1} config (k8s-gpu-semantics §2.1, from
 * {@code api/config/v1}), strictly: an unknown field is an error, as is anything the plugin would
 * refuse to start with (replicas below 2, MPS on MIG devices, both sharing strategies at once).
 * Fields the plugin accepts but ignores ({@code rename}, {@code devices} other than {@code all},
 * top-level {@code resources}) are warnings.
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

  public static DevicePluginConfig decode(Cursor root) {
    if (!root.isMap()) {
      root.expected("a device-plugin config (a mapping with version: v1)");
      return DevicePluginConfig.DEFAULT;
    }
    root.checkKnown(ROOT, true);
    root.get("version").ifPresent(v -> {
      String s = v.asString();
      if (!s.isEmpty() && !s.equals("v1")) {
        v.error("expected v1, found \"" + s + "\" (the plugin knows only version v1)");
      }
    });
    root.get("resources").ifPresent(r -> r.warning("ignored: the plugin currently ignores top-level resources"));
    root.get("imex").ifPresent(i -> i.checkKnown(IMEX, true));
    Flags flags = root.get("flags").map(DevicePluginConfigDecoder::flags).orElse(Flags.DEFAULTS);
    Optional<SharingSpec> timeSlicing = Optional.empty();
    Optional<SharingSpec> mps = Optional.empty();
    Optional<Cursor> sharing = root.get("sharing");
    if (sharing.isPresent()) {
      sharing.get().checkKnown(SHARING, true);
      timeSlicing = sharing.get().get("timeSlicing").map(c -> strategy(c, false, flags));
      mps = sharing.get().get("mps").map(c -> strategy(c, true, flags));
      if (timeSlicing.isPresent() && timeSlicing.get().active() && mps.isPresent() && mps.get().active()) {
        sharing.get().error("timeSlicing and mps are mutually exclusive: configure one of them");
      }
    }
    return new DevicePluginConfig(flags, timeSlicing, mps);
  }

  private static Flags flags(Cursor f) {
    f.checkKnown(FLAGS, true);
    MigStrategy mig = f.get("migStrategy").map(c -> oneOf(c, MigStrategy.class, MigStrategy.NONE))
        .orElse(MigStrategy.NONE);
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
      p.checkKnown(PLUGIN, true);
      passSpecs = p.bool("passDeviceSpecs", false);
      Optional<Cursor> ls = p.get("deviceListStrategy");
      if (ls.isPresent()) {
        // A string or a list of strings.
        List<Cursor> items = ls.get().node() instanceof io.gpufleet.manifest.yaml.YNode.YList ? ls.get().asList()
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
      gfd.get().checkKnown(GFD, true);
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

  private static SharingSpec strategy(Cursor s, boolean mps, Flags flags) {
    s.checkKnown(STRATEGY, true);
    boolean rename = s.bool("renameByDefault", false);
    // Time-slicing treats an unset failRequestsGreaterThanOne as false; MPS defaults it to true.
    boolean failGreater = s.bool("failRequestsGreaterThanOne", mps);
    List<ReplicatedResource> resources = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Cursor r : s.list("resources")) {
      r.checkKnown(RESOURCE, true);
      String name = r.requiredString("name");
      Optional<Cursor> replicasAt = r.require("replicas");
      int replicas = replicasAt.map(Cursor::asInt).orElse(0);
      if (replicasAt.isPresent() && replicas < 2) {
        replicasAt.get().error("expected replicas >= 2, found " + replicas);
      }
      Optional<Cursor> nameAt = r.get("name");
      if (!name.isEmpty() && nameAt.isPresent()) {
        if (!name.equals("nvidia.com/gpu") && !name.startsWith("nvidia.com/mig-")) {
          nameAt.get().error("expected nvidia.com/gpu or a MIG resource such as nvidia.com/mig-1g.10gb, found \""
              + name + "\"");
        } else if (mps && name.startsWith("nvidia.com/mig-")) {
          nameAt.get().error("expected nvidia.com/gpu, found \"" + name + "\": MPS is not supported on MIG devices");
        } else if (!mps && name.startsWith("nvidia.com/mig-") && flags.migStrategy() != MigStrategy.MIXED) {
          nameAt.get().warning("MIG resource names exist only with migStrategy mixed; this entry has no effect");
        }
        if (!seen.add(name)) {
          nameAt.get().error("duplicate resource \"" + name + "\"");
        }
      }
      if (mps && flags.migStrategy() == MigStrategy.SINGLE && name.equals("nvidia.com/gpu") && nameAt.isPresent()) {
        nameAt.get().error("MPS is not supported on MIG devices: with migStrategy single, nvidia.com/gpu names MIG devices");
      }
      r.get("rename").ifPresent(c -> c.warning("ignored: the plugin has custom renames disabled; use renameByDefault"));
      String devices = "all";
      Optional<Cursor> d = r.get("devices");
      if (d.isPresent()) {
        devices = devices(d.get());
      }
      resources.add(new ReplicatedResource(name, replicas, devices));
    }
    return new SharingSpec(rename, failGreater, resources);
  }

  private static String devices(Cursor d) {
    if (d.node() instanceof io.gpufleet.manifest.yaml.YNode.YScalar s) {
      if (s.type() == io.gpufleet.manifest.yaml.YNode.YScalar.Type.STRING && s.text().equals("all")) {
        return "all";
      }
      if (s.type() == io.gpufleet.manifest.yaml.YNode.YScalar.Type.INTEGER) {
        d.warning("ignored: the plugin shares all devices; only devices: all is honoured");
        return s.text();
      }
      d.expected("all, a count or a list of devices");
      return "all";
    }
    List<String> items = d.asList().stream().map(c -> c.node() instanceof io.gpufleet.manifest.yaml.YNode.YScalar s
        ? s.text() : "?").toList();
    d.warning("ignored: the plugin shares all devices; only devices: all is honoured");
    return String.join(",", items);
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
