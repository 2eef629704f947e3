package io.gpufleet.manifest.yaml;

/** One problem with an input file, at a location and a field path. */
public record ManifestProblem(Severity severity, Location location, String path, String message) {

  public enum Severity { ERROR, WARNING }

  public static ManifestProblem error(Location at, String path, String message) {
    return new ManifestProblem(Severity.ERROR, at, path, message);
  }

  public static ManifestProblem warning(Location at, String path, String message) {
    return new ManifestProblem(Severity.WARNING, at, path, message);
  }

  /** {@code cluster.yaml:12:7: spec.replicas: expected an integer, found the string "three"}. */
  @Override
  public String toString() {
    String prefix = severity == Severity.WARNING ? "warning: " : "";
    return location + ": " + prefix + (path == null || path.isEmpty() ? "" : path + ": ") + message;
  }
}
