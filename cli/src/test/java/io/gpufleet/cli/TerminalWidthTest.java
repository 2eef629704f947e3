package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.report.table.Wrap;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every line the lab and the text commands print on the examples fits 120 columns by default, and
 * says what {@code --wide} says: the same characters, only laid out over more lines.
 */
class TerminalWidthTest {

  private static final Path EXAMPLES = Path.of("..").toAbsolutePath().normalize().resolve("examples");

  private static List<String> wider(String out) {
    return out.lines().filter(l -> l.length() > Wrap.TERMINAL).toList();
  }

  /** The characters of the text, frames and rules left out (a box or a rule is as wide as its content). */
  private static String content(String out) {
    StringBuilder b = new StringBuilder();
    out.lines().filter(l -> !l.strip().matches("[+=-]*"))
        .forEach(l -> b.append(l.replace("|", "").replaceAll("\\s+", "")));
    char[] c = b.toString().toCharArray();
    Arrays.sort(c);
    return new String(c);
  }

  private static void fitsAndSaysWhatWideSays(String... args) {
    CliRun narrow = CliRun.of(args);
    List<String> wideArgs = new ArrayList<>(List.of(args));
    wideArgs.add("--wide");
    CliRun wide = CliRun.of(wideArgs.toArray(String[]::new));
    assertThat(wider(narrow.out())).as(String.join(" ", args)).isEmpty();
    assertThat(narrow.exitCode()).isEqualTo(wide.exitCode());
    assertThat(content(narrow.out())).as(String.join(" ", args)).isEqualTo(content(wide.out()));
  }

  private static List<Path> yaml(String folder) throws IOException {
    try (Stream<Path> files = Files.list(EXAMPLES.resolve(folder))) {
      return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
    }
  }

  @Test
  void theLabFitsAndItsWideFormIsWider() {
    fitsAndSaysWhatWideSays("lab", "--explain");
    // Before: 112 of the lab's 333 lines were wider than 120 columns, up to 235.
    assertThat(wider(CliRun.of("lab", "--wide").out())).isNotEmpty();
  }

  @Test
  void simulateOnEveryScenarioExampleFits(@TempDir Path dir) throws IOException {
    for (Path f : yaml("scenarios")) {
      if (Files.readString(f).contains("kind: Scenario")) {
        fitsAndSaysWhatWideSays("simulate", f.toString(), "--explain", "--out", dir.resolve(f.getFileName()).toString());
      }
    }
  }

  @Test
  void scheduleAndSmiOnEveryExampleFit() throws IOException {
    for (Path f : yaml("scheduling")) {
      if (!f.getFileName().toString().contains("scheduler")) {
        fitsAndSaysWhatWideSays("schedule", "-f", f.toString(), "--explain");
      }
    }
    for (Path f : yaml("gpu")) {
      fitsAndSaysWhatWideSays("smi", "-f", f.toString());
    }
  }

  @Test
  void adviseOnEveryExampleFits() throws IOException {
    for (Path f : yaml("advise")) {
      fitsAndSaysWhatWideSays("advise", "-f", f.toString());
    }
  }
}
