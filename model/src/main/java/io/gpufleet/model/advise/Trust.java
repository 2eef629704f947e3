package io.gpufleet.model.advise;

import io.gpufleet.model.wire.WireEnum;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether the tenants of a workload may share a card's memory and fault domain with each other and
 * with the other workloads on it. Time-slicing gives no memory or fault isolation
 * (k8s-gpu-semantics §2.2), and MPS clients share one fault domain: a fatal GPU exception in one
 * reaches every client of the card (NVIDIA MPS documentation; Volta and later do give each client
 * its own address space). The workshop module: "MPS: trust your tenants". So untrusted tenants
 * need exclusive GPUs or MIG.
 */
public enum Trust implements WireEnum {
  TRUSTED,
  UNTRUSTED;

  @Override
  public String wireName() {
    return WireEnum.lowerKebab(this);
  }

  public static Optional<Trust> parse(String text) {
    return WireEnum.fromWire(Trust.class, text.strip().toLowerCase(Locale.ROOT));
  }
}
