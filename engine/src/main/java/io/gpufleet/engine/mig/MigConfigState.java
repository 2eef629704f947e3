package io.gpufleet.engine.mig;

import java.util.Optional;

/**
 * Values of {@code nvidia.com/mig.config.state}, set by the MIG manager: {@code pending} while it
 * works, {@code rebooting} when a MIG-mode change needs a reboot, then {@code success} or
 * {@code failed} (k8s-gpu-semantics §2.4).
 */
public enum MigConfigState {
  PENDING("pending"), REBOOTING("rebooting"), SUCCESS("success"), FAILED("failed");

  private final String value;

  MigConfigState(String value) {
    this.value = value;
  }

  public String value() {
    return value;
  }

  public static Optional<MigConfigState> parse(String value) {
    for (MigConfigState s : values()) {
      if (s.value.equals(value)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }
}
