package io.gpufleet.manifest.kube;

import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.manifest.yaml.YNode;
import io.gpufleet.manifest.yaml.YamlReader;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.scheduling.SchedulerConfiguration.ResourceWeightSpec;
import io.gpufleet.model.scheduling.SchedulerConfiguration.ScoringStrategyType;
import io.gpufleet.model.scheduling.SchedulerConfiguration.ShapePointSpec;
import io.gpufleet.model.scheduling.SchedulerConfiguration;
import io.gpufleet.model.wire.WireEnum;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a {@code kubescheduler.config.k8s.io/v1 KubeSchedulerConfiguration}: every profile (a pod
 * picks one by its {@code schedulerName}), each with its {@code percentageOfNodesToScore} (the
 * profile's, else the global one), score plugin weights and disabled plugins from {@code
 * plugins.score} and {@code plugins.multiPoint}, and the NodeResourcesFit {@code scoringStrategy},
 * validated as the scheduler validates them. As upstream's defaulting, a lone profile without a
 * name is {@code default-scheduler} and no profiles at all is one default profile; with several,
 * each needs a name of its own ({@code ValidateKubeSchedulerConfiguration}).
 */
public final class SchedulerConfigurationDecoder {

  private final Diagnostics diagnostics = new Diagnostics();

  /** The profiles, in the order written. */
  public static List<SchedulerConfiguration> read(String file, String text) {
    return new SchedulerConfigurationDecoder().decodeText(file, text);
  }

  private List<SchedulerConfiguration> decodeText(String file, String text) {
    List<YNode> docs = new YamlReader().readAll(file, text);
    if (docs.size() != 1) {
      throw new ManifestException(ManifestProblem.error(Location.unknown(file), "",
          "expected one KubeSchedulerConfiguration document, found " + docs.size()));
    }
    Cursor doc = Cursor.root(docs.getFirst(), diagnostics);
    List<SchedulerConfiguration> c = decode(doc);
    diagnostics.throwIfErrors();
    return c;
  }

  /**
   * KubeSchedulerConfiguration's fields (kube-scheduler decodes its file strictly, so any other is an
   * error: k8s.io/kube-scheduler/config/v1 types.go).
   */
  private static final Set<String> FIELDS = Set.of("apiVersion", "kind", "parallelism", "leaderElection",
      "clientConnection", "healthzBindAddress", "metricsBindAddress", "enableProfiling", "enableContentionProfiling",
      "percentageOfNodesToScore", "podInitialBackoffSeconds", "podMaxBackoffSeconds", "profiles", "extenders",
      "delayCacheUntilActive");
  /** Fields of the process, not of placement: read and left as they are, said so. */
  private static final Set<String> PROCESS_FIELDS = Set.of("parallelism", "leaderElection", "clientConnection",
      "healthzBindAddress", "metricsBindAddress", "enableProfiling", "enableContentionProfiling",
      "delayCacheUntilActive", "podInitialBackoffSeconds", "podMaxBackoffSeconds");
  private static final Set<String> PROFILE_FIELDS = Set.of("schedulerName", "percentageOfNodesToScore", "plugins",
      "pluginConfig");
  /** {@code Plugins}' extension points, in kube-scheduler's order. */
  private static final List<String> POINTS = List.of("preEnqueue", "queueSort", "preFilter", "filter", "postFilter",
      "preScore", "score", "reserve", "permit", "preBind", "bind", "postBind", "multiPoint");

  /**
   * kube-scheduler's in-tree registry (pkg/scheduler/framework/plugins/registry.go NewInTreeRegistry, v1.34):
   * a plugin enabled by any other name makes kube-scheduler fail at start.
   */
  static final Set<String> REGISTRY = Set.of("DynamicResources", "ImageLocality", "TaintToleration", "NodeName",
      "NodePorts", "NodeAffinity", "PodTopologySpread", "NodeUnschedulable", "NodeResourcesFit",
      "NodeResourcesBalancedAllocation", "VolumeBinding", "VolumeRestrictions", "VolumeZone", "NodeVolumeLimits",
      "InterPodAffinity", "PrioritySort", "DefaultBinder", "DefaultPreemption", "SchedulingGates");

  /**
   * The Filter plugins of kube-scheduler's default profile the twin runs (default_plugins.go); the
   * volume plugins are in the default profile too, but the twin models no volumes, so they filter nothing.
   */
  static final Set<String> MODELLED_FILTERS = Set.of("NodeUnschedulable", "NodeName", "TaintToleration",
      "NodeAffinity", "NodePorts", "NodeResourcesFit", "PodTopologySpread", "InterPodAffinity");
  private static final Set<String> VOLUME_PLUGINS = Set.of("VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding",
      "VolumeZone");

  List<SchedulerConfiguration> decode(Cursor doc) {
    doc.checkKnownStrictDecoding(FIELDS);
    for (String f : PROCESS_FIELDS) {
      doc.get(f).ifPresent(c -> c.warning("not modelled by gpufleet: " + f + " is about the scheduler process, "
          + "not where pods are placed; it is read and changes nothing here"));
    }
    doc.get("extenders").ifPresent(c -> c.error("not modelled by gpufleet: scheduler extenders (HTTP webhooks) "
        + "filter and score nodes outside kube-scheduler; remove them to simulate here"));
    String kind = doc.requiredString("kind");
    String apiVersion = doc.requiredString("apiVersion");
    if (!kind.isEmpty() && !kind.equals("KubeSchedulerConfiguration")) {
      doc.get("kind").ifPresent(k -> k.error("expected KubeSchedulerConfiguration, found \"" + kind + "\""));
    }
    if (!apiVersion.isEmpty() && !apiVersion.equals("kubescheduler.config.k8s.io/v1")) {
      doc.get("apiVersion").ifPresent(a -> a.error(
          "expected kubescheduler.config.k8s.io/v1, found \"" + apiVersion + "\""));
    }
    int globalPercentage = percentage(doc).orElse(0);
    List<Cursor> profiles = doc.list("profiles");
    if (profiles.isEmpty()) {
      return List.of(SchedulerConfiguration.defaults().withPercentageOfNodesToScore(globalPercentage));
    }
    List<SchedulerConfiguration> out = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (Cursor p : profiles) {
      p.checkKnownStrictDecoding(PROFILE_FIELDS);
      String name = p.string("schedulerName", profiles.size() == 1 ? PodSpec.DEFAULT_SCHEDULER : "");
      if (name.isEmpty()) {
        p.get("schedulerName").orElse(p).error("schedulerName: Required value");
      } else if (!names.add(name)) {
        p.get("schedulerName").ifPresent(c -> c.error("Duplicate value: \"" + name + "\""));
      }
      out.add(profile(p, name, globalPercentage));
    }
    return out;
  }

  private SchedulerConfiguration profile(Cursor profile, String name, int globalPercentage) {
    int percentage = percentage(profile).orElse(globalPercentage);
    Map<String, Integer> weights = new HashMap<>();
    Set<String> disabled = new HashSet<>();
    Set<String> filtersOff = new HashSet<>();
    Optional<Cursor> plugins = profile.get("plugins");
    if (plugins.isPresent()) {
      plugins.get().checkKnownStrictDecoding(Set.copyOf(POINTS));
      for (String point : POINTS) {
        plugins.get().get(point).ifPresent(set -> checkPluginSet(point, set));
      }
      filtersOff.addAll(filtersOff(plugins.get()));
      for (String point : List.of("multiPoint", "score", "postFilter")) {
        plugins.get().get(point).ifPresent(set -> {
          for (Cursor d : set.list("disabled")) {
            disabled.add(d.requiredString("name"));
          }
          for (Cursor e : set.list("enabled")) {
            String plugin = e.requiredString("name");
            disabled.remove(plugin);
            // Every enabled plugin is kept, 0 where no weight is written: under a disabled '*' the
            // enabled ones stay (default_plugins.go mergePluginSet).
            weights.putIfAbsent(plugin, 0);
            e.optInt("weight").ifPresent(w -> {
              if (w < 0 || w > 100) {
                e.get("weight").ifPresent(c -> c.error("expected a weight in 0..100, found " + w));
              }
              weights.put(plugin, w);
            });
          }
        });
      }
    }
    ScoringStrategyType type = ScoringStrategyType.LEAST_ALLOCATED;
    List<ResourceWeightSpec> resources = SchedulerConfiguration.DEFAULT_RESOURCES;
    List<ShapePointSpec> shape = List.of();
    List<ResourceWeightSpec> balanced = SchedulerConfiguration.DEFAULT_RESOURCES;
    Set<String> ignoredResources = Set.of();
    Set<String> ignoredGroups = Set.of();
    for (Cursor pc : profile.list("pluginConfig")) {
      pc.checkKnownStrictDecoding(Set.of("name", "args"));
      String plugin = pc.requiredString("name");
      Optional<Cursor> args = pc.get("args");
      if (plugin.equals("NodeResourcesBalancedAllocation")) {
        if (args.isPresent()) {
          args.get().checkKnown(Set.of("apiVersion", "kind", "resources"), true);
          if (args.get().get("resources").isPresent()) {
            balanced = balancedResources(args.get());
          }
        }
        continue;
      }
      if (!plugin.equals("NodeResourcesFit")) {
        // Every argument the twin does not honour is refused, never ignored.
        if (args.isPresent()) {
          pc.get("name").orElse(pc).error("args of plugin " + plugin + " are not supported by gpufleet: it honours"
              + " the args of NodeResourcesFit and NodeResourcesBalancedAllocation only");
        }
        continue;
      }
      if (args.isEmpty()) {
        continue;
      }
      args.get().checkKnown(Set.of("apiVersion", "kind", "scoringStrategy", "ignoredResources",
          "ignoredResourceGroups"), true);
      ignoredResources = ignoredResources(args.get());
      ignoredGroups = ignoredResourceGroups(args.get());
      Optional<Cursor> strategy = args.get().get("scoringStrategy");
      if (strategy.isEmpty()) {
        continue;
      }
      Cursor s = strategy.get();
      String t = s.string("type", "LeastAllocated");
      type = WireEnum.fromWire(ScoringStrategyType.class, t).orElseGet(() -> {
        s.get("type").ifPresent(c -> c.error(
            "expected LeastAllocated, MostAllocated or RequestedToCapacityRatio, found \"" + t + "\""));
        return ScoringStrategyType.LEAST_ALLOCATED;
      });
      if (s.get("resources").isPresent()) {
        List<ResourceWeightSpec> rs = new ArrayList<>();
        for (Cursor r : s.list("resources")) {
          int w = r.integer("weight", 1);
          if (w < 1 || w > 100) {
            r.get("weight").ifPresent(c -> c.error("expected a weight in 1..100, found " + w));
          }
          rs.add(new ResourceWeightSpec(r.requiredString("name"), w));
        }
        resources = rs;
      }
      if (type == ScoringStrategyType.REQUESTED_TO_CAPACITY_RATIO) {
        Optional<Cursor> ratio = s.require("requestedToCapacityRatio");
        List<ShapePointSpec> points = new ArrayList<>();
        if (ratio.isPresent()) {
          int last = -1;
          for (Cursor p : ratio.get().list("shape")) {
            int u = p.integer("utilization", 0);
            int sc = p.integer("score", 0);
            if (u < 0 || u > 100) {
              p.error("utilization: expected 0..100, found " + u);
            } else if (u <= last) {
              p.error("utilization: values must be sorted in increasing order");
            }
            if (sc < 0 || sc > 10) {
              p.error("score: expected 0..10, found " + sc);
            }
            last = u;
            points.add(new ShapePointSpec(u, sc));
          }
          if (points.isEmpty()) {
            ratio.get().error("shape: at least one point must be specified");
          }
        }
        shape = points;
      }
    }
    return new SchedulerConfiguration(name, percentage, type, resources, shape, weights, disabled, balanced,
        ignoredResources, ignoredGroups, filtersOff);
  }

  /**
   * One extension point's {@code enabled} and {@code disabled}: fields decoded strictly, every enabled
   * name in kube-scheduler's registry (else its error at start, framework.go updatePluginList:
   * {@code <Point>Plugin "<name>" does not exist}). The points whose plugins the twin does not let a
   * configuration change are refused by name; {@code filter} is honoured ({@link #filtersOff}), and
   * {@code multiPoint}, {@code score} and {@code postFilter} are read by {@link #profile}.
   */
  private static void checkPluginSet(String point, Cursor set) {
    set.checkKnownStrictDecoding(Set.of("enabled", "disabled"));
    // multiPoint: the first extension point kube-scheduler expands it into (expandMultiPointPlugins).
    String type = point.equals("multiPoint") ? "PreFilterPlugin"
        : Character.toUpperCase(point.charAt(0)) + point.substring(1) + "Plugin";
    for (Cursor e : set.list("enabled")) {
      e.checkKnownStrictDecoding(Set.of("name", "weight"));
      String name = e.optString("name").orElse("");
      if (!name.isEmpty() && !REGISTRY.contains(name)) {
        e.get("name").orElse(e).error(type + " \"" + name + "\" does not exist");
      }
    }
    for (Cursor d : set.list("disabled")) {
      d.checkKnownStrictDecoding(Set.of("name", "weight"));
      String name = d.optString("name").orElse("");
      if (!name.isEmpty() && !name.equals("*") && !REGISTRY.contains(name)) {
        // kube-scheduler accepts it (a disabled name is only looked for among the defaults).
        d.get("name").orElse(d).warning("plugin \"" + name + "\" is not in kube-scheduler's registry; "
            + "disabling it changes nothing");
      }
    }
    switch (point) {
      case "filter", "multiPoint", "score", "postFilter" -> { }
      default -> {
        if (!set.list("enabled").isEmpty() || !set.list("disabled").isEmpty()) {
          set.error("not modelled by gpufleet: plugins." + point + ": the twin runs kube-scheduler's default "
              + type.replace("Plugin", "") + " plugins and cannot enable or disable them; it honours filter, "
              + "score, postFilter and multiPoint");
        }
      }
    }
  }

  /**
   * The default Filter plugins this profile turns off: named (or {@code '*'}) under {@code filter.disabled}
   * or {@code multiPoint.disabled}, and not enabled again under {@code filter.enabled} or
   * {@code multiPoint.enabled} (default_plugins.go mergePluginSet: the defaults less the disabled, then
   * the enabled). Enabling a Filter plugin the default profile does not run here is refused by name.
   */
  private static Set<String> filtersOff(Cursor plugins) {
    Set<String> disabled = new HashSet<>();
    Set<String> enabled = new HashSet<>();
    for (String point : List.of("multiPoint", "filter")) {
      plugins.get(point).ifPresent(set -> {
        set.list("disabled").forEach(d -> disabled.add(d.optString("name").orElse("")));
        for (Cursor e : set.list("enabled")) {
          String name = e.optString("name").orElse("");
          enabled.add(name);
          if (point.equals("filter") && REGISTRY.contains(name) && !MODELLED_FILTERS.contains(name)
              && !VOLUME_PLUGINS.contains(name) && !name.equals("DynamicResources")) {
            // The registry's plugins that have no Filter: framework.go updatePluginList's error.
            e.get("name").orElse(e).error("plugin \"" + name + "\" does not extend FilterPlugin plugin");
          }
        }
      });
    }
    plugins.get("filter").ifPresent(set -> java.util.stream.Stream.concat(set.list("enabled").stream(),
        set.list("disabled").stream()).forEach(d -> {
      if (VOLUME_PLUGINS.contains(d.optString("name").orElse(""))) {
        d.warning("not modelled by gpufleet: volumes; " + d.optString("name").orElse("") + " filters nothing here, "
            + "enabled or not");
      }
    }));
    plugins.get("filter").ifPresent(set -> set.list("disabled").forEach(d -> {
      if (d.optString("name").orElse("").equals("DynamicResources")) {
        d.error("not modelled by gpufleet: disabling DynamicResources' Filter alone; disable it under multiPoint");
      }
    }));
    Set<String> off = new HashSet<>();
    for (String f : MODELLED_FILTERS) {
      if ((disabled.contains(f) || disabled.contains("*")) && !enabled.contains(f)) {
        off.add(f);
      }
    }
    return off;
  }

  /**
   * NodeResourcesBalancedAllocationArgs.resources, checked as
   * {@code ValidateNodeResourcesBalancedAllocationArgs} does: every weight 1, no name twice.
   */
  private static List<ResourceWeightSpec> balancedResources(Cursor args) {
    List<ResourceWeightSpec> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Cursor r : args.list("resources")) {
      String name = r.requiredString("name");
      int w = r.integer("weight", 1);
      if (w != 1) {
        r.get("weight").ifPresent(c -> c.error("Invalid value: " + w + ": must be 1"));
      }
      if (!name.isEmpty() && !seen.add(name)) {
        r.get("name").ifPresent(c -> c.error("Duplicate value: \"" + name + "\""));
      }
      out.add(new ResourceWeightSpec(name, 1));
    }
    return out;
  }

  /** NodeResourcesFitArgs.ignoredResources: extended resource names the filter leaves unchecked. */
  private static Set<String> ignoredResources(Cursor args) {
    Set<String> out = new HashSet<>();
    for (Cursor r : args.get("ignoredResources").map(Cursor::asList).orElse(List.of())) {
      String name = r.asString();
      if (!name.contains("/") || name.startsWith("/") || name.endsWith("/")) {
        r.error("Invalid value: \"" + name + "\": expected an extended resource name such as example.com/device");
      }
      out.add(name);
    }
    return out;
  }

  /** NodeResourcesFitArgs.ignoredResourceGroups: prefixes (before the "/") whose resources are left unchecked. */
  private static Set<String> ignoredResourceGroups(Cursor args) {
    Set<String> out = new HashSet<>();
    for (Cursor g : args.get("ignoredResourceGroups").map(Cursor::asList).orElse(List.of())) {
      String group = g.asString();
      if (group.contains("/")) {
        g.error("Invalid value: \"" + group + "\": is a group and should not contain '/'");
      }
      out.add(group);
    }
    return out;
  }

  private static Optional<Integer> percentage(Cursor c) {
    var p = c.optInt("percentageOfNodesToScore");
    if (p.isEmpty()) {
      return Optional.empty();
    }
    int v = p.getAsInt();
    if (v < 0 || v > 100) {
      c.get("percentageOfNodesToScore").ifPresent(x -> x.error("expected 0..100, found " + v));
      return Optional.of(0);
    }
    return Optional.of(v);
  }
}
