package io.gpufleet.cli;

import io.gpufleet.report.table.Wrap;
import io.gpufleet.scenario.ScenarioFile;
import io.gpufleet.scenario.ScenarioReader;
import io.gpufleet.scenario.ScenarioSources;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gpufleet lab}: the GPU-sharing mini-lab (3.1 to 3.5) on its built-in cluster, step by step,
 * in virtual time. The scenario is {@code examples/lab/lab.yaml}, packaged into the command.
 */
@Command(name = "lab", mixinStandardHelpOptions = true,
    description = {
        "Plays the GPU-sharing mini-lab, step by step, in virtual time.",
        "Warm the image cache (3.1), time-slice a node to four replicas (3.2),",
        "four pods on one card (3.3), a fifth pod brings a second, unsliced node (3.4), reset (3.5).",
        "Each step prints what it did and what the cluster shows; --report FILE writes the HTML report."})
final class LabCommand implements Callable<Integer> {

  static final String FOLDER = "lab";

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--step", paramLabel = "ID", description = "Stop after this step (3.1 to 3.5).")
  String step;

  @Option(names = "--explain", description = "Add the why of each step's decisions.")
  boolean explain;

  @picocli.CommandLine.Mixin WidthOption width;

  @Option(names = "--report", paramLabel = "FILE",
      description = "Write the HTML report to FILE (default: no report; nothing is written unless asked).")
  Path report;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    ScenarioFile file = ScenarioReader.read("builtin:lab.yaml", builtIn("lab.yaml"),
        ScenarioSources.classpath(LabCommand.class, FOLDER));
    out.println(Wrap.foldAll("gpufleet lab: " + file.description(), width.columns()));
    out.println("(virtual time; the same run every time. Play your own copy: ./gpufleet simulate examples/lab/lab.yaml)");
    out.println();
    ScenarioRun run = ScenarioRun.run(file, Optional.ofNullable(step), explain, err);
    run.printSteps(out, explain, width.columns());
    run.printSummary(out, width.columns());
    if (report != null) {
      out.println("  report          " + run.writeHtml(report, explain));
    }
    out.flush();
    return run.result().allExpectationsPassed() ? ExitCodes.OK : ExitCodes.EXPECTATION_FAILED;
  }

  static String builtIn(String name) throws IOException {
    try (InputStream in = LabCommand.class.getResourceAsStream(FOLDER + "/" + name)) {
      if (in == null) {
        throw new IllegalStateException("the built-in lab is missing from the build: " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
