package io.gpufleet.manifest.yaml;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Collects problems while reading, so a user sees every error in a file at once rather than one
 * per run. Not thread-safe; one per read.
 */
public final class Diagnostics {

  private final List<ManifestProblem> problems = new ArrayList<>();

  public void error(Location at, String path, String message) {
    problems.add(ManifestProblem.error(at, path, message));
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
    Comparator<ManifestProblem> order = (a, b) -> Location.compareInFiles(files, a.location(), b.location());
    return problems.stream().filter(p -> p.severity() == severity).sorted(order).toList();
  }

  /** Throws the collected errors, if any. */
  public void throwIfErrors() {
    if (hasErrors()) {
      throw new ManifestException(errors());
    }
  }
}
