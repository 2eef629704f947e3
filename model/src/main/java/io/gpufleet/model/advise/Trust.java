package io.gpufleet.model.advise;

import java.util.Locale;
import java.util.Optional;

/**
 * Whether the tenants of a workload may share an address space and a fault domain with each other
 * and with the other workloads on the card. Time-slicing gives no memory or fault isolation and MPS
 * shares one address space (k8s-gpu-semantics §2.2; workshop module "MPS: trust your tenants"), so
 * untrusted tenants need exclusive GPUs or MIG.
 */
public enum Trust {
  TRUSTED,
  UNTRUSTED;

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<Trust> parse(String text) {
    for (Trust t : values()) {
      if (t.label().equals(text.strip().toLowerCase(Locale.ROOT))) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }
}
