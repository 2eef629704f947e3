package io.gpufleet.sim.scenario;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.model.cloud.CapacityReservation;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.meta.Namespaces;
import io.gpufleet.sim.SimulationSettings;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Everything one simulation needs, as data: the starting objects (NodePools among them), the
 * instance catalogue, the device plugin, the simulator's and Karpenter's settings, a seed, and a
 * timeline of actions, the namespaces' labels, and the cloud's capacity reservations. A YAML scenario runner only has to translate its
 * file into this.
 */
public record Scenario(String name, Instant start, long seed, InstanceCatalog catalog, List<ClusterObject> objects,
    DevicePlugin devicePlugin, SimulationSettings settings, AutoscalerSettings autoscaler,
    List<ScenarioAction> timeline, Namespaces namespaces, List<CapacityReservation> reservations) {

  public static final Instant DEFAULT_START = Instant.parse("2026-01-05T00:00:00Z");

  public Scenario {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(catalog, "catalog");
    objects = List.copyOf(objects);
    Objects.requireNonNull(devicePlugin, "devicePlugin");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(autoscaler, "autoscaler");
    timeline = List.copyOf(timeline);
    namespaces = namespaces == null ? Namespaces.NONE : namespaces;
    reservations = List.copyOf(reservations);
  }

  /** A scenario whose cloud has no capacity reservations. */
  public Scenario(String name, Instant start, long seed, InstanceCatalog catalog, List<ClusterObject> objects,
      DevicePlugin devicePlugin, SimulationSettings settings, AutoscalerSettings autoscaler,
      List<ScenarioAction> timeline, Namespaces namespaces) {
    this(name, start, seed, catalog, objects, devicePlugin, settings, autoscaler, timeline, namespaces, List.of());
  }

  /** A scenario with no Namespace objects. */
  public Scenario(String name, Instant start, long seed, InstanceCatalog catalog, List<ClusterObject> objects,
      DevicePlugin devicePlugin, SimulationSettings settings, AutoscalerSettings autoscaler,
      List<ScenarioAction> timeline) {
    this(name, start, seed, catalog, objects, devicePlugin, settings, autoscaler, timeline, Namespaces.NONE);
  }

  /** The same scenario with these namespaces (their labels, for pod affinity's namespaceSelector). */
  public Scenario withNamespaces(Namespaces ns) {
    return new Scenario(name, start, seed, catalog, objects, devicePlugin, settings, autoscaler, timeline, ns,
        reservations);
  }

  /** The same scenario under other simulation settings. */
  public Scenario withSettings(SimulationSettings s) {
    return new Scenario(name, start, seed, catalog, objects, devicePlugin, s, autoscaler, timeline, namespaces,
        reservations);
  }

  /** The same scenario with a shorter (or other) timeline. */
  public Scenario withTimeline(List<ScenarioAction> actions) {
    return new Scenario(name, start, seed, catalog, objects, devicePlugin, settings, autoscaler, actions, namespaces,
        reservations);
  }

  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** Assembles a scenario step by step; every field has a default. */
  public static final class Builder {
    private final String name;
    private Instant start = DEFAULT_START;
    private long seed = 1;
    private InstanceCatalog catalog = InstanceCatalog.builtIn();
    private final List<ClusterObject> objects = new ArrayList<>();
    private DevicePlugin devicePlugin = DevicePlugin.DEFAULTS;
    private SimulationSettings settings = SimulationSettings.DEFAULTS;
    private AutoscalerSettings autoscaler = AutoscalerSettings.DEFAULTS;
    private final List<ScenarioAction> timeline = new ArrayList<>();
    private final List<CapacityReservation> reservations = new ArrayList<>();

    Builder(String name) {
      this.name = name;
    }

    public Builder start(Instant t) {
      this.start = t;
      return this;
    }

    public Builder seed(long s) {
      this.seed = s;
      return this;
    }

    public Builder catalog(InstanceCatalog c) {
      this.catalog = c;
      return this;
    }

    public Builder object(ClusterObject o) {
      objects.add(o);
      return this;
    }

    public Builder objects(List<ClusterObject> os) {
      objects.addAll(os);
      return this;
    }

    public Builder devicePlugin(DevicePlugin d) {
      this.devicePlugin = d;
      return this;
    }

    public Builder settings(SimulationSettings s) {
      this.settings = s;
      return this;
    }

    public Builder autoscaler(AutoscalerSettings a) {
      this.autoscaler = a;
      return this;
    }

    /** EC2 holds this capacity reservation (an ODCR or a Capacity Block). */
    public Builder reservation(CapacityReservation r) {
      reservations.add(r);
      return this;
    }

    public Builder then(ScenarioAction a) {
      timeline.add(a);
      return this;
    }

    public Scenario build() {
      return new Scenario(name, start, seed, catalog, objects, devicePlugin, settings, autoscaler, timeline,
          Namespaces.NONE, reservations);
    }
  }
}
