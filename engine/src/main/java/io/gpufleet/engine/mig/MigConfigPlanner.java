package io.gpufleet.engine.mig;

import io.gpufleet.model.deviceplugin.MigPartedConfig;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.gpu.MigInstance;
import io.gpufleet.model.gpu.MigLayout;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * Turns one named mig-parted config into a layout for a node's GPUs, as {@code nvidia-mig-parted
 * apply} would: each entry selects GPUs by PCI device ID ({@code device-filter}) and index
 * ({@code devices}); selected GPUs get MIG mode and the instances of {@code mig-devices}, placed by
 * {@link MigPlanner}. GPUs no entry selects keep their current state.
 */
public final class MigConfigPlanner {
  private MigConfigPlanner() {}

  public static LayoutPlan plan(MigPartedConfig config, String name, GpuInventory inventory, MigLayout current) {
    if (!inventory.model().migCapable() && !name.equals("all-disabled")) {
      return new LayoutPlan.Rejected("MIG is not supported on " + inventory.model().productName()
          + " (asked for mig.config " + name + ")");
    }
    var entries = config.config(name);
    if (entries.isEmpty()) {
      return new LayoutPlan.Rejected("mig-parted config has no entry named \"" + name + "\" (known: "
          + String.join(", ", config.configs().keySet()) + ")");
    }
    return plan(entries.get(), inventory, current);
  }

  public static LayoutPlan plan(List<MigPartedConfig.Entry> entries, GpuInventory inventory, MigLayout current) {
    TreeMap<Integer, List<MigInstance>> next = new TreeMap<>(current.gpus());
    Integer[] matchedBy = new Integer[inventory.count()];
    for (int e = 0; e < entries.size(); e++) {
      MigPartedConfig.Entry entry = entries.get(e);
      if (!filterMatches(entry, inventory)) {
        continue;
      }
      if (!entry.migEnabled() && !entry.migDevices().isEmpty()) {
        return new LayoutPlan.Rejected("entry " + e + " lists mig-devices but has mig-enabled: false");
      }
      for (int i = 0; i < inventory.count(); i++) {
        if (entry.devices().isPresent() && !entry.devices().get().contains(i)) {
          continue;
        }
        if (matchedBy[i] != null) {
          return new LayoutPlan.Rejected("GPU " + i + " is selected by entries " + matchedBy[i] + " and " + e);
        }
        matchedBy[i] = e;
        if (!entry.migEnabled()) {
          next.remove(i);
          continue;
        }
        MigPlan plan = MigPlanner.plan(inventory.model(), entry.migDevices());
        switch (plan) {
          case MigPlan.Rejected r -> {
            return new LayoutPlan.Rejected(r.reason());
          }
          case MigPlan.Placed p -> next.put(i, p.instances());
        }
      }
      if (entry.devices().isPresent()) {
        for (int d : entry.devices().get()) {
          if (d < 0 || d >= inventory.count()) {
            return new LayoutPlan.Rejected("entry " + e + " selects GPU " + d + " but the node has "
                + inventory.count() + " GPU(s)");
          }
        }
      }
    }
    return new LayoutPlan.Planned(new MigLayout(next));
  }

  /** An empty filter selects every model; an unknown PCI ID matches no filter. */
  static boolean filterMatches(MigPartedConfig.Entry entry, GpuInventory inventory) {
    if (entry.deviceFilter().isEmpty()) {
      return true;
    }
    var id = inventory.model().pciDeviceId();
    return id.isPresent() && entry.deviceFilter().stream()
        .anyMatch(f -> f.toLowerCase(Locale.ROOT).equals(id.get().toLowerCase(Locale.ROOT)));
  }
}
