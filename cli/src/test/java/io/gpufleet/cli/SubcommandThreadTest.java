package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.concurrent.FutureTask;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * A call that names a subcommand has that subcommand's command line built on a thread of its own
 * ({@link Main#commandLine(List)}), which also reads its initial values there; it must be the one
 * the whole tree holds, and a failure to build it must reach the caller as itself.
 */
class SubcommandThreadTest {

  @Test
  void eachNamedSubcommandIsBuiltAsTheWholeTreeBuildsIt() {
    Map<String, CommandLine> tree = Main.commandLine().getSubcommands();
    assertThat(tree).hasSizeGreaterThan(10);
    for (String name : tree.keySet()) {
      if (name.equals("help")) {
        continue;
      }
      CommandLine alone = Main.commandLine(List.of(name, "--help"));
      assertThat(alone.getSubcommands()).as(name).containsOnlyKeys(name);
      CommandLine built = alone.getSubcommands().get(name);
      CommandLine expected = tree.get(name);
      assertThat(built.getParent()).as(name).isSameAs(alone);
      assertThat(built.getCommandSpec().qualifiedName()).isEqualTo(expected.getCommandSpec().qualifiedName());
      assertThat(built.getUsageMessage()).as(name).isEqualTo(expected.getUsageMessage());
      assertThat(built.getCommandSpec().optionsMap().keySet())
          .as(name).isEqualTo(expected.getCommandSpec().optionsMap().keySet());
      assertThat(built.getSubcommands().keySet()).as(name).isEqualTo(expected.getSubcommands().keySet());
    }
  }

  @Test
  void theInitialValuesAreTheFieldsAsBuiltNotAsTheyAreWhenTheParseBegins() {
    CommandLine cl = Main.commandLine(List.of("schedule"));
    ScheduleCommand schedule = cl.getSubcommands().get("schedule").getCommand();
    assertThat(schedule.scoring).isNull();
    schedule.scoring = "MostAllocated";
    cl.parseArgs("schedule", "-f", "cluster.yaml");
    assertThat(schedule.scoring).as("reset to the value read when it was built").isNull();
    assertThat(schedule.input.filenames).containsExactly("cluster.yaml");
  }

  @Test
  void aFailureToBuildTheSubcommandIsThrownAsItself() {
    CommandLine.InitializationException broken = new CommandLine.InitializationException("no @Command");
    FutureTask<CommandLine> task = new FutureTask<>(() -> {
      throw broken;
    });
    task.run();
    assertThatThrownBy(() -> Main.finished(task)).isSameAs(broken);

    StackOverflowError error = new StackOverflowError();
    FutureTask<CommandLine> failing = new FutureTask<>(() -> {
      throw error;
    });
    failing.run();
    assertThatThrownBy(() -> Main.finished(failing)).isSameAs(error);
  }
}
