package io.gpufleet.manifest.deviceplugin;

import io.gpufleet.manifest.kube.KubeObject;
import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.YNode;
import io.gpufleet.manifest.yaml.YamlReader;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.MigPartedConfig;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Device-plugin and MIG-manager configuration as users write it: a stand-alone config file, or a
 * ConfigMap whose every data key is one named config (the plugin's {@code config.name} ConfigMap),
 * or a ConfigMap holding a mig-parted config (the GPU Operator's {@code default-mig-parted-config}).
 * Errors inside a ConfigMap value point at lines of the ConfigMap's file.
 */
public final class DevicePluginManifests {
  private DevicePluginManifests() {}

  /**
   * gpufleet's stand-in for helm's {@code config.default}, which lives in chart values rather than
   * the ConfigMap: an annotation on the ConfigMap naming its default config.
   */
  public static final String DEFAULT_CONFIG_ANNOTATION = "gpufleet.io/default-config";

  /** What a ConfigMap holds, by its content. */
  public enum Kind { DEVICE_PLUGIN, MIG_PARTED, OTHER }

  public static DevicePluginConfig readConfig(String file, String text, Diagnostics diagnostics) {
    List<YNode> docs = new YamlReader().readAll(file, text);
    if (docs.isEmpty()) {
      return DevicePluginConfig.DEFAULT;
    }
    return DevicePluginConfigDecoder.decode(Cursor.root(docs.getFirst(), diagnostics));
  }

  public static MigPartedConfig readMigParted(String file, String text, Diagnostics diagnostics) {
    List<YNode> docs = new YamlReader().readAll(file, text);
    if (docs.isEmpty()) {
      return MigPartedConfig.of(Map.of());
    }
    return MigPartedDecoder.decode(Cursor.root(docs.getFirst(), diagnostics));
  }

  /** A mig-parted ConfigMap has a value with {@code mig-configs}; a device-plugin one a value with {@code version}, {@code flags} or {@code sharing}. */
  public static Kind kind(KubeObject.ConfigMapObject cm) {
    boolean plugin = false;
    for (String value : cm.data().values()) {
      String t = value.strip();
      if (t.startsWith("mig-configs:") || t.contains("\nmig-configs:")) {
        return Kind.MIG_PARTED;
      }
      if (t.startsWith("version:") || t.startsWith("flags:") || t.startsWith("sharing:") || t.contains("\nsharing:")
          || t.contains("\nflags:")) {
        plugin = true;
      }
    }
    return plugin ? Kind.DEVICE_PLUGIN : Kind.OTHER;
  }

  /** Every data key of the ConfigMap as one named device-plugin config. */
  public static NamedConfigs namedConfigs(KubeObject.ConfigMapObject cm, String fileText, Diagnostics diagnostics) {
    Map<String, DevicePluginConfig> configs = new LinkedHashMap<>();
    cm.dataCursors().forEach((key, value) -> {
      YNode doc = EmbeddedYaml.read(value, fileText, diagnostics);
      if (doc != null) {
        configs.put(key, DevicePluginConfigDecoder.decode(new Cursor(doc, value.path(), diagnostics)));
      }
    });
    Optional<String> defaultName = cm.meta().annotations().get(DEFAULT_CONFIG_ANNOTATION);
    if (defaultName.isPresent() && !configs.containsKey(defaultName.get())) {
      diagnostics.error(cm.location(), "metadata.annotations[" + DEFAULT_CONFIG_ANNOTATION + "]",
          "names config \"" + defaultName.get() + "\", which the ConfigMap does not hold (it holds: "
              + String.join(", ", new TreeMap<>(configs).keySet()) + ")");
    }
    return NamedConfigs.of(configs, defaultName);
  }

  /** The mig-parted config in a ConfigMap: its {@code config.yaml} key, or its only key. */
  public static MigPartedConfig migParted(KubeObject.ConfigMapObject cm, String fileText, Diagnostics diagnostics) {
    Cursor value = cm.dataCursors().get("config.yaml");
    if (value == null && cm.dataCursors().size() == 1) {
      value = cm.dataCursors().values().iterator().next();
    }
    if (value == null) {
      diagnostics.error(cm.location(), "data", "expected a config.yaml key holding the mig-parted config, found keys "
          + String.join(", ", cm.dataCursors().keySet()));
      return MigPartedConfig.of(Map.of());
    }
    YNode doc = EmbeddedYaml.read(value, fileText, diagnostics);
    return doc == null ? MigPartedConfig.of(Map.of()) : MigPartedDecoder.decode(new Cursor(doc, value.path(), diagnostics));
  }
}
