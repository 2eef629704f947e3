package io.gpufleet.model.deviceplugin;

import io.gpufleet.model.wire.WireEnum;

/**
 * {@code flags.migStrategy}: how the plugin exposes MIG devices. {@code none} ignores MIG;
 * {@code single} exposes every MIG device as {@code nvidia.com/gpu} (all of one profile);
 * {@code mixed} exposes {@code nvidia.com/mig-<profile>} per profile (k8s-gpu-semantics §2.1–2.2).
 */
public enum MigStrategy implements WireEnum {
  NONE, SINGLE, MIXED;

  @Override
  public String wireName() {
    return WireEnum.lowerKebab(this);
  }
}
