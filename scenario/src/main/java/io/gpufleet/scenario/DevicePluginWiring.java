package io.gpufleet.scenario;

import io.gpufleet.autoscaler.gpu.NvidiaDevicePlugin;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.sim.scenario.DevicePlugin;

/** The simulator's device plugin for a ConfigMap of named configs. */
final class DevicePluginWiring {
  private DevicePluginWiring() {}

  static DevicePlugin of(NamedConfigs configs) {
    if (configs.configs().isEmpty()) {
      return DevicePlugin.DEFAULTS;
    }
    return DevicePlugin.DEFAULTS.withAdvertiser(new NvidiaDevicePlugin(configs, GpuCatalog.builtIn()));
  }
}
