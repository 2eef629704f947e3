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

  /** Files as given, then line, column, rule: the order a reader walks the files in. */
  public static Comparator<Finding> order(List<String> files) {
    return Comparator.comparingInt((Finding f) -> files.indexOf(f.location().file()))
        .thenComparingInt(f -> f.location().line())
        .thenComparingInt(f -> f.location().column())
        .thenComparing(Finding::rule)
        .thenComparing(Finding::object)
        .thenComparing(Finding::message);
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
