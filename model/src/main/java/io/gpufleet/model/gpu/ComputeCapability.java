package io.gpufleet.model.gpu;

/**
 * A CUDA compute capability such as 8.6, and the architecture family GPU Feature Discovery derives
 * from it for {@code nvidia.com/gpu.family}.
 */
public record ComputeCapability(int major, int minor) {

  public ComputeCapability {
    if (major < 0 || minor < 0) {
      throw new IllegalArgumentException("compute capability must be non-negative: " + major + "." + minor);
    }
  }

  /** {@code "8.6"} → 8.6. */
  public static ComputeCapability parse(String text) {
    int dot = text.indexOf('.');
    if (dot < 1 || dot == text.length() - 1) {
      throw new IllegalArgumentException("expected a compute capability such as 8.6, found \"" + text + "\"");
    }
    return new ComputeCapability(Integer.parseInt(text.substring(0, dot)), Integer.parseInt(text.substring(dot + 1)));
  }

  /**
   * GFD's family name. 7.0–7.4 volta, 7.5 turing, 8.0–8.8 ampere, 8.9 ada-lovelace, 9.x hopper,
   * 10.x and 12.x blackwell, 13.x rubin (k8s-gpu-semantics §3, from GFD {@code internal/lm}). Pascal
   * (6.x), Maxwell (5.x) and Kepler (3.x) are GFD's names for the older majors; anything else is
   * {@code undefined}, as GFD prints it.
   */
  public String family() {
    return switch (major) {
      case 3 -> "kepler";
      case 5 -> "maxwell";
      case 6 -> "pascal";
      case 7 -> minor < 5 ? "volta" : "turing";
      case 8 -> minor < 9 ? "ampere" : "ada-lovelace";
      case 9 -> "hopper";
      case 10, 12 -> "blackwell";
      case 13 -> "rubin";
      default -> "undefined";
    };
  }

  @Override
  public String toString() {
    return major + "." + minor;
  }
}
