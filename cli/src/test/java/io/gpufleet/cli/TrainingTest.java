package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The AOT cache's training run covers every command it names with an example that exists and runs. */
class TrainingTest {

  private static final Path REPO = Path.of("..").toAbsolutePath().normalize();

  @TempDir Path out;

  @Test
  void everyTrainingCommandNamesExistingExamplesAndSucceeds() {
    List<List<String>> commands = Training.commands(REPO, out);
    assertThat(commands.stream().map(List::getFirst))
        .contains("schedule", "smi", "node", "lint", "advise", "simulate", "replay");
    for (List<String> c : commands) {
      for (String arg : c) {
        if (arg.contains("/examples/")) {
          assertThat(Files.isRegularFile(Path.of(arg))).as("%s in %s", arg, c).isTrue();
        }
      }
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int code = Main.run(ByteArrayOutputStream.nullOutputStream(), err, c.toArray(String[]::new));
      // lint exits 1 on the example's finding; everything else succeeds.
      assertThat(code).as("%s: %s", c, err).isIn(0, c.getFirst().equals("lint") ? 1 : 0);
    }
  }
}
