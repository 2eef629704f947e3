package io.gpufleet.scenario;

import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.ManifestProblem;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import io.gpufleet.manifest.ManifestInput;

/**
 * Where a scenario's referenced files come from: beside the scenario file on disk, or, for the
 * built-in lab, from the classpath. Paths are as the scenario writes them, relative to it.
 */
public interface ScenarioSources {

  /** The text of a file named relative to the scenario; {@code at} is where the scenario names it. */
  String read(String path, Location at);

  /** How the file is named in messages (the path a user can open). */
  String name(String path);

  /**
   * The files a {@code file:} path stands for: itself, or, for a directory, its manifest files as
   * {@code kubectl -f DIR} reads them ({@code recursive}: with {@code -R}). Only a directory on disk
   * expands; {@code at} is where the scenario names it.
   */
  default List<String> expand(String path, boolean recursive, Location at) {
    return List.of(path);
  }

  /** Files relative to a directory on disk. */
  static ScenarioSources directory(Path dir) {
    return new ScenarioSources() {
      @Override
      public String read(String path, Location at) {
        Path p = dir.resolve(path);
        if (Files.isDirectory(p)) {
          throw new ManifestException(ManifestProblem.error(at, "file", p + " is a directory"));
        }
        try {
          // UTF-8 strictly, with the operating system's reason, as every -f file is read.
          return ManifestInput.read(p).text();
        } catch (ManifestException e) {
          String why = e.problems().getFirst().message();
          throw new ManifestException(ManifestProblem.error(at, "file", why.equals("no such file or directory")
              ? "no such file: " + p : "cannot read " + p + ": " + why));
        }
      }

      @Override
      public String name(String path) {
        return dir.resolve(path).normalize().toString();
      }

      @Override
      public List<String> expand(String path, boolean recursive, Location at) {
        Path p = dir.resolve(path);
        if (!Files.isDirectory(p)) {
          return List.of(path);
        }
        List<Path> files;
        try {
          files = ManifestInput.filesIn(p, recursive);
        } catch (ManifestException e) {
          throw new ManifestException(ManifestProblem.error(at, "file", p + ": " + e.problems().getFirst().message()));
        }
        if (files.isEmpty()) {
          throw new ManifestException(ManifestProblem.error(at, "file", "the directory " + p
              + " holds no .json, .yaml or .yml file" + (recursive ? "" : " (add recursive: true to read its subdirectories)")));
        }
        return files.stream().map(f -> dir.relativize(f).toString()).toList();
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
