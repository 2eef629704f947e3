package io.gpufleet.model.deviceplugin;

import io.gpufleet.model.label.Labels;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Several named configs, as one ConfigMap holds them for the plugin's {@code config-manager}, and the
 * helm {@code config.default} name. Picks the config of a node (k8s-gpu-semantics §2.3).
 */
public record NamedConfigs(SortedMap<String, DevicePluginConfig> configs, Optional<String> defaultName) {

  /** The label through which a node chooses its config. */
  public static final String NODE_LABEL = "nvidia.com/device-plugin.config";

  public static final NamedConfigs NONE = new NamedConfigs(new TreeMap<>(), Optional.empty());

  public NamedConfigs {
    configs = Collections.unmodifiableSortedMap(new TreeMap<>(configs));
    defaultName = defaultName == null ? Optional.empty() : defaultName;
  }

  public static NamedConfigs of(Map<String, DevicePluginConfig> configs, Optional<String> defaultName) {
    return new NamedConfigs(new TreeMap<>(configs), defaultName);
  }

  /** Which config a node runs with and why. {@code warning} is set when the label named no config. */
  public record Selection(String name, DevicePluginConfig config, String reason, Optional<String> warning) {}

  /**
   * The node's config. Its label {@code nvidia.com/device-plugin.config} names one; a name that is
   * not in the map changes nothing, so the default applies (with a warning); no label means the
   * default. The default is {@code config.default} if given, else the config named {@code default},
   * else the only config if there is exactly one (helm {@code fallbackStrategies: [named, single]}),
   * else the plugin's built-in defaults.
   */
  public Selection select(Labels nodeLabels) {
    Optional<String> label = nodeLabels.get(NODE_LABEL);
    if (label.isPresent() && configs.containsKey(label.get())) {
      return new Selection(label.get(), configs.get(label.get()), "from label " + NODE_LABEL, Optional.empty());
    }
    Selection fallback = fallback();
    if (label.isPresent()) {
      String warning = "label " + NODE_LABEL + "=" + label.get() + " names no config (known: "
          + String.join(", ", configs.keySet()) + "); the config-manager keeps the default";
      return new Selection(fallback.name(), fallback.config(), fallback.reason(), Optional.of(warning));
    }
    return fallback;
  }

  private Selection fallback() {
    if (defaultName.isPresent() && configs.containsKey(defaultName.get())) {
      return new Selection(defaultName.get(), configs.get(defaultName.get()), "the configured default",
          Optional.empty());
    }
    if (configs.containsKey("default")) {
      return new Selection("default", configs.get("default"), "fallback strategy named", Optional.empty());
    }
    if (configs.size() == 1) {
      String only = configs.firstKey();
      return new Selection(only, configs.get(only), "fallback strategy single", Optional.empty());
    }
    return new Selection("<built-in>", DevicePluginConfig.DEFAULT, "no config selected: plugin defaults",
        Optional.empty());
  }
}
