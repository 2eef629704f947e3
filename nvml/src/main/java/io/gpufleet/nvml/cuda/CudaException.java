package io.gpufleet.nvml.cuda;

/** A CUDA driver call that did not return {@code CUDA_SUCCESS}: its code, and the driver's name and text for it. */
public final class CudaException extends RuntimeException {
  private final int code;

  public CudaException(String function, int code, String name, String text) {
    super(function + " failed: " + name + " (" + code + ")" + (text.isEmpty() ? "" : ": " + text));
    this.code = code;
  }

  public int code() {
    return code;
  }
}
