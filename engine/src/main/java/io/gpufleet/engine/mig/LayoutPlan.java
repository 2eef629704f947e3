package io.gpufleet.engine.mig;

import io.gpufleet.model.gpu.MigLayout;

/** A whole node's MIG layout as a mig-parted config asks for it, or why it cannot be applied. */
public sealed interface LayoutPlan {

  record Planned(MigLayout layout) implements LayoutPlan {}

  record Rejected(String reason) implements LayoutPlan {}
}
