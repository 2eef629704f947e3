package io.gpufleet.model.gpu;

import java.util.Optional;

/**
 * What GPUs an instance type carries ({@code g5.xlarge} → one A10G), for nodes that say only
 * {@code node.kubernetes.io/instance-type}. A role for the instance-type catalogue to fill; until
 * one is wired in, {@link #NONE} knows no type.
 */
@FunctionalInterface
public interface InstanceTypeGpus {

  /** Knows no instance type. */
  InstanceTypeGpus NONE = instanceType -> Optional.empty();

  /** The GPUs of one instance type, empty when it has none or is unknown. */
  Optional<Attached> gpus(String instanceType);

  /** {@code model} is anything {@link GpuCatalog#find} understands: a catalogue id, GFD label or alias. */
  record Attached(String model, int count) {}
}
