package io.gpufleet.engine.mig;

import io.gpufleet.model.gpu.MigLayout;

/** One thing the MIG manager does to a node, in order; the simulator carries it out. */
public sealed interface MigStep {

  record SetLabel(String key, String value) implements MigStep {}

  /** A GPU client evicted because its card is about to be repartitioned. */
  record EvictPod(String podKey, String reason) implements MigStep {}

  /** Create the instances (and flip MIG mode) so the node's layout becomes {@code layout}. */
  record ApplyLayout(MigLayout layout) implements MigStep {}

  /** The node reboots for a MIG-mode change; MIG mode survives it, instances are re-applied after. */
  record Reboot() implements MigStep {}
}
