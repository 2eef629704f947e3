package io.gpufleet.manifest.yaml;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Collects problems while reading, so a user sees every error in a file at once rather than one
 * per run. Not thread-safe; one per read.
 */
public final class Diagnostics {

  private final List<ManifestProblem> problems = new ArrayList<>();
  /** Errors already recorded, so the same one found twice (a field read by two checks) is shown once. */
  private final Set<ManifestProblem> seen = new HashSet<>();
  /** Values of the wrong type: their type error is the one problem there, no check follows it. */
  private final Set<Location> mistyped = new HashSet<>();

  /**
   * An error at {@code at}, unless it repeats one already recorded or follows a type error at the same
   * value (a range or pattern check of the fallback read in place of a value of the wrong type, which
   * the API server would not have reached: one error per problem).
   */
  public void error(Location at, String path, String message) {
    ManifestProblem p = ManifestProblem.error(at, path, message);
    if (!mistyped.contains(at) && seen.add(p)) {
      problems.add(p);
    }
  }

  /** A value of the wrong type ({@code expected an integer, found the string "high"}); see {@link #error}. */
  public void typeError(Location at, String path, String message) {
    error(at, path, message);
    mistyped.add(at);
  }

  public void warning(Location at, String path, String message) {
    problems.add(ManifestProblem.warning(at, path, message));
  }

  public void add(ManifestProblem p) {
    problems.add(p);
  }

  public boolean hasErrors() {
    return problems.stream().anyMatch(p -> p.severity() == ManifestProblem.Severity.ERROR);
  }

  /** Errors in reading order: files as first seen, then by line and column. */
  public List<ManifestProblem> errors() {
    return inFileOrder(ManifestProblem.Severity.ERROR);
  }

  public List<ManifestProblem> warnings() {
    return inFileOrder(ManifestProblem.Severity.WARNING);
  }

  private List<ManifestProblem> inFileOrder(ManifestProblem.Severity severity) {
    List<String> files = problems.stream().map(p -> p.location().file()).distinct().toList();
    Comparator<Location> inFiles = Location.inFiles(files);
    Comparator<ManifestProblem> order = (a, b) -> inFiles.compare(a.location(), b.location());
    return problems.stream().filter(p -> p.severity() == severity).sorted(order).toList();
  }

  /** Throws the collected errors, if any. */
  public void throwIfErrors() {
    if (hasErrors()) {
      throw new ManifestException(errors());
    }
  }
}
