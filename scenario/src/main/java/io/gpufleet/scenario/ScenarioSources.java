package io.gpufleet.scenario;

import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.ManifestProblem;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Where a scenario's referenced files come from: beside the scenario file on disk, or, for the
 * built-in lab, from the classpath. Paths are as the scenario writes them, relative to it.
 */
public interface ScenarioSources {

  /** The text of a file named relative to the scenario; {@code at} is where the scenario names it. */
  String read(String path, Location at);

  /** How the file is named in messages (the path a user can open). */
  String name(String path);

  /** Files relative to a directory on disk. */
  static ScenarioSources directory(Path dir) {
    return new ScenarioSources() {
      @Override
      public String read(String path, Location at) {
        Path p = dir.resolve(path);
        try {
          return Files.readString(p);
        } catch (NoSuchFileException e) {
          throw new ManifestException(ManifestProblem.error(at, "file", "no such file: " + p));
        } catch (IOException e) {
          throw new ManifestException(ManifestProblem.error(at, "file", "cannot read " + p + ": " + e.getMessage()));
        }
      }

      @Override
      public String name(String path) {
        return dir.resolve(path).normalize().toString();
      }
    };
  }

  /** Files packaged beside a class (the built-in scenarios). */
  static ScenarioSources classpath(Class<?> anchor, String folder) {
    return new ScenarioSources() {
      @Override
      public String read(String path, Location at) {
        try (InputStream in = anchor.getResourceAsStream(folder + "/" + path)) {
          if (in == null) {
            throw new ManifestException(ManifestProblem.error(at, "file", "no built-in file " + path));
          }
          return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
          throw new ManifestException(ManifestProblem.error(at, "file", "cannot read built-in " + path));
        }
      }

      @Override
      public String name(String path) {
        return "builtin:" + path;
      }
    };
  }
}
