package io.gpufleet.nvml.bench;

import java.util.Map;

/** The MPS control daemon the MPS modes need, started before their runs and stopped after. */
public interface MpsControl {

  /** Starts the daemon; returns the environment a client needs to reach it. */
  Map<String, String> start();

  void stop();
}
