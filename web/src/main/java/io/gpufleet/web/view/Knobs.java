package io.gpufleet.web.view;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.gpu.NvidiaDevicePlugin;
import io.gpufleet.engine.deviceplugin.GpuOperator;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.model.deviceplugin.ReplicatedResource;
import io.gpufleet.model.deviceplugin.SharingSpec;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.Disruption;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.time.GoDuration;
import io.gpufleet.model.time.KubeDuration;
import io.gpufleet.sim.scenario.ClusterObject;
import io.gpufleet.sim.scenario.DevicePlugin;
import io.gpufleet.sim.scenario.Scenario;
import io.gpufleet.sim.scenario.ScenarioAction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A what-if: the knobs a user may turn before re-running a scenario, each optional (unset: as the
 * scenario has it). NodePool knobs change the NodePool {@code nodePool} names, which may be left
 * out only where the scenario has one NodePool; a name the scenario does not have is refused. The
 * scenario's NodePools are those of its {@code spec.cluster} and those a step applies later; a knob
 * changes its NodePool wherever the scenario writes it, so a later apply does not undo it.
 *
 * @param timeSlicingReplicas replicas of every time-slicing resource in the device plugin's configs
 * @param consolidationPolicy {@code spec.disruption.consolidationPolicy}
 * @param consolidateAfter {@code spec.disruption.consolidateAfter}: a duration, or empty for {@code Never}
 * @param gpuLimit {@code spec.limits} of {@code nvidia.com/gpu}
 * @param capacityTypes the values of the {@code karpenter.sh/capacity-type} requirement
 * @param sizing how Karpenter counts the GPUs of a node it plans (gpufleet's extension)
 * @param nodePool the NodePool the NodePool knobs change (one of the scenario's, {@link #nodePools})
 */
public record Knobs(Optional<Integer> timeSlicingReplicas, Optional<ConsolidationPolicy> consolidationPolicy,
    Optional<Optional<Duration>> consolidateAfter, Optional<Long> gpuLimit, Optional<List<String>> capacityTypes,
    Optional<AutoscalerSettings.GpuSizing> sizing, Optional<String> nodePool) {

  public static final Knobs NONE = new Knobs(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
      Optional.empty(), Optional.empty(), Optional.empty());

  /** Bounds that keep a what-if's run about the size of the scenario's own. */
  public static final int MAX_REPLICAS = 16;
  public static final long MAX_GPU_LIMIT = 1_000;
  public static final Duration MAX_CONSOLIDATE_AFTER = Duration.ofHours(24);

  /** A knob the user set wrongly: which, what was expected, what was found. */
  public static final class BadKnob extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BadKnob(String knob, String expected, Object found) {
      super(knob + ": expected " + expected + ", found " + (found instanceof String ? "\"" + found + "\"" : found));
    }

    /** A knob that was needed and not given. */
    static BadKnob missing(String knob, String expected) {
      return new BadKnob(knob, expected, new Object() {
        @Override
        public String toString() {
          return "none";
        }
      });
    }
  }

  /**
   * Reads knobs from text values (a form or JSON body); unknown names and bad values are refused
   * with a {@link BadKnob}, never ignored.
   */
  public static Knobs read(Map<String, String> values) {
    Optional<Integer> replicas = Optional.empty();
    Optional<ConsolidationPolicy> policy = Optional.empty();
    Optional<Optional<Duration>> after = Optional.empty();
    Optional<Long> limit = Optional.empty();
    Optional<List<String>> capacity = Optional.empty();
    Optional<AutoscalerSettings.GpuSizing> sizing = Optional.empty();
    Optional<String> nodePool = Optional.empty();
    for (Map.Entry<String, String> e : new TreeMap<>(values).entrySet()) {
      String knob = e.getKey();
      String v = e.getValue().strip();
      if (v.isEmpty()) {
        continue; // a blank field: as the scenario has it
      }
      switch (knob) {
        case "timeSlicingReplicas" -> replicas = Optional.of(integer(knob, v, 1, MAX_REPLICAS));
        case "consolidationPolicy" -> policy = Optional.of(ConsolidationPolicy.fromWire(v)
            .filter(p -> p != ConsolidationPolicy.BALANCED)
            .orElseThrow(() -> new BadKnob(knob, "WhenEmpty or WhenEmptyOrUnderutilized", v)));
        case "consolidateAfter" -> after = Optional.of(after(knob, v));
        case "gpuLimit" -> limit = Optional.of((long) integer(knob, v, 0, (int) MAX_GPU_LIMIT));
        case "capacityTypes" -> capacity = Optional.of(switch (v) {
          case "spot" -> List.of("spot");
          case "on-demand" -> List.of("on-demand");
          case "spot,on-demand" -> List.of("spot", "on-demand");
          default -> throw new BadKnob(knob, "spot, on-demand or spot,on-demand", v);
        });
        case "sizing" -> sizing = Optional.of(switch (v) {
          case "physical" -> AutoscalerSettings.GpuSizing.PHYSICAL;
          case "advertised" -> AutoscalerSettings.GpuSizing.ADVERTISED;
          default -> throw new BadKnob(knob, "physical or advertised", v);
        });
        case "nodePool" -> {
          // A Kubernetes object name (DNS subdomain); whether the scenario has it is checked in apply.
          if (v.length() > 253 || !v.matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?")) {
            throw new BadKnob(knob, "a NodePool name", v);
          }
          nodePool = Optional.of(v);
        }
        default -> throw new BadKnob("knob", "one of " + String.join(", ", NAMES), knob);
      }
    }
    return new Knobs(replicas, policy, after, limit, capacity, sizing, nodePool);
  }

  /** The knobs' names, as forms and JSON bodies give them. */
  public static final List<String> NAMES = List.of("timeSlicingReplicas", "consolidationPolicy", "consolidateAfter",
      "gpuLimit", "capacityTypes", "sizing", "nodePool");

  private static int integer(String knob, String v, int min, int max) {
    String expected = "a whole number from " + min + " to " + max;
    if (!v.matches("[0-9]{1,7}")) {
      throw new BadKnob(knob, expected, v);
    }
    int n = Integer.parseInt(v);
    if (n < min || n > max) {
      throw new BadKnob(knob, expected, v);
    }
    return n;
  }

  private static Optional<Duration> after(String knob, String v) {
    if (v.equals("Never")) {
      return Optional.empty();
    }
    Duration d = v.length() > 20 ? null : GoDuration.parse(v);
    if (d == null || d.isNegative() || d.compareTo(MAX_CONSOLIDATE_AFTER) > 0) {
      throw new BadKnob(knob, "Never or a duration from 0s to 24h such as 30s, 10m or 1h", v);
    }
    return Optional.of(d);
  }

  /** What the user changed, as text, for the run's label and the comparison. */
  public Map<String, String> describe() {
    Map<String, String> m = new LinkedHashMap<>();
    timeSlicingReplicas.ifPresent(r -> m.put("timeSlicingReplicas", Integer.toString(r)));
    consolidationPolicy.ifPresent(p -> m.put("consolidationPolicy", p.wireName()));
    consolidateAfter.ifPresent(a -> m.put("consolidateAfter", a.map(KubeDuration::format).orElse("Never")));
    gpuLimit.ifPresent(l -> m.put("gpuLimit", Long.toString(l)));
    capacityTypes.ifPresent(c -> m.put("capacityTypes", String.join(",", c)));
    sizing.ifPresent(s -> m.put("sizing", s.name().toLowerCase(Locale.ROOT)));
    nodePool.ifPresent(p -> m.put("nodePool", p));
    return m;
  }

  /**
   * The NodePools {@code nodePool} may name: those of the scenario's {@code spec.cluster}, then those
   * its steps apply, each once, in the order the scenario first writes them.
   */
  public static List<String> nodePools(Scenario s) {
    Set<String> names = new LinkedHashSet<>();
    collectNodePools(s.objects(), names);
    for (ScenarioAction a : s.timeline()) {
      if (a instanceof ScenarioAction.Apply apply) {
        collectNodePools(apply.objects(), names);
      }
    }
    return List.copyOf(names);
  }

  private static void collectNodePools(List<ClusterObject> objects, Set<String> names) {
    for (ClusterObject o : objects) {
      if (o instanceof ClusterObject.NodePoolObject p) {
        names.add(p.nodePool().name());
      }
    }
  }

  private boolean turnsANodePool() {
    return consolidationPolicy.isPresent() || consolidateAfter.isPresent() || gpuLimit.isPresent()
        || capacityTypes.isPresent();
  }

  /**
   * The NodePool the NodePool knobs change: the one named, or the scenario's only one. Naming one it
   * does not have, or none where it has several, is a {@link BadKnob}.
   */
  private Optional<String> target(Scenario s) {
    List<String> pools = nodePools(s);
    String known = pools.isEmpty() ? "no NodePool in the scenario"
        : "one of " + String.join(", ", pools);
    if (nodePool.isPresent()) {
      if (!pools.contains(nodePool.get())) {
        throw new BadKnob("nodePool", known, nodePool.get());
      }
      return nodePool;
    }
    if (!turnsANodePool()) {
      return Optional.empty();
    }
    if (pools.size() != 1) {
      throw BadKnob.missing("nodePool", "the NodePool to change, " + known);
    }
    return Optional.of(pools.getFirst());
  }

  /** The scenario with these knobs turned; a {@link BadKnob} where {@code nodePool} does not fit it. */
  public Scenario apply(Scenario s) {
    Optional<String> target = target(s);
    List<ScenarioAction> timeline = new ArrayList<>(s.timeline().size());
    for (ScenarioAction a : s.timeline()) {
      timeline.add(a instanceof ScenarioAction.Apply apply && target.isPresent()
          ? new ScenarioAction.Apply(turned(apply.objects(), target.get())) : a);
    }
    AutoscalerSettings autoscaler = sizing.map(s.autoscaler()::withSizing).orElse(s.autoscaler());
    return new Scenario(s.name(), s.start(), s.seed(), s.catalog(),
        target.map(t -> turned(s.objects(), t)).orElse(s.objects()), plugin(s.devicePlugin()), s.settings(),
        autoscaler, timeline, s.namespaces(), s.reservations());
  }

  /** {@code objects} with the NodePool named {@code target}, wherever it is, turned. */
  private List<ClusterObject> turned(List<ClusterObject> objects, String target) {
    List<ClusterObject> out = new ArrayList<>(objects.size());
    for (ClusterObject o : objects) {
      out.add(o instanceof ClusterObject.NodePoolObject p && p.nodePool().name().equals(target)
          ? new ClusterObject.NodePoolObject(pool(p.nodePool())) : o);
    }
    return out;
  }

  private NodePool pool(NodePool p) {
    Disruption d = p.disruption();
    d = consolidationPolicy.map(d::withPolicy).orElse(d);
    d = consolidateAfter.map(d::withConsolidateAfter).orElse(d);
    NodePool out = p.withDisruption(d);
    if (gpuLimit.isPresent()) {
      out = out.withLimits(out.limits().with(ResourceName.NVIDIA_GPU, Quantity.of(gpuLimit.get())));
    }
    if (capacityTypes.isPresent()) {
      List<NodePoolRequirement> reqs = new ArrayList<>();
      for (NodePoolRequirement r : out.template().requirements()) {
        if (!r.key().equals(KarpenterLabels.CAPACITY_TYPE)) {
          reqs.add(r);
        }
      }
      reqs.add(NodePoolRequirement.in(KarpenterLabels.CAPACITY_TYPE, capacityTypes.get().toArray(String[]::new)));
      out = out.withTemplate(out.template().withRequirements(reqs));
    }
    return out;
  }

  /** Every time-slicing resource of every named config with the chosen replicas. */
  private DevicePlugin plugin(DevicePlugin p) {
    if (timeSlicingReplicas.isEmpty()) {
      return p;
    }
    int replicas = timeSlicingReplicas.get();
    GpuOperator op = p.operator();
    Map<String, DevicePluginConfig> configs = new TreeMap<>();
    op.configs().configs().forEach((name, c) -> configs.put(name, c.timeSlicing().map(ts -> new DevicePluginConfig(
        c.flags(), Optional.of(new SharingSpec(ts.renameByDefault(), ts.failRequestsGreaterThanOne(),
            ts.resources().stream().map(r -> new ReplicatedResource(r.name(), replicas, r.devices())).toList())),
        c.mps())).orElse(c)));
    GpuOperator changed = op.withConfigs(NamedConfigs.of(configs, op.configs().defaultName()));
    return new DevicePlugin(new NvidiaDevicePlugin(changed), p.registrationDelay(), p.neverRegistersOn(),
        p.daemonSet(), p.migReconfiguration());
  }
}
