package io.gpufleet.nvml;

/** {@code nvmlComputeMode_t} (nvml.h): who may create a context on the card. */
public enum ComputeMode {
  DEFAULT(0, "Default"),
  EXCLUSIVE_THREAD(1, "Exclusive_Thread"),
  PROHIBITED(2, "Prohibited"),
  EXCLUSIVE_PROCESS(3, "Exclusive_Process");

  private final int code;
  private final String smiName;

  ComputeMode(int code, String smiName) {
    this.code = code;
    this.smiName = smiName;
  }

  /** As {@code nvidia-smi --query-gpu=compute_mode} prints it. */
  public String smiName() {
    return smiName;
  }

  public static ComputeMode of(int code) {
    for (ComputeMode m : values()) {
      if (m.code == code) {
        return m;
      }
    }
    throw new IllegalArgumentException("unknown nvmlComputeMode_t " + code);
  }
}
