package io.gpufleet.engine.deviceplugin;

import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.MigStrategy;
import io.gpufleet.model.deviceplugin.Sharing;
import io.gpufleet.model.deviceplugin.SharingMode;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.gpu.MigInstance;
import io.gpufleet.model.gpu.MigLayout;
import io.gpufleet.model.gpu.MigProfile;
import io.gpufleet.model.gpu.PhysicalGpu;
import io.gpufleet.model.resource.ResourceName;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What the device plugin advertises for a node's GPUs under one config and MIG layout: the devices
 * (k8s-gpu-semantics §2.2), their count per resource, and what the MIG strategy made of the layout.
 *
 * @param migMode      how the strategy read the layout: whole GPUs, MIG devices, or an invalid single layout
 * @param warnings     what the plugin would log: a MIG-enabled GPU under {@code none}
 * @param pluginError  why the plugin (or the MPS control daemon it waits for) refuses to start; then
 *                     it advertises nothing: MPS over MIG devices ({@code internal/plugin/mps.go}
 *                     getMPSOptions), more MPS replicas than the GPU's client limit
 *                     ({@code cmd/mps-control-daemon/mps/device.go} assertReplicas)
 */
public record Advertisement(List<Device> devices, SortedMap<ResourceName, Long> counts, MigMode migMode,
    Optional<MigProfile> singleProfile, List<String> warnings, Optional<String> pluginError) {

  /** How the MIG strategy exposed the layout. */
  public enum MigMode { WHOLE_GPUS, MIG_SINGLE, MIG_MIXED, MIG_SINGLE_INVALID }

  public Advertisement {
    devices = List.copyOf(devices);
    counts = Collections.unmodifiableSortedMap(new TreeMap<>(counts));
    warnings = List.copyOf(warnings);
    pluginError = pluginError == null ? Optional.empty() : pluginError;
  }

  /** An advertisement of a plugin that started. */
  public Advertisement(List<Device> devices, SortedMap<ResourceName, Long> counts, MigMode migMode,
      Optional<MigProfile> singleProfile, List<String> warnings) {
    this(devices, counts, migMode, singleProfile, warnings, Optional.empty());
  }

  /** True when the plugin started and advertises what {@link #counts} says. */
  public boolean started() {
    return pluginError.isEmpty();
  }

  /** No plugin running: no devices, no resources. */
  public static final Advertisement NOTHING = new Advertisement(List.of(), new TreeMap<>(), MigMode.WHOLE_GPUS,
      Optional.empty(), List.of());

  public static Advertisement of(GpuInventory inventory, DevicePluginConfig config, MigLayout layout) {
    MigStrategy strategy = config.flags().migStrategy();
    Sharing sharing = config.sharing();
    List<String> warnings = new ArrayList<>();
    List<Device> base = new ArrayList<>();
    MigMode mode = MigMode.WHOLE_GPUS;
    Optional<MigProfile> single = Optional.empty();
    List<PhysicalGpu> gpus = inventory.gpus();
    boolean anyMig = gpus.stream().anyMatch(g -> migOn(inventory, layout, g.index()));
    switch (strategy) {
      case NONE -> {
        for (PhysicalGpu g : gpus) {
          if (migOn(inventory, layout, g.index())) {
            warnings.add("GPU " + g.index() + " has MIG mode on; migStrategy none advertises it whole");
          }
          base.add(whole(g));
        }
      }
      case SINGLE -> {
        Set<String> profiles = new LinkedHashSet<>();
        boolean allMig = true;
        boolean allHaveInstances = true;
        for (PhysicalGpu g : gpus) {
          allMig &= migOn(inventory, layout, g.index());
          allHaveInstances &= !layout.instances(g.index()).isEmpty();
          layout.instances(g.index()).forEach(m -> profiles.add(m.profile().name()));
        }
        if (!anyMig) {
          gpus.forEach(g -> base.add(whole(g)));
        } else if (allMig && allHaveInstances && profiles.size() == 1) {
          mode = MigMode.MIG_SINGLE;
          for (PhysicalGpu g : gpus) {
            for (MigInstance m : layout.instances(g.index())) {
              base.add(mig(g, m, ResourceName.NVIDIA_GPU));
            }
          }
          single = Optional.of(layout.instances(gpus.getFirst().index()).getFirst().profile());
        } else {
          // GFD labels such a node -MIG-INVALID and the plugin advertises nothing (k8s-gpu-semantics §2.2).
          mode = MigMode.MIG_SINGLE_INVALID;
          warnings.add("migStrategy single needs every GPU in MIG mode with instances of one profile; found "
              + (profiles.isEmpty() ? "no instances" : String.join(", ", profiles))
              + (allMig ? "" : " and GPUs with MIG off"));
        }
      }
      case MIXED -> {
        mode = anyMig ? MigMode.MIG_MIXED : MigMode.WHOLE_GPUS;
        for (PhysicalGpu g : gpus) {
          if (!migOn(inventory, layout, g.index())) {
            base.add(whole(g));
            continue;
          }
          for (MigInstance m : layout.instances(g.index())) {
            base.add(mig(g, m, ResourceName.of(m.profile().resourceName())));
          }
        }
      }
    }
    Optional<String> error = mpsError(inventory, sharing, base);
    if (error.isPresent()) {
      return new Advertisement(List.of(), new TreeMap<>(), mode, single, warnings, error);
    }
    List<Device> devices = new ArrayList<>();
    for (Device d : base) {
      // MPS over MIG devices stopped the plugin above (mpsError), so every mode here is one it runs.
      int replicas = sharing.modeOf(d.resource().name()).tenantsPerDevice();
      if (replicas <= 1) {
        devices.add(d);
        continue;
      }
      ResourceName name = sharing.renamed() ? ResourceName.of(d.resource().name() + ".shared") : d.resource();
      for (int r = 0; r < replicas; r++) {
        devices.add(new Device(d.id() + "::" + r, name, d.gpuIndex(), d.gpuUuid(), d.mig(), d.migUuid(), r, replicas));
      }
    }
    TreeMap<ResourceName, Long> counts = new TreeMap<>();
    for (Device d : devices) {
      counts.merge(d.resource(), 1L, Long::sum);
    }
    if (mode == MigMode.MIG_SINGLE_INVALID) {
      counts.put(ResourceName.NVIDIA_GPU, 0L);
    }
    return new Advertisement(devices, counts, mode, single, warnings);
  }

  /**
   * Under MPS the plugin refuses a resource made of MIG devices, and the MPS control daemon refuses
   * more replicas than the GPU's client limit; either way the plugin never starts.
   */
  private static Optional<String> mpsError(GpuInventory inventory, Sharing sharing, List<Device> base) {
    if (!(sharing instanceof Sharing.Mps mps)) {
      return Optional.empty();
    }
    for (Device d : base) {
      if (mps.replicas(d.resource().name()) <= 1) {
        continue;
      }
      if (d.mig().isPresent()) {
        return Optional.of("error creating plugin for " + d.resource() + ": sharing using MPS is not supported for "
            + "MIG devices");
      }
    }
    for (var r : mps.settings().resources()) {
      int limit = mpsMaxClients(inventory.model());
      if (r.replicas() > limit && base.stream().anyMatch(d -> d.resource().name().equals(r.name()))) {
        return Optional.of("invalid MPS configuration: invalid device maximum allowed replicas exceeded: "
            + r.replicas() + " > " + limit);
      }
    }
    return Optional.empty();
  }

  /**
   * The most clients one MPS server takes on this GPU, as the control daemon checks replicas against
   * it: {@link SharingMode.Mps#MAX_CLIENTS} (48) from compute capability 7.5 on, else 16
   * ({@code cmd/mps-control-daemon/mps/device.go} maxClients). Upstream's helper is named
   * isAtLeastVolta but compares with 7.5, so a Volta V100 (7.0) gets 16; gpufleet follows the
   * comparison. An unknown capability counts as new.
   */
  public static int mpsMaxClients(GpuModel gpu) {
    boolean atLeast75 = gpu.compute().map(cc -> cc.major() > 7 || (cc.major() == 7 && cc.minor() >= 5)).orElse(true);
    return atLeast75 ? SharingMode.Mps.MAX_CLIENTS : 16;
  }

  static boolean migOn(GpuInventory inventory, MigLayout layout, int index) {
    return inventory.model().migCapable() && layout.migEnabled(index);
  }

  private static Device whole(PhysicalGpu g) {
    return new Device(g.uuid(), ResourceName.NVIDIA_GPU, g.index(), g.uuid(), Optional.empty(), Optional.empty(), 0, 1);
  }

  private static Device mig(PhysicalGpu g, MigInstance m, ResourceName resource) {
    String uuid = GpuInventory.migUuid(g.uuid(), m.placement(), m.profile().name());
    return new Device(uuid, resource, g.index(), g.uuid(), Optional.of(m), Optional.of(uuid), 0, 1);
  }
}
