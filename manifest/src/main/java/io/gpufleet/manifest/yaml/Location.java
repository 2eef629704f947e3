package io.gpufleet.manifest.yaml;

/** Where something is in a source file: 1-based line and column. */
public record Location(String file, int line, int column) {

  public static Location unknown(String file) {
    return new Location(file, 0, 0);
  }

  /** {@code file:line:column}, the form editors jump to. */
  @Override
  public String toString() {
    return line <= 0 ? file : file + ":" + line + ":" + column;
  }
}
