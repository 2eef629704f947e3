package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@link Main#startUp} tells picocli not to register its java.sql and java.time converters
 * ({@link Main#UNUSED_CONVERTERS}); that is safe only while no option or positional of any command
 * has such a type, and it must really leave those converters out while keeping the ones gpufleet uses.
 */
class PicocliConvertersTest {

  @Test
  void noOptionOrPositionalOfAnyCommandHasATypeWhoseConverterIsLeftOut() {
    List<String> checked = new ArrayList<>();
    walk(Main.commandLine().getCommandSpec(), checked);
    assertThat(checked).as("types of every option and positional").hasSizeGreaterThan(100)
        .contains("java.nio.file.Path", "java.lang.String", "long", "boolean")
        .noneMatch(type -> type.matches(Main.UNUSED_CONVERTERS));
  }

  private static void walk(CommandSpec spec, List<String> types) {
    for (ArgSpec arg : spec.args()) {
      types.add(arg.type().getName());
      for (Class<?> aux : arg.auxiliaryTypes()) {
        types.add(aux.getName());
      }
    }
    spec.subcommands().values().forEach(sub -> walk(sub.getCommandSpec(), types));
  }

  @Command(name = "probe")
  static final class Timed {
    @Option(names = "--wait") Duration wait;
    @Option(names = "--file") Path file;
  }

  @Test
  void theSettingLeavesOutJavaTimeConvertersAndKeepsPath() {
    String before = System.getProperty("picocli.converters.excludes");
    try {
      Timed plain = new Timed();
      new CommandLine(plain).parseArgs("--wait", "PT5S", "--file", "a.yaml");
      assertThat(plain.wait).isEqualTo(Duration.ofSeconds(5));

      System.setProperty("picocli.converters.excludes", Main.UNUSED_CONVERTERS);
      Timed excluded = new Timed();
      new CommandLine(excluded).parseArgs("--file", "a.yaml");
      assertThat(excluded.file).isEqualTo(Path.of("a.yaml"));
      assertThatThrownBy(() -> new CommandLine(new Timed()).parseArgs("--wait", "PT5S"))
          .isInstanceOf(CommandLine.ParameterException.class)
          .hasMessageContaining("java.time.Duration");
    } finally {
      if (before == null) {
        System.clearProperty("picocli.converters.excludes");
      } else {
        System.setProperty("picocli.converters.excludes", before);
      }
    }
  }
}
