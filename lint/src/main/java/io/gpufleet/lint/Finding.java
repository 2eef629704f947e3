package io.gpufleet.lint;

import io.gpufleet.manifest.yaml.Location;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * One rule's verdict on one object: the field at fault ({@code spec.template.spec.tolerations})
 * and where it is written (its nearest written parent when the fault is that it is missing), what
 * is wrong here, why that hurts, and the fix.
 */
public record Finding(String rule, Severity severity, ObjectRef object, String field, Location location,
    String message, String why, String fix) {

  /**
   * Files as given, then line, column, rule: the order a reader walks the files in. Written out
   * rather than Comparator.comparingInt(..).thenComparing(..), whose lambdas inside java.util the AOT
   * cache does not hold, so that {@code lint} makes no classes for them at run time.
   */
  public static Comparator<Finding> order(List<String> files) {
    Comparator<Location> inFiles = Location.inFiles(files);
    return (a, b) -> {
      int c = inFiles.compare(a.location(), b.location());
      if (c == 0) {
        c = a.rule().compareTo(b.rule());
      }
      if (c == 0) {
        c = a.object().compareTo(b.object());
      }
      return c != 0 ? c : a.message().compareTo(b.message());
    };
  }

  public Finding {
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(object, "object");
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(location, "location");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(why, "why");
    Objects.requireNonNull(fix, "fix");
  }
}
