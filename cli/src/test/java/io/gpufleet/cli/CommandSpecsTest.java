package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The command models a call runs (CommandSpecs, written from the annotations) are the ones picocli
 * builds by reading the annotations: the written file is current, and each command's usage text and
 * every option's and positional's properties agree, subcommands included.
 */
class CommandSpecsTest {

  @Test
  void theWrittenFileIsCurrent() throws IOException {
    String generated = CommandSpecsSource.generate();
    if (Boolean.getBoolean("gpufleet.regenerate")) {
      Files.writeString(CommandSpecsSource.FILE, generated, StandardCharsets.UTF_8);
    }
    assertThat(Files.readString(CommandSpecsSource.FILE, StandardCharsets.UTF_8))
        .as("CommandSpecs.java is behind the annotations: rerun this test with -Dgpufleet.regenerate=true")
        .isEqualTo(generated);
  }

  @Test
  void everyCommandsModelIsTheOneItsAnnotationsGive() {
    for (String name : Main.subcommandNames()) {
      if (name.equals("help")) {
        continue;
      }
      CommandSpec written = CommandSpecs.of(Main.newCommand(name));
      assertThat(written).as(name).isNotNull();
      CommandSpec read = new CommandLine(Main.newCommand(name)).getCommandSpec();
      assertSame(name, new CommandLine(written).getCommandSpec(), read);
    }
    assertSame("gpufleet", new CommandLine(CommandSpecs.main(new Main())).getCommandSpec(),
        new CommandLine(new Main()).getCommandSpec());
  }

  @Test
  void aParseSetsTheSameFieldsThroughEitherModel() {
    String[] args = {"-f", "a.yaml", "-f", "b.yaml", "-R", "--strict", "--kubeconfig", "k", "--context", "x",
        "-n", "ns", "-o", "json", "--config", "c.yaml", "--scoring", "MostAllocated",
        "--percentage-of-nodes-to-score", "40", "--seed", "7", "--explain"};
    ScheduleCommand viaWritten = new ScheduleCommand();
    new CommandLine(CommandSpecs.of(viaWritten)).parseArgs(args);
    ScheduleCommand viaRead = new ScheduleCommand();
    new CommandLine(viaRead).parseArgs(args);
    for (ScheduleCommand c : List.of(viaWritten, viaRead)) {
      assertThat(c.input.filenames).containsExactly("a.yaml", "b.yaml");
      assertThat(c.input.recursive).isTrue();
      assertThat(c.input.strict).isTrue();
      assertThat(c.input.cluster.kubeconfig).hasToString("k");
      assertThat(c.input.cluster.context).isEqualTo("x");
      assertThat(c.input.cluster.namespace).isEqualTo("ns");
      assertThat(c.output).isEqualTo("json");
      assertThat(c.config).hasToString("c.yaml");
      assertThat(c.scoring).isEqualTo("MostAllocated");
      assertThat(c.percentage).isEqualTo(40);
      assertThat(c.seed).isEqualTo(7);
      assertThat(c.explain).isTrue();
      assertThat(c.spec).isNotNull();
      assertThat(c.input.mixee).isSameAs(c.spec);
    }
    ScheduleCommand defaults = new ScheduleCommand();
    new CommandLine(CommandSpecs.of(defaults)).parseArgs("-f", "a.yaml");
    assertThat(defaults.output).isEqualTo("wide");
    assertThat(defaults.seed).isEqualTo(1);
    assertThat(defaults.explain).isFalse();
    assertThat(defaults.percentage).isNull();
  }

  private static void assertSame(String name, CommandSpec written, CommandSpec read) {
    assertThat(written.name()).as(name).isEqualTo(read.name());
    assertThat(written.version()).as(name).containsExactly(read.version());
    assertThat(written.commandLine().getUsageMessage(Help.Ansi.OFF)).as(name + " usage")
        .isEqualTo(read.commandLine().getUsageMessage(Help.Ansi.OFF));
    assertThat(written.usageMessage().sortOptions()).as(name).isEqualTo(read.usageMessage().sortOptions());
    assertThat(dump(written.options())).as(name + " options").isEqualTo(dump(read.options()));
    assertThat(dump(written.positionalParameters())).as(name + " positionals")
        .isEqualTo(dump(read.positionalParameters()));
    assertThat(written.subcommands().keySet()).as(name).containsExactlyElementsOf(read.subcommands().keySet());
    for (Map.Entry<String, CommandLine> e : read.subcommands().entrySet()) {
      assertSame(name + " " + e.getKey(), written.subcommands().get(e.getKey()).getCommandSpec(),
          e.getValue().getCommandSpec());
    }
  }

  /** Every property of each argument picocli's parser or help reads, but its binding. */
  private static List<String> dump(List<? extends ArgSpec> args) {
    List<String> out = new ArrayList<>();
    for (ArgSpec a : args) {
      StringBuilder b = new StringBuilder();
      if (a instanceof OptionSpec o) {
        b.append("names=").append(Arrays.toString(o.names())).append(" usageHelp=").append(o.usageHelp())
            .append(" versionHelp=").append(o.versionHelp()).append(" help=").append(o.help())
            .append(" negatable=").append(o.negatable()).append(" order=").append(o.order())
            .append(" fallback=").append(o.fallbackValue());
      }
      if (a instanceof PositionalParamSpec p) {
        b.append("index=").append(p.index());
      }
      b.append(" description=").append(Arrays.toString(a.description()))
          .append(" descriptionKey=").append(a.descriptionKey())
          .append(" paramLabel=").append(a.paramLabel()).append(" arity=").append(a.arity())
          .append(" defaultValue=").append(a.defaultValue()).append(" split=").append(a.splitRegex())
          .append(" type=").append(a.type()).append(" aux=").append(Arrays.toString(a.auxiliaryTypes()))
          .append(" multi=").append(a.isMultiValue()).append(" boolean=").append(a.typeInfo().isBoolean())
          .append(" collection=").append(a.typeInfo().isCollection())
          .append(" hidden=").append(a.hidden()).append(" required=").append(a.required())
          .append(" interactive=").append(a.interactive()).append(" hideParamSyntax=").append(a.hideParamSyntax())
          .append(" showDefault=").append(a.showDefaultValue()).append(" inherited=").append(a.inherited())
          .append(" scope=").append(a.scopeType())
          .append(" hasInitial=").append(a.hasInitialValue()).append(" initial=").append(a.initialValue())
          .append(" converters=").append(a.converters().length)
          .append(" candidates=").append(a.completionCandidates());
      out.add(b.toString());
    }
    return out;
  }
}
