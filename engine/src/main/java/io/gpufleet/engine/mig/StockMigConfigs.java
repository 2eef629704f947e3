package io.gpufleet.engine.mig;

import io.gpufleet.model.deviceplugin.MigPartedConfig;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.gpu.MigProfile;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The uniform layouts of the MIG manager's default config ({@code default-mig-parted-config}) for one
 * GPU model: {@code all-disabled}, {@code all-enabled} (MIG on, no instances) and
 * {@code all-<profile>} with as many instances as fit (k8s-gpu-semantics §2.4). The stock file's
 * per-model {@code all-balanced} is not derived; write it in a mig-parted ConfigMap.
 */
public final class StockMigConfigs {
  private StockMigConfigs() {}

  public static MigPartedConfig forModel(GpuModel gpu) {
    TreeMap<String, List<MigPartedConfig.Entry>> configs = new TreeMap<>();
    configs.put("all-disabled", List.of(MigPartedConfig.Entry.all(false, Map.of())));
    if (gpu.migCapable()) {
      configs.put("all-enabled", List.of(MigPartedConfig.Entry.all(true, Map.of())));
      for (MigProfile p : gpu.migProfiles()) {
        if (!p.mediaExtensions()) {
          configs.put("all-" + p.name(), List.of(MigPartedConfig.Entry.all(true, Map.of(p.name(), p.maxInstances()))));
        }
      }
    }
    return new MigPartedConfig(configs);
  }

  /** The stock configs with the user's on top (a user's config replaces a stock one of the same name). */
  public static MigPartedConfig withUserConfigs(GpuModel gpu, MigPartedConfig user) {
    TreeMap<String, List<MigPartedConfig.Entry>> configs = new TreeMap<>(forModel(gpu).configs());
    configs.putAll(user.configs());
    return new MigPartedConfig(configs);
  }
}
