package io.gpufleet.manifest.karpenter;

import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.Flags;
import io.gpufleet.model.deviceplugin.ReplicatedResource;
import io.gpufleet.model.deviceplugin.SharingSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.toml.TomlMapper;

/**
 * The NVIDIA device plugin settings of a Bottlerocket EC2NodeClass's {@code userData}, which is
 * Bottlerocket settings TOML that Karpenter merges into the node's user data, as the device-plugin
 * config the node's built-in plugin runs with.
 *
 * <p>Sources: Bottlerocket's settings reference, {@code settings.kubelet-device-plugins.*}
 * (https://bottlerocket.dev/en/os/1.54.x/api/settings/kubelet-device-plugins/: device-id-strategy,
 * device-list-strategy, device-partitioning-strategy, device-sharing-strategy, mig.profile,
 * mps.rename-by-default, mps.replicas, pass-device-specs, time-slicing.fail-requests-greater-than-one,
 * time-slicing.rename-by-default, time-slicing.replicas; defaults in the 1.23.x page: device-id-strategy
 * {@code index}, device-list-strategy {@code volume-mounts}, pass-device-specs {@code true}); the EKS
 * user guide, "Use time-slicing with NVIDIA GPUs on Amazon EKS" (the AMI's pre-installed plugin is
 * configured by these settings "with no separate device plugin installation, Helm chart, or
 * ConfigMap"; its EC2NodeClass example with {@code replicas = 4} "advertises four nvidia.com/gpu
 * slots for each physical GPU"; {@code settings.kubelet-device-plugins.nvidia.enabled = false} turns
 * the plugin off from Bottlerocket 1.63.0).
 *
 * <p>The plugin refuses time-slicing or MPS with fewer than 2 replicas ("number of replicas must be
 * >= 2", NVIDIA/k8s-device-plugin {@code api/config/v1/replicas.go}), which Bottlerocket renders the
 * settings into. Line numbers are exact; columns assume the block scalar is indented two spaces more
 * than its {@code userData:} key, as usual.
 */
final class BottlerocketSettings {
  private BottlerocketSettings() {}

  static final String TABLE = "settings.kubelet-device-plugins.nvidia";
  static final Set<String> NVIDIA_KEYS = Set.of("device-id-strategy", "device-list-strategy",
      "device-partitioning-strategy", "device-sharing-strategy", "pass-device-specs", "enabled", "time-slicing", "mps",
      "mig");
  static final Set<String> TIME_SLICING_KEYS = Set.of("replicas", "rename-by-default", "fail-requests-greater-than-one");
  static final Set<String> MPS_KEYS = Set.of("replicas", "rename-by-default");
  static final Set<String> SHARING = Set.of("none", "time-slicing", "mps");
  static final Set<String> ID_STRATEGIES = Set.of("index", "uuid");
  static final Set<String> LIST_STRATEGIES = Set.of("envvar", "volume-mounts", "cdi-cri", "cdi-annotations");

  /** Bottlerocket's documented defaults for the plugin's flags (settings reference, 1.23.x). */
  static final Flags BOTTLEROCKET_FLAGS = new Flags(Flags.DEFAULTS.migStrategy(), Flags.DEFAULTS.failOnInitError(),
      Flags.DEFAULTS.nvidiaDriverRoot(), Flags.DEFAULTS.mpsRoot(), Flags.DEFAULTS.deviceDiscoveryStrategy(), true,
      List.of("volume-mounts"), "index", Flags.DEFAULTS.sharedDevicesAllocationPolicy(), Flags.DEFAULTS.gfdNoTimestamp(),
      Flags.DEFAULTS.gfdSleepInterval());

  /** What Bottlerocket's plugin runs with where a setting is left out: whole GPUs, Bottlerocket's flags. */
  static final DevicePluginConfig DEFAULT = DevicePluginConfig.DEFAULT.withFlags(BOTTLEROCKET_FLAGS);

  /** Whether the node class's AMIs are Bottlerocket: {@code amiFamily: Bottlerocket} or a {@code bottlerocket@} alias. */
  static boolean isBottlerocket(Cursor spec) {
    if (spec.optString("amiFamily").map("Bottlerocket"::equals).orElse(false)) {
      return true;
    }
    for (Cursor term : spec.list("amiSelectorTerms")) {
      if (term.optString("alias").map(a -> a.startsWith("bottlerocket@")).orElse(false)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The config the node class's plugin runs with: {@link #DEFAULT} overridden by the user data's
   * {@code [settings.kubelet-device-plugins.nvidia]}; empty where the user data has no such table
   * or sets {@code enabled = false}, so that the cluster's own plugin configuration applies (a
   * difference from Bottlerocket, whose built-in plugin then runs with its defaults: docs/eks.md).
   * Problems are reported at {@code userData}'s lines; a table that cannot be read is the default.
   */
  static Optional<DevicePluginConfig> read(Cursor userData, Location key) {
    Reader r = new Reader(userData, key);
    return r.read();
  }

  /** One reading of a userData value. */
  private static final class Reader {
    private final Cursor userData;
    private final String text;
    private final List<String> lines;
    private final Location at;
    private final int columnOffset;
    private final boolean block;

    Reader(Cursor userData, Location key) {
      this.userData = userData;
      this.text = userData.asString();
      this.lines = text.lines().toList();
      this.at = userData.location();
      this.block = text.contains("\n");
      this.columnOffset = block ? key.column() + 2 : at.column();
    }

    Optional<DevicePluginConfig> read() {
      JsonNode root;
      try {
        root = new TomlMapper().readTree(text);
      } catch (JacksonException e) {
        TokenStreamLocation l = e.getLocation();
        int line = l == null ? 0 : l.getLineNr();
        int column = l == null ? 0 : l.getColumnNr();
        problem(true, line > 0 ? location(line - 1, Math.max(column - 1, 0)) : at, "userData is not valid TOML: "
            + e.getOriginalMessage() + "; the node class's NVIDIA device plugin settings are not read");
        return Optional.of(DEFAULT);
      }
      JsonNode settings = root.path("settings");
      List<String> others = new ArrayList<>();
      settings.propertyNames().forEach(n -> {
        if (!n.equals("kubelet-device-plugins")) {
          others.add("settings." + n);
        }
      });
      root.propertyNames().forEach(n -> {
        if (!n.equals("settings")) {
          others.add(n);
        }
      });
      if (!others.isEmpty()) {
        problem(false, at, "Bottlerocket settings " + String.join(", ", new TreeSet<>(others)) + " are not modelled by "
            + "gpufleet; only " + TABLE + " is read");
      }
      JsonNode plugins = settings.path("kubelet-device-plugins");
      plugins.propertyNames().forEach(n -> {
        if (!n.equals("nvidia")) {
          problem(true, locate(List.of("settings", "kubelet-device-plugins"), n), "settings.kubelet-device-plugins."
              + n + ": Bottlerocket has only the nvidia device plugin");
        }
      });
      JsonNode nvidia = plugins.path("nvidia");
      if (!nvidia.isObject()) {
        return Optional.empty();
      }
      List<String> table = List.of("settings", "kubelet-device-plugins", "nvidia");
      known(nvidia, table, NVIDIA_KEYS);
      Flags flags = BOTTLEROCKET_FLAGS;
      String idStrategy = word(nvidia, table, "device-id-strategy", ID_STRATEGIES).orElse(flags.deviceIdStrategy());
      List<String> listStrategy = listStrategy(nvidia, table).orElse(flags.deviceListStrategy());
      boolean passSpecs = bool(nvidia, table, "pass-device-specs").orElse(flags.passDeviceSpecs());
      flags = new Flags(flags.migStrategy(), flags.failOnInitError(), flags.nvidiaDriverRoot(), flags.mpsRoot(),
          flags.deviceDiscoveryStrategy(), passSpecs, listStrategy, idStrategy, flags.sharedDevicesAllocationPolicy(),
          flags.gfdNoTimestamp(), flags.gfdSleepInterval());
      if (bool(nvidia, table, "enabled").equals(Optional.of(false))) {
        // The built-in plugin is off (Bottlerocket 1.63+): whatever the cluster runs serves the node.
        return Optional.empty();
      }
      Optional<String> partitioning = word(nvidia, table, "device-partitioning-strategy", Set.of("none", "mig"));
      if (partitioning.equals(Optional.of("mig")) || nvidia.has("mig")) {
        problem(false, locate(table, nvidia.has("mig") ? "mig" : "device-partitioning-strategy"), "Bottlerocket's MIG "
            + "partitioning (device-partitioning-strategy, mig.profile) is not modelled by gpufleet; the node's GPUs "
            + "are simulated whole");
      }
      String sharing = word(nvidia, table, "device-sharing-strategy", SHARING).orElse("none");
      Optional<SharingSpec> timeSlicing = Optional.empty();
      Optional<SharingSpec> mps = Optional.empty();
      if (nvidia.has("time-slicing")) {
        known(nvidia.get("time-slicing"), child(table, "time-slicing"), TIME_SLICING_KEYS);
      }
      if (nvidia.has("mps")) {
        known(nvidia.get("mps"), child(table, "mps"), MPS_KEYS);
      }
      if (sharing.equals("time-slicing")) {
        timeSlicing = sharingSpec(nvidia.path("time-slicing"), child(table, "time-slicing"), true);
      } else if (sharing.equals("mps")) {
        mps = sharingSpec(nvidia.path("mps"), child(table, "mps"), false);
      }
      return Optional.of(new DevicePluginConfig(flags, timeSlicing, mps));
    }

    /**
     * A sharing section: {@code replicas} of {@code nvidia.com/gpu}, renamed to {@code .shared} with
     * {@code rename-by-default}. Time-slicing's {@code fail-requests-greater-than-one} is as written;
     * the plugin forces it for MPS. Booleans left out take the plugin's defaults (false).
     */
    private Optional<SharingSpec> sharingSpec(JsonNode section, List<String> path, boolean timeSliced) {
      Optional<Integer> replicas = integer(section, path, "replicas");
      if (replicas.isEmpty()) {
        if (!section.has("replicas")) {
          problem(true, locate(path.subList(0, path.size() - 1), "device-sharing-strategy"), String.join(".", path)
              + ".replicas is not set: gpufleet does not know the default Bottlerocket fills in; set it");
        }
        return Optional.empty();
      }
      if (replicas.get() < 2) {
        problem(true, locate(path, "replicas"), "number of replicas must be >= 2, found " + replicas.get()
            + " (the NVIDIA device plugin, which Bottlerocket configures from these settings, refuses it)");
        return Optional.empty();
      }
      boolean rename = bool(section, path, "rename-by-default").orElse(false);
      boolean failOverOne = !timeSliced || bool(section, path, "fail-requests-greater-than-one").orElse(false);
      return Optional.of(new SharingSpec(rename, failOverOne,
          List.of(ReplicatedResource.of("nvidia.com/gpu", replicas.get()))));
    }

    private void known(JsonNode table, List<String> path, Set<String> keys) {
      if (!table.isObject()) {
        problem(true, locate(path.subList(0, path.size() - 1), path.getLast()), String.join(".", path)
            + ": expected a table, found " + table.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
        return;
      }
      table.propertyNames().forEach(n -> {
        if (!keys.contains(n)) {
          problem(true, locate(path, n), String.join(".", path) + "." + n + " is not a Bottlerocket setting; "
              + "known: " + String.join(", ", new TreeSet<>(keys)));
        }
      });
    }

    private Optional<String> word(JsonNode table, List<String> path, String key, Set<String> allowed) {
      JsonNode v = table.get(key);
      if (v == null) {
        return Optional.empty();
      }
      if (!v.isString() || !allowed.contains(v.stringValue())) {
        problem(true, locate(path, key), String.join(".", path) + "." + key + ": expected one of "
            + String.join(", ", new TreeSet<>(allowed)) + ", found " + v);
        return Optional.empty();
      }
      return Optional.of(v.stringValue());
    }

    private Optional<List<String>> listStrategy(JsonNode table, List<String> path) {
      JsonNode v = table.get("device-list-strategy");
      if (v == null) {
        return Optional.empty();
      }
      List<String> out = new ArrayList<>();
      List<JsonNode> items = new ArrayList<>();
      if (v.isArray()) {
        v.forEach(items::add);
      } else {
        items.add(v);
      }
      for (JsonNode i : items) {
        if (!i.isString() || !LIST_STRATEGIES.contains(i.stringValue())) {
          problem(true, locate(path, "device-list-strategy"), String.join(".", path) + ".device-list-strategy: "
              + "expected one of " + String.join(", ", new TreeSet<>(LIST_STRATEGIES)) + " or a list of them, found " + v);
          return Optional.empty();
        }
        out.add(i.stringValue());
      }
      return Optional.of(List.copyOf(out));
    }

    private Optional<Boolean> bool(JsonNode table, List<String> path, String key) {
      JsonNode v = table.get(key);
      if (v == null) {
        return Optional.empty();
      }
      if (!v.isBoolean()) {
        problem(true, locate(path, key), String.join(".", path) + "." + key + ": expected true or false, found " + v);
        return Optional.empty();
      }
      return Optional.of(v.booleanValue());
    }

    private Optional<Integer> integer(JsonNode table, List<String> path, String key) {
      JsonNode v = table.get(key);
      if (v == null) {
        return Optional.empty();
      }
      if (!v.isIntegralNumber() || !v.canConvertToInt()) {
        problem(true, locate(path, key), String.join(".", path) + "." + key + ": expected an integer, found " + v);
        return Optional.empty();
      }
      return Optional.of(v.intValue());
    }

    private void problem(boolean error, Location where, String message) {
      if (error) {
        userData.diagnostics().error(where, userData.path(), message);
      } else {
        userData.diagnostics().warning(where, userData.path(), message);
      }
    }

    private static List<String> child(List<String> path, String key) {
      List<String> out = new ArrayList<>(path);
      out.add(key);
      return List.copyOf(out);
    }

    /**
     * Where {@code key} of the table at {@code path} is written: its line under the table's header
     * (or written in full, dotted, anywhere), else the header, else the userData value itself.
     */
    private Location locate(List<String> path, String key) {
      String header = String.join(".", path);
      Pattern keyLine = Pattern.compile("^\\s*\"?" + Pattern.quote(key) + "\"?\\s*=.*");
      Pattern dotted = Pattern.compile("^\\s*(\\S+\\.)?\"?" + Pattern.quote(key) + "\"?\\s*=.*");
      int headerLine = -1;
      for (int i = 0; i < lines.size(); i++) {
        String l = lines.get(i).strip();
        if (l.startsWith("[")) {
          if (headerLine >= 0) {
            break;
          }
          if (l.replace(" ", "").replace("\"", "").equals("[" + header + "]")) {
            headerLine = i;
          }
        } else if (headerLine >= 0 && keyLine.matcher(lines.get(i)).matches()) {
          return location(i, indent(lines.get(i)));
        }
      }
      for (int i = 0; i < lines.size(); i++) {
        if (dotted.matcher(lines.get(i)).matches() && lines.get(i).contains(key)) {
          return location(i, indent(lines.get(i)));
        }
      }
      if (headerLine >= 0) {
        return location(headerLine, indent(lines.get(headerLine)));
      }
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).contains(key)) {
          return location(i, indent(lines.get(i)));
        }
      }
      return at;
    }

    private static int indent(String line) {
      int i = 0;
      while (i < line.length() && Character.isWhitespace(line.charAt(i))) {
        i++;
      }
      return i;
    }

    /** A 0-based line and column of the TOML text, in the manifest's file. */
    private Location location(int line, int column) {
      return block ? new Location(at.file(), at.line() + 1 + line, columnOffset + column)
          : new Location(at.file(), at.line(), at.column() + column);
    }
  }
}
