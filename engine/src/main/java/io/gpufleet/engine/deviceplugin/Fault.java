package io.gpufleet.engine.deviceplugin;

import io.gpufleet.model.gpu.MigPlacement;

/**
 * A GPU error as the driver reports it (an Xid). Its reach follows the hardware: a whole-card
 * fault reaches every process on the card — every replica under time-slicing or MPS, every MIG
 * instance — while a fault inside a MIG instance stays in it (k8s-gpu-semantics §2.2; workshop:
 * time-slicing has no fault isolation, MIG has).
 */
public sealed interface Fault {

  int xid();

  int gpuIndex();

  record GpuFault(int gpuIndex, int xid) implements Fault {}

  record MigFault(int gpuIndex, MigPlacement placement, int xid) implements Fault {}
}
