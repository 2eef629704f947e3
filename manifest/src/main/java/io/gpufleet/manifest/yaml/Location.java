package io.gpufleet.manifest.yaml;

import java.util.List;

/** Where something is in a source file: 1-based line and column. */
public record Location(String file, int line, int column) {

  public static Location unknown(String file) {
    return new Location(file, 0, 0);
  }

  /**
   * The order a reader walks {@code a} and {@code b} in: by their file's place in {@code files}, then
   * line, then column. Written out rather than Comparator.comparingInt(..).thenComparingInt(..), whose
   * lambdas inside java.util the AOT cache does not hold, so that no class is made for them at run time.
   */
  public static int compareInFiles(List<String> files, Location a, Location b) {
    int c = Integer.compare(files.indexOf(a.file), files.indexOf(b.file));
    if (c == 0) {
      c = Integer.compare(a.line, b.line);
    }
    return c != 0 ? c : Integer.compare(a.column, b.column);
  }

  /** {@code file:line:column}, the form editors jump to. */
  @Override
  public String toString() {
    return line <= 0 ? file : file + ":" + line + ":" + column;
  }
}
