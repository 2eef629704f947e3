package io.gpufleet.engine.dra;

import io.gpufleet.model.dra.Device;

/** What the allocator asks of a selector language: does one expression select one device? */
public interface DeviceSelector {

  CelDeviceSelector.Outcome evaluate(String expression, String driver, Device device);
}
