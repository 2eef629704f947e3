package io.gpufleet.scenario;

import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.sim.scenario.DevicePlugin;

/** The simulator's device plugin for a ConfigMap of named configs. */
final class DevicePluginWiring {
  private DevicePluginWiring() {}

  static DevicePlugin of(NamedConfigs configs) {
    // Replaced by the device-plugin emulation once the simulator takes named configs.
    return DevicePlugin.EXCLUSIVE;
  }
}
