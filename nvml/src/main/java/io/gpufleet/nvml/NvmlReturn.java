package io.gpufleet.nvml;

/**
 * Every {@code nvmlReturn_t} code of NVML's header {@code nvml.h} (enum {@code nvmlReturn_enum},
 * as shipped with driver R580 / CUDA 13.0; the same list is vendored in NVIDIA/go-nvml,
 * {@code gen/nvml/nvml.h}), by its number. A code a newer driver adds shows as {@link #UNRECOGNIZED}
 * with its number kept by {@link NvmlException}.
 */
public enum NvmlReturn {
  SUCCESS(0),
  ERROR_UNINITIALIZED(1),
  ERROR_INVALID_ARGUMENT(2),
  ERROR_NOT_SUPPORTED(3),
  ERROR_NO_PERMISSION(4),
  ERROR_ALREADY_INITIALIZED(5),
  ERROR_NOT_FOUND(6),
  ERROR_INSUFFICIENT_SIZE(7),
  ERROR_INSUFFICIENT_POWER(8),
  ERROR_DRIVER_NOT_LOADED(9),
  ERROR_TIMEOUT(10),
  ERROR_IRQ_ISSUE(11),
  ERROR_LIBRARY_NOT_FOUND(12),
  ERROR_FUNCTION_NOT_FOUND(13),
  ERROR_CORRUPTED_INFOROM(14),
  ERROR_GPU_IS_LOST(15),
  ERROR_RESET_REQUIRED(16),
  ERROR_OPERATING_SYSTEM(17),
  ERROR_LIB_RM_VERSION_MISMATCH(18),
  ERROR_IN_USE(19),
  ERROR_MEMORY(20),
  ERROR_NO_DATA(21),
  ERROR_VGPU_ECC_NOT_SUPPORTED(22),
  ERROR_INSUFFICIENT_RESOURCES(23),
  ERROR_FREQ_NOT_SUPPORTED(24),
  ERROR_ARGUMENT_VERSION_MISMATCH(25),
  ERROR_DEPRECATED(26),
  ERROR_NOT_READY(27),
  ERROR_GPU_NOT_FOUND(28),
  ERROR_INVALID_STATE(29),
  ERROR_RESET_TYPE_NOT_SUPPORTED(30),
  ERROR_UNKNOWN(999),
  /** A number this list does not hold (a newer driver's code). */
  UNRECOGNIZED(-1);

  private final int code;

  NvmlReturn(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /** The header's name, {@code NVML_SUCCESS} or {@code NVML_ERROR_...}. */
  public String headerName() {
    return this == UNRECOGNIZED ? "NVML_ERROR_UNRECOGNIZED" : "NVML_" + name();
  }

  public static NvmlReturn of(int code) {
    for (NvmlReturn r : values()) {
      if (r.code == code && r != UNRECOGNIZED) {
        return r;
      }
    }
    return UNRECOGNIZED;
  }

  /** True for the codes that mean "this machine has no usable NVIDIA GPU or driver", not a bug or a busy card. */
  public boolean meansNoGpu() {
    return switch (this) {
      case ERROR_DRIVER_NOT_LOADED, ERROR_LIBRARY_NOT_FOUND, ERROR_GPU_NOT_FOUND, ERROR_LIB_RM_VERSION_MISMATCH,
           ERROR_NO_PERMISSION, ERROR_GPU_IS_LOST -> true;
      default -> false;
    };
  }
}
