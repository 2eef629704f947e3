package io.gpufleet.sim.scenario;

import io.gpufleet.sim.SimulationResult;

final class DebugPrint {
  private DebugPrint() {}

  static void print(SimulationResult r) {
    r.record().entries().forEach(e -> System.out.println(e));
    r.violations().forEach(v -> System.out.println("VIOLATION " + v));
  }
}
