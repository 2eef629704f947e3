package io.gpufleet.cli;

import io.gpufleet.scenario.ScenarioFile;
import io.gpufleet.scenario.ScenarioReader;
import io.gpufleet.scenario.ScenarioSources;
import io.gpufleet.manifest.yaml.ManifestProblem;
import java.io.PrintWriter;
import io.gpufleet.manifest.yaml.GoDuration;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code gpufleet simulate scenario.yaml}: runs any scenario and writes its results. */
@Command(name = "simulate", mixinStandardHelpOptions = true,
    description = {
        "Runs a scenario in virtual time and reports what happened, what it cost, and every expectation.",
        "A scenario (gpufleet.io/v1alpha1 Scenario) holds real Kubernetes, Karpenter and device-plugin",
        "manifests plus a timeline of steps) in virtual time. Prints each step and a summary, and writes",
        "result.json, timeseries.csv, pods.csv, report.html and events.jsonl. Exit code 1 when an expectation fails."})
final class SimulateCommand implements Callable<Integer> {

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", arity = "0..1", paramLabel = "SCENARIO",
      description = "The scenario file; or give the cluster's manifests with -f or --kubeconfig instead.")
  Path file;

  @picocli.CommandLine.Mixin ManifestInputOptions input;

  @Option(names = "--for", paramLabel = "DURATION", defaultValue = "1m",
      description = "With -f or --kubeconfig: how long the cluster runs with no changes (default ${DEFAULT-VALUE}).")
  String runFor;

  @Option(names = "--out", paramLabel = "DIR",
      description = "Where results go (default: out/<scenario name>).")
  Path outDir;

  @Option(names = "--step", paramLabel = "ID", description = "Stop after the step with this id.")
  String step;

  @Option(names = "--explain", description = "Add each step's explanation, and the disruption controller's decisions: "
      + "each node it considered, the one it chose and why it left each other.")
  boolean explain;

  @Option(names = {"-q", "--quiet"}, description = "Print only the summary, not each step.")
  boolean quiet;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    ScenarioFile scenario = scenario(file, input, runFor);
    for (ManifestProblem w : scenario.warnings()) {
      err.println(w);
    }
    ScenarioRun run = ScenarioRun.run(scenario, Optional.ofNullable(step), err);
    if (!quiet) {
      run.printSteps(out, explain);
      if (run.showedDevices()) {
        out.println("note: " + io.gpufleet.report.smi.SmiView.DEVICE_IDS_NOTE);
        out.println();
      }
    }
    run.printSummary(out);
    Path target = outDir != null ? outDir : Path.of("out", OutputFiles.safeName(scenario.scenario().name(), "the scenario name"));
    List<Path> written = run.writeAll(target, explain);
    out.println("  wrote           " + String.join(", ", written.stream().map(Path::toString).toList()));
    out.flush();
    return run.result().allExpectationsPassed() ? ExitCodes.OK : ExitCodes.EXPECTATION_FAILED;
  }

  /**
   * The scenario file, or the manifests (files, a live cluster) run for --for with no changes; also
   * what {@code serve} shows.
   */
  static ScenarioFile scenario(Path file, ManifestInputOptions input, String runFor) {
    boolean manifests = input.given();
    if (file != null && manifests) {
      throw new UserError("give a SCENARIO file or manifests (-f, --kubeconfig), not both");
    }
    if (file != null) {
      Path dir = file.toAbsolutePath().getParent();
      return ScenarioReader.read(file.toString(), Cli.readFile(file), ScenarioSources.directory(dir), input.strict);
    }
    if (!manifests) {
      throw new UserError("give a SCENARIO file, or the cluster's manifests with -f FILE or --kubeconfig FILE");
    }
    Duration d = GoDuration.parse(runFor);
    if (d == null || d.isNegative() || d.isZero()) {
      throw new UserError("--for: expected a duration such as 30s, 1m or 1h30m, found \"" + runFor + "\"");
    }
    return ManifestScenario.of("manifests", input.sources(), d, input.strict);
  }
}
