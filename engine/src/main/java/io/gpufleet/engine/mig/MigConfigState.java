package io.gpufleet.engine.mig;

import io.gpufleet.model.wire.WireEnum;
import java.util.Optional;

/**
 * Values of {@code nvidia.com/mig.config.state}, set by the MIG manager: {@code pending} while it
 * works, {@code rebooting} when a MIG-mode change needs a reboot, then {@code success} or
 * {@code failed} (k8s-gpu-semantics §2.4).
 */
public enum MigConfigState implements WireEnum {
  PENDING, REBOOTING, SUCCESS, FAILED;

  @Override
  public String wireName() {
    return WireEnum.lowerKebab(this);
  }

  public static Optional<MigConfigState> fromWire(String value) {
    return WireEnum.fromWire(MigConfigState.class, value);
  }
}
