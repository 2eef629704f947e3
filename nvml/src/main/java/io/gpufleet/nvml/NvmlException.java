package io.gpufleet.nvml;

/**
 * An NVML call that did not return {@code NVML_SUCCESS}: the function, the code's number and header
 * name, and the driver's own text for it ({@code nvmlErrorString}).
 */
public final class NvmlException extends RuntimeException {
  private final String function;
  private final int code;
  private final NvmlReturn result;

  public NvmlException(String function, int code, String driverText) {
    super(function + " failed: " + NvmlReturn.of(code).headerName() + " (" + code + ")"
        + (driverText.isEmpty() ? "" : ": " + driverText));
    this.function = function;
    this.code = code;
    this.result = NvmlReturn.of(code);
  }

  public String function() {
    return function;
  }

  public int code() {
    return code;
  }

  public NvmlReturn result() {
    return result;
  }
}
