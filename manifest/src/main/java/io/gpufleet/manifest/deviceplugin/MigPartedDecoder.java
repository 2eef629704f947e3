package io.gpufleet.manifest.deviceplugin;

import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.manifest.yaml.YNode;
import io.gpufleet.model.deviceplugin.MigPartedConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Decodes a mig-parted config ({@code version: v1}, {@code mig-configs}) as mig-parted's
 * {@code api/spec/v1/spec.go} does, strictly, with its error words: {@code version} required and
 * {@code v1}; at least one config and one entry per config; each entry needs {@code devices}
 * ({@code all} or indices) and {@code mig-enabled}; {@code mig-enabled: true} needs
 * {@code mig-devices}, {@code false} forbids them; counts are non-negative and not all zero. Whether
 * a profile exists on a GPU is checked when the layout is planned for that GPU, as mig-parted
 * checks it at apply.
 */
public final class MigPartedDecoder {
  private MigPartedDecoder() {}

  private static final Set<String> ROOT = Set.of("version", "mig-configs");
  private static final Set<String> ENTRY = Set.of("device-filter", "devices", "mig-enabled", "mig-devices");
  /** mig-parted's profile syntax: {@code [<c>c.]<g>g.<n>gb} with attributes such as {@code +me}, {@code -me}. */
  private static final Pattern PROFILE = Pattern.compile("(\\d+c\\.)?\\d+g\\.\\d+gb([+-][a-z]+(\\.[a-z]+)*)*");

  public static MigPartedConfig decode(Cursor root) {
    if (!root.isMap()) {
      root.expected("a mig-parted config (a mapping with version: v1 and mig-configs)");
      return MigPartedConfig.of(Map.of());
    }
    root.checkKnown(ROOT, true);
    Optional<Cursor> versionAt = root.get("version");
    if (versionAt.isEmpty()) {
      root.error("unable to parse with missing 'version' field");
    }
    versionAt.ifPresent(v -> {
      String version = v.asString();
      if (!version.equals("v1")) {
        v.error("unknown version: " + version + " (mig-parted knows only v1)");
      }
    });
    Map<String, List<MigPartedConfig.Entry>> configs = new LinkedHashMap<>();
    // spec.go accepts a file with only a version; mig-configs, when given, needs an entry.
    root.get("mig-configs").ifPresent(mc -> {
      if (mc.entries().isEmpty()) {
        mc.error("at least one entry in 'mig-configs' is required");
      }
      mc.entries().forEach((name, c) -> {
        List<MigPartedConfig.Entry> entries = new ArrayList<>();
        for (Cursor e : c.asList()) {
          entries.add(entry(e));
        }
        if (entries.isEmpty()) {
          c.error("at least one entry in '" + name + "' is required");
        }
        configs.put(name, entries);
      });
    });
    return MigPartedConfig.of(configs);
  }

  private static MigPartedConfig.Entry entry(Cursor e) {
    if (!e.isMap()) {
      e.expected("a mig-parted entry (devices, mig-enabled, mig-devices)");
      return MigPartedConfig.Entry.all(false, Map.of());
    }
    e.checkKnown(ENTRY, true);
    for (String k : List.of("devices", "mig-enabled")) {
      if (e.get(k).isEmpty()) {
        e.error("missing required field: " + k);
      }
    }
    List<String> filter = new ArrayList<>();
    e.get("device-filter").ifPresent(f -> {
      if (f.node() instanceof YNode.YList) {
        filter.addAll(f.asList().stream().map(Cursor::asString).toList());
      } else {
        filter.add(f.asString());
      }
    });
    Optional<List<Integer>> devices = Optional.empty();
    Optional<Cursor> d = e.get("devices");
    if (d.isPresent()) {
      if (d.get().node() instanceof YNode.YList) {
        List<Integer> indices = new ArrayList<>();
        for (Cursor i : d.get().asList()) {
          int v = i.asInt();
          if (v < 0) {
            i.error("expected a GPU index >= 0, found " + v);
          }
          indices.add(v);
        }
        devices = Optional.of(indices);
      } else if (!d.get().asString().equals("all")) {
        d.get().error("invalid string input for 'devices': " + d.get().asString() + " (expected all or a list of GPU indices)");
      }
    }
    boolean enabled = e.get("mig-enabled").map(Cursor::asBoolean).orElse(false);
    TreeMap<String, Integer> migDevices = new TreeMap<>();
    Optional<Cursor> md = e.get("mig-devices");
    md.ifPresent(m -> {
      m.entries().forEach((profile, n) -> {
        int count = n.asInt();
        if (!PROFILE.matcher(profile).matches()) {
          n.error("error validating values in 'mig-devices' field: invalid format for '" + profile
              + "' (expected a profile such as 1g.10gb or 1g.10gb+me)");
        } else if (count < 0) {
          n.error("error validating values in 'mig-devices' field: invalid count for '" + profile + "': " + count);
        }
        migDevices.put(profile, count);
      });
      if (!migDevices.isEmpty() && migDevices.values().stream().allMatch(n -> n == 0)) {
        m.error("error validating values in 'mig-devices' field: all counts for all MigProfiles are 0");
      }
    });
    boolean hasMigDevices = e.keys().contains("mig-devices");
    if (enabled && !hasMigDevices) {
      e.error("missing required field 'mig-devices' when 'mig-enabled' is true");
    }
    if (!enabled && !migDevices.isEmpty()) {
      md.ifPresent(m -> m.error("MIG devices included when 'mig-enabled' is false"));
    }
    return new MigPartedConfig.Entry(filter, devices, enabled, migDevices);
  }
}
