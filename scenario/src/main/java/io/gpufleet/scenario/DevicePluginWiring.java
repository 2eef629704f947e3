package io.gpufleet.scenario;

import io.gpufleet.engine.deviceplugin.GpuOperator;
import io.gpufleet.engine.mig.MigManager;
import io.gpufleet.model.deviceplugin.MigPartedConfig;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.sim.scenario.DevicePlugin;

/**
 * The simulator's device plugin for a ConfigMap of named configs and one of mig-parted configs, over
 * the scenario's GPU catalogue.
 */
final class DevicePluginWiring {
  private DevicePluginWiring() {}

  static DevicePlugin of(NamedConfigs configs, MigPartedConfig migParted, GpuCatalog catalog) {
    if (configs.configs().isEmpty() && configs.osPlugins().isEmpty() && migParted.configs().isEmpty()
        && catalog == GpuCatalog.builtIn()) {
      return DevicePlugin.DEFAULTS;
    }
    return DevicePlugin.DEFAULTS.withOperator(new GpuOperator(configs, new MigManager(migParted), catalog));
  }
}
