package io.gpufleet.engine.deviceplugin;

import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.MigStrategy;
import io.gpufleet.model.deviceplugin.Sharing;
import io.gpufleet.model.deviceplugin.SharingMode;
import io.gpufleet.model.gpu.GpuInventory;
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
 * @param migMode   how the strategy read the layout: whole GPUs, MIG devices, or an invalid single layout
 * @param warnings  what the plugin would log: a MIG-enabled GPU under {@code none}, MPS asked of a MIG device
 */
public record Advertisement(List<Device> devices, SortedMap<ResourceName, Long> counts, MigMode migMode,
    Optional<MigProfile> singleProfile, List<String> warnings) {

  /** How the MIG strategy exposed the layout. */
  public enum MigMode { WHOLE_GPUS, MIG_SINGLE, MIG_MIXED, MIG_SINGLE_INVALID }

  public Advertisement {
    devices = List.copyOf(devices);
    counts = Collections.unmodifiableSortedMap(new TreeMap<>(counts));
    warnings = List.copyOf(warnings);
  }

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
    List<Device> devices = new ArrayList<>();
    for (Device d : base) {
      SharingMode shared = sharing.modeOf(d.resource().name());
      if (shared instanceof SharingMode.Mps && d.mig().isPresent()) {
        warnings.add("MPS is not supported on MIG device " + d.id() + "; advertised unshared");
        shared = new SharingMode.Exclusive();
      }
      int replicas = shared.tenantsPerDevice();
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
