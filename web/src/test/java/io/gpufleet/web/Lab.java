package io.gpufleet.web;

import io.gpufleet.scenario.ScenarioFile;
import io.gpufleet.scenario.ScenarioReader;
import io.gpufleet.scenario.ScenarioSources;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The repository's example scenarios, read as {@code gpufleet simulate} reads them. */
public final class Lab {
  private Lab() {}

  /** The module runs its tests in web/; the examples are beside it. */
  public static Path examples() {
    return Path.of("..", "examples").toAbsolutePath().normalize();
  }

  public static ScenarioFile lab() {
    return scenario("lab/lab.yaml");
  }

  public static ScenarioFile scenario(String relative) {
    Path file = examples().resolve(relative);
    try {
      return ScenarioReader.read(file.toString(), Files.readString(file), ScenarioSources.directory(file.getParent()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
