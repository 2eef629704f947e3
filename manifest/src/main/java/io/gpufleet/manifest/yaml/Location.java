package io.gpufleet.manifest.yaml;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Where something is in a source file: 1-based line and column. */
public record Location(String file, int line, int column) {

  public static Location unknown(String file) {
    return new Location(file, 0, 0);
  }

  /**
   * The order a reader walks locations in: by their file's place in {@code files} (its first; a file
   * not there before all others), then line, then column. Each file's place is looked up once, here:
   * found by a scan of {@code files} per comparison, sorting the findings of a directory of 12,000
   * small files compared each with the 12,000 names about 14 times. A class rather than
   * Comparator.comparingInt(..).thenComparingInt(..), whose lambdas inside java.util the AOT cache
   * does not hold, so that no class is made for them at run time.
   */
  public static Comparator<Location> inFiles(List<String> files) {
    return new FileOrder(files);
  }

  /** See {@link #inFiles}. */
  private static final class FileOrder implements Comparator<Location> {
    private final Map<String, Integer> places;

    FileOrder(List<String> files) {
      places = new HashMap<>();
      for (int i = files.size() - 1; i >= 0; i--) {
        places.put(files.get(i), i);
      }
    }

    @Override
    public int compare(Location a, Location b) {
      int c = Integer.compare(places.getOrDefault(a.file, -1), places.getOrDefault(b.file, -1));
      if (c == 0) {
        c = Integer.compare(a.line, b.line);
      }
      return c != 0 ? c : Integer.compare(a.column, b.column);
    }
  }

  /** {@code file:line:column}, the form editors jump to. */
  @Override
  public String toString() {
    return line <= 0 ? file : file + ":" + line + ":" + column;
  }
}
