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

/**
 * Decodes a mig-parted config ({@code version: v1}, {@code mig-configs}), strictly
 * (k8s-gpu-semantics §2.4, from mig-parted's {@code config-default.yaml}). Whether a profile exists
 * on a GPU is checked when the layout is planned for that GPU, as mig-parted checks it at apply.
 */
public final class MigPartedDecoder {
  private MigPartedDecoder() {}

  private static final Set<String> ROOT = Set.of("version", "mig-configs");
  private static final Set<String> ENTRY = Set.of("device-filter", "devices", "mig-enabled", "mig-devices");

  public static MigPartedConfig decode(Cursor root) {
    if (!root.isMap()) {
      root.expected("a mig-parted config (a mapping with version: v1 and mig-configs)");
      return MigPartedConfig.of(Map.of());
    }
    root.checkKnown(ROOT, true);
    String version = root.requiredString("version");
    if (!version.isEmpty() && !version.equals("v1")) {
      root.get("version").ifPresent(v -> v.error("expected v1, found \"" + version + "\""));
    }
    Map<String, List<MigPartedConfig.Entry>> configs = new LinkedHashMap<>();
    root.require("mig-configs").ifPresent(mc -> mc.entries().forEach((name, c) -> {
      List<MigPartedConfig.Entry> entries = new ArrayList<>();
      for (Cursor e : c.asList()) {
        entries.add(entry(e));
      }
      configs.put(name, entries);
    }));
    return MigPartedConfig.of(configs);
  }

  private static MigPartedConfig.Entry entry(Cursor e) {
    e.checkKnown(ENTRY, true);
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
        d.get().error("expected all or a list of GPU indices, found \"" + d.get().asString() + "\"");
      }
    }
    boolean enabled = e.require("mig-enabled").map(Cursor::asBoolean).orElse(false);
    TreeMap<String, Integer> migDevices = new TreeMap<>();
    e.get("mig-devices").ifPresent(md -> md.entries().forEach((profile, n) -> {
      int count = n.asInt();
      if (count < 0) {
        n.error("expected a count >= 0, found " + count);
      }
      migDevices.put(profile, count);
    }));
    if (!enabled && !migDevices.isEmpty()) {
      e.get("mig-devices").ifPresent(md -> md.error("mig-devices needs mig-enabled: true"));
    }
    return new MigPartedConfig.Entry(filter, devices, enabled, migDevices);
  }
}
