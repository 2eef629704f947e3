package io.gpufleet.lint;

import io.gpufleet.manifest.ManifestSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rule examples under {@code examples/lint/<rule>/}: {@code trigger.yaml} marks each line a
 * finding must point at with {@code # expect: RULE OBJECT FIELD}; {@code clean.yaml}, and any
 * {@code clean-*.yaml} beside it (a case the rule must leave alone), must give none.
 */
final class Examples {
  private Examples() {}

  static final Path ROOT = Path.of("..", "examples", "lint");

  private static final Pattern EXPECT = Pattern.compile("expect:\\s*(\\S+)\\s+(\\S+)\\s+(\\S+)");

  /** One expected finding: rule, object, field and the 1-based line and the columns it may start at. */
  record Expected(String rule, String object, String field, int line, List<Integer> columns) {}

  static Path trigger(String rule) {
    return ROOT.resolve(rule).resolve("trigger.yaml");
  }

  static Path clean(String rule) {
    return ROOT.resolve(rule).resolve("clean.yaml");
  }

  /** {@code clean.yaml} and the {@code clean-*.yaml} files beside it, in name order. */
  static List<Path> cleans(String rule) {
    try (var files = Files.list(ROOT.resolve(rule))) {
      return files.filter(f -> f.getFileName().toString().matches("clean(-[a-z0-9-]+)?\\.yaml")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static ManifestSource source(Path file) {
    try {
      return new ManifestSource(file.toString(), Files.readString(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static LintInput read(Path file) {
    return LintInput.read(List.of(source(file)));
  }

  /**
   * The markers of a file. A finding points at a key (a mapping or list written under it, or a
   * missing field's nearest written parent) or at a scalar value, so on the marked line its column
   * is where the line's key starts or where the value after the first {@code ": "} starts.
   */
  static List<Expected> expected(Path file) {
    List<Expected> out = new ArrayList<>();
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      int hash = line.indexOf("# expect:");
      if (hash < 0) {
        continue;
      }
      Matcher m = EXPECT.matcher(line.substring(hash));
      if (!m.find()) {
        throw new IllegalStateException(file + ":" + (i + 1) + ": malformed marker");
      }
      String body = line.substring(0, hash);
      int key = 0;
      while (key < body.length() && (body.charAt(key) == ' ' || body.charAt(key) == '-')) {
        key++;
      }
      List<Integer> columns = new ArrayList<>(List.of(key + 1));
      int colon = body.indexOf(": ");
      if (colon >= 0 && !body.substring(colon + 2).isBlank()) {
        columns.add(colon + 3);
      }
      out.add(new Expected(m.group(1), m.group(2), m.group(3), i + 1, columns));
    }
    return out;
  }
}
