package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

  /**
   * The launcher gives a cache of its own to each command it names; a command without training
   * calls would get a cache holding none of its classes, so each must have some.
   */
  @Test
  void everyCommandWithACacheOfItsOwnHasTrainingCalls() throws IOException {
    String launcher = Files.readString(REPO.resolve("gpufleet"));
    Matcher m = Pattern.compile("\\n\\s*([a-z| -]+)\\) trained=\"\\$1\"").matcher(launcher);
    assertThat(m.find()).as("the launcher's list of commands with a cache of their own").isTrue();
    List<String> named = Arrays.stream(m.group(1).split("\\|")).map(String::strip).toList();
    assertThat(named).contains("schedule", "simulate");
    List<List<String>> all = Training.commands(REPO, out);
    for (String command : named) {
      List<List<String>> first = all.stream().filter(c -> c.getFirst().equals(command)).limit(1).toList();
      assertThat(first).as(command).hasSize(1);
      assertThat(Training.only(command, all)).as(command).isEqualTo(first);
    }
    // schedule's own cache is trained on the table of its smallest example, not on its help.
    assertThat(Training.only("schedule", all).getFirst()).contains("-f").doesNotContain("--help", "json");
    assertThatThrownBy(() -> Training.only("serve", all)).hasMessageContaining("serve");
  }
}
