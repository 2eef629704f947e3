package io.gpufleet.manifest.yaml;

import java.util.List;
import java.util.stream.Collectors;

/** Input that cannot be used, with every error found (each with file, line, column and field). */
public final class ManifestException extends RuntimeException {

  private final List<ManifestProblem> problems;

  public ManifestException(List<ManifestProblem> problems) {
    super(problems.stream().map(ManifestProblem::toString).collect(Collectors.joining("\n")));
    this.problems = List.copyOf(problems);
  }

  public ManifestException(ManifestProblem problem) {
    this(List.of(problem));
  }

  public List<ManifestProblem> problems() {
    return problems;
  }
}
