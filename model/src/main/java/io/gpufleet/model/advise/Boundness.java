package io.gpufleet.model.advise;

import io.gpufleet.model.wire.WireEnum;
import java.util.Locale;
import java.util.Optional;

/**
 * What limits one request running alone. The two H200 workloads show both: {@code big} streams
 * 12.9 GB of weights per request and is held by memory bandwidth; {@code small} launches 768 tiny
 * kernels and is held by the host launching them, leaving the GPU mostly idle.
 */
public enum Boundness implements WireEnum {
  /** One long burst of bandwidth-bound kernels per request; co-tenants' bursts contend for it. */
  MEMORY,
  /** A stream of tiny kernels with host-side gaps between them; co-tenants fill each other's gaps. */
  LAUNCH;

  @Override
  public String wireName() {
    return WireEnum.lowerKebab(this);
  }

  public static Optional<Boundness> parse(String text) {
    return WireEnum.fromWire(Boundness.class, text.strip().toLowerCase(Locale.ROOT));
  }
}
