package io.gpufleet.model.deviceplugin;

import io.gpufleet.model.label.Labels;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Several named configs, as one ConfigMap holds them for the plugin's {@code config-manager}, and the
 * helm {@code config.default} name. Picks the config of a node (k8s-gpu-semantics §2.3).
 *
 * <p>{@code osPlugins} are device plugins that come with a node's OS rather than from the cluster:
 * a Bottlerocket node class's plugin, configured in its {@code userData}. A node they match runs
 * that plugin and config whatever the ConfigMap says, as do EKS Auto Mode's nodes, whose plugin
 * AWS runs with a configuration it does not expose ({@link #AUTO_MODE}).
 */
public record NamedConfigs(SortedMap<String, DevicePluginConfig> configs, Optional<String> defaultName,
    List<OsPlugin> osPlugins) {

  /**
   * A device plugin that is part of the node's OS, for nodes labelled {@code labelKey=labelValue}.
   *
   * @param name how the selection is named, e.g. {@code bottlerocket:gpu}
   * @param reason why the node runs it, for displays
   */
  public record OsPlugin(String labelKey, String labelValue, String name, DevicePluginConfig config, String reason) {
    public OsPlugin {
      Objects.requireNonNull(labelKey, "labelKey");
      Objects.requireNonNull(labelValue, "labelValue");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(config, "config");
      Objects.requireNonNull(reason, "reason");
    }

    boolean matches(Labels nodeLabels) {
      return nodeLabels.get(labelKey).map(labelValue::equals).orElse(false);
    }
  }

  /**
   * EKS Auto Mode's own NVIDIA device plugin, on every node labelled {@code eks.amazonaws.com/compute-type:
   * auto}: the EKS user guide ("Use time-slicing with NVIDIA GPUs on Amazon EKS") says "EKS Auto Mode
   * manages the NVIDIA device plugin and does not expose its configuration", so its nodes advertise
   * whole GPUs (the plugin's defaults) whatever ConfigMap the cluster holds.
   */
  public static final OsPlugin AUTO_MODE = new OsPlugin("eks.amazonaws.com/compute-type", "auto", "eks-auto-mode",
      DevicePluginConfig.DEFAULT, "EKS Auto Mode runs its own device plugin, whose configuration it does not expose");

  /** The label through which a node chooses its config. */
  public static final String NODE_LABEL = "nvidia.com/device-plugin.config";

  public static final NamedConfigs NONE = new NamedConfigs(new TreeMap<>(), Optional.empty());

  public NamedConfigs {
    configs = Collections.unmodifiableSortedMap(new TreeMap<>(configs));
    defaultName = defaultName == null ? Optional.empty() : defaultName;
    osPlugins = osPlugins == null ? List.of() : List.copyOf(osPlugins);
  }

  public NamedConfigs(SortedMap<String, DevicePluginConfig> configs, Optional<String> defaultName) {
    this(configs, defaultName, List.of());
  }

  /** The device plugin the node's OS brings, if any: a node class's own, else Auto Mode's. */
  public Optional<OsPlugin> osPlugin(Labels nodeLabels) {
    for (OsPlugin p : osPlugins) {
      if (p.matches(nodeLabels)) {
        return Optional.of(p);
      }
    }
    return AUTO_MODE.matches(nodeLabels) ? Optional.of(AUTO_MODE) : Optional.empty();
  }

  /** These configs with the OS device plugins of some node classes added (each beats the ConfigMap on its nodes). */
  public NamedConfigs withOsPlugins(List<OsPlugin> more) {
    if (more.isEmpty()) {
      return this;
    }
    List<OsPlugin> all = new ArrayList<>(osPlugins);
    all.addAll(more);
    return new NamedConfigs(configs, defaultName, all);
  }

  public static NamedConfigs of(Map<String, DevicePluginConfig> configs, Optional<String> defaultName) {
    return new NamedConfigs(new TreeMap<>(configs), defaultName);
  }

  /**
   * Which config a node runs with and why. {@code error} is set when the plugin's config-manager
   * fails for the node (upstream's words); the real plugin then never starts and advertises nothing.
   * {@code warning} carries the same text for displays that show warnings.
   */
  public record Selection(String name, DevicePluginConfig config, String reason, Optional<String> warning,
      Optional<String> error) {
    public Selection {
      warning = warning == null ? Optional.empty() : warning;
      error = error == null ? Optional.empty() : error;
    }

    public boolean failed() {
      return error.isPresent();
    }

    static Selection ok(String name, DevicePluginConfig config, String reason) {
      return new Selection(name, config, reason, Optional.empty(), Optional.empty());
    }

    static Selection failed(String message) {
      return new Selection("<none>", DevicePluginConfig.DEFAULT, "config-manager failed", Optional.of(message),
          Optional.of(message));
    }
  }

  /**
   * The node's config as the plugin's {@code config-manager} picks it ({@code cmd/config-manager/main.go}
   * updateConfigName): the label {@code nvidia.com/device-plugin.config} names one, and a name that
   * is not in the map fails ("specified config X does not exist"); no label means
   * {@code config.default} if given (failing likewise when it is not in the map), else the helm
   * chart's fallback strategies {@code [named, single]}: the config named {@code default}, else the
   * only config; with several configs and none of these the manager fails too. Without any named
   * configs there is no config-manager and the plugin runs with its built-in defaults. Before all
   * this, a node whose OS brings its own plugin ({@link #osPlugins}, {@link #AUTO_MODE}) runs that.
   */
  public Selection select(Labels nodeLabels) {
    Optional<OsPlugin> os = osPlugin(nodeLabels);
    if (os.isPresent()) {
      return Selection.ok(os.get().name(), os.get().config(), os.get().reason());
    }
    if (configs.isEmpty()) {
      return Selection.ok("<built-in>", DevicePluginConfig.DEFAULT, "no config map: plugin defaults");
    }
    Optional<String> label = nodeLabels.get(NODE_LABEL).filter(v -> !v.isEmpty());
    if (label.isPresent()) {
      if (configs.containsKey(label.get())) {
        return Selection.ok(label.get(), configs.get(label.get()), "from label " + NODE_LABEL);
      }
      return Selection.failed("config-manager: specified config " + label.get() + " does not exist (label "
          + NODE_LABEL + "; known: " + String.join(", ", configs.keySet()) + ")");
    }
    if (defaultName.isPresent()) {
      if (configs.containsKey(defaultName.get())) {
        return Selection.ok(defaultName.get(), configs.get(defaultName.get()), "the configured default");
      }
      return Selection.failed("config-manager: specified config " + defaultName.get() + " does not exist "
          + "(config.default)");
    }
    if (configs.containsKey("default")) {
      return Selection.ok("default", configs.get("default"), "fallback strategy named");
    }
    if (configs.size() == 1) {
      String only = configs.firstKey();
      return Selection.ok(only, configs.get(only), "fallback strategy single");
    }
    return Selection.failed("config-manager: no config was set, no default was provided, and all fallbacks failed "
        + "(known: " + String.join(", ", configs.keySet()) + ")");
  }
}
