package io.gpufleet.nvml;

import java.util.List;

/** What NVML reports for this machine: the driver and every GPU, in NVML's index order. */
public record NodeFacts(String driverVersion, List<GpuFacts> gpus) {
  public NodeFacts {
    gpus = List.copyOf(gpus);
  }
}
