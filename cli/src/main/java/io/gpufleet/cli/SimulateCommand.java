package io.gpufleet.cli;

import io.gpufleet.manifest.yaml.GoDuration;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.report.sim.RunComparison;
import io.gpufleet.report.smi.SmiView;
import io.gpufleet.report.table.Wrap;
import io.gpufleet.scenario.ScenarioFile;
import io.gpufleet.scenario.ScenarioReader;
import io.gpufleet.scenario.ScenarioSources;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code gpufleet simulate scenario.yaml...}: runs scenarios, under one or several seeds, and writes their results. */
@Command(name = "simulate", mixinStandardHelpOptions = true,
    description = {
        "Runs a scenario in virtual time and reports what happened, what it cost, and every expectation.",
        "A scenario (gpufleet.io/v1alpha1 Scenario) holds real Kubernetes, Karpenter and device-plugin",
        "manifests plus a timeline of steps) in virtual time. Prints each step and a summary, and writes",
        "result.json, timeseries.csv, pods.csv, report.html and events.jsonl. Exit code 1 when an expectation fails.",
        "Several SCENARIO files and --seeds make a batch: its runs go on --threads threads, and each prints",
        "and writes exactly what it would alone, in the order given (files, then seeds)."})
final class SimulateCommand implements Callable<Integer> {

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(arity = "0..*", paramLabel = "SCENARIO",
      description = "The scenario files; or give the cluster's manifests with -f or --kubeconfig instead.")
  List<Path> files;

  @picocli.CommandLine.Mixin ManifestInputOptions input;

  @picocli.CommandLine.Mixin WidthOption width;

  @Option(names = "--for", paramLabel = "DURATION", defaultValue = "1m",
      description = "With -f or --kubeconfig: how long the cluster runs with no changes (default ${DEFAULT-VALUE}).")
  String runFor;

  @Option(names = "--out", paramLabel = "DIR",
      description = "Where results go (default: out/<scenario name>; a batch writes <scenario name>/ under DIR "
          + "(default out) when it has several scenarios, and seed-<n>/ under that with --seeds).")
  Path outDir;

  @Option(names = "--seeds", paramLabel = "<a..b>",
      description = "Run each scenario under these seeds instead of its own, as a..b or a,b,c.")
  String seeds;

  @Option(names = "--threads", paramLabel = "<n>",
      description = "Worker threads of a batch (default: all cores); the output does not depend on it.")
  Integer threads;

  @Option(names = "--step", paramLabel = "ID", description = "Stop after the step with this id.")
  String step;

  @Option(names = "--explain", description = "Add each step's explanation, and the disruption controller's decisions: "
      + "each node it considered, the one it chose and why it left each other.")
  boolean explain;

  @Option(names = {"-q", "--quiet"}, description = "Print only the summary, not each step.")
  boolean quiet;

  /** One run of a batch: a scenario (its seed set) and where its files go. */
  private record Job(ScenarioFile scenario, Path target) {}

  /** What one run printed and how it ended. */
  private record Printed(String out, String err, int exitCode) {}

  @Option(names = "--compare", paramLabel = "OTHER",
      description = "Also run the scenario file OTHER (its summary only; its files are not written) and print the "
          + "two runs side by side: made for the same workloads through the device plugin and through DRA.")
  Path compare;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    List<Job> jobs = jobs();
    if (jobs.size() == 1 && seeds == null) {
      Job only = jobs.getFirst();
      return run(only, out, err, TerminalProgress.forTerminal(err));
    }
    int workers = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(workers, jobs.size()), r -> {
      Thread t = new Thread(r, "simulate");
      t.setDaemon(true);
      return t;
    });
    long start = System.nanoTime();
    int exit = ExitCodes.OK;
    List<String> failed = new ArrayList<>();
    try (TerminalProgress bar = TerminalProgress.forTerminal(err)) {
      List<Future<Printed>> runs = new ArrayList<>();
      for (Job job : jobs) {
        runs.add(pool.submit(() -> {
          StringWriter o = new StringWriter();
          StringWriter e = new StringWriter();
          int code = run(job, new PrintWriter(o), new PrintWriter(e), TerminalProgress.off(err));
          return new Printed(o.toString(), e.toString(), code);
        }));
      }
      // In the order given, each as soon as it and those before it are done.
      for (int i = 0; i < runs.size(); i++) {
        Printed p = result(runs.get(i));
        bar.close();
        err.print(p.err());
        err.flush();
        out.print(p.out());
        out.flush();
        if (p.exitCode() != ExitCodes.OK) {
          exit = ExitCodes.EXPECTATION_FAILED;
          failed.add(jobs.get(i).target().toString());
        }
        bar.update(i + 1, runs.size(), "run " + (i + 1) + "/" + runs.size());
      }
    } finally {
      pool.shutdownNow();
    }
    // Wall time and threads differ from machine to machine: stderr, so stdout stays the runs' own bytes.
    int used = Math.min(workers, jobs.size());
    err.printf(Locale.ROOT, "simulate: %d runs on %d %s in %.1f s of wall-clock time; %s%n", jobs.size(),
        used, used == 1 ? "thread" : "threads", (System.nanoTime() - start) / 1e9,
        failed.isEmpty() ? "every expectation passed" : "expectations failed in " + String.join(", ", failed));
    err.flush();
    return exit;
  }

  /** A run's printed result; a user error of the run (an unknown --step) is the command's. */
  private static Printed result(Future<Printed> run) throws InterruptedException {
    try {
      return run.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /** Every run, read and checked before any starts: scenarios in the order given, then seeds. */
  private List<Job> jobs() {
    if (threads != null && threads < 1) {
      throw new UserError("--threads must be at least 1, got " + threads);
    }
    if (compare != null && (seeds != null || (files != null && files.size() > 1))) {
      throw new UserError("--compare compares one run with another: give one SCENARIO file and no --seeds");
    }
    List<Long> seedList = null;
    if (seeds != null) {
      try {
        seedList = ReplayCommand.Openb.seedsOf(seeds);
      } catch (ReplayCommand.UsageProblem e) {
        throw new UserError("--seeds: " + e.getMessage());
      }
    }
    List<Path> given = files == null ? List.of() : files;
    List<ScenarioFile> scenarios = new ArrayList<>();
    if (given.isEmpty()) {
      scenarios.add(scenario(null, input, runFor));
    }
    for (Path f : given) {
      scenarios.add(scenario(f, input, runFor));
    }
    boolean several = scenarios.size() > 1;
    Path base = outDir != null ? outDir : several ? Path.of("out") : null;
    List<Job> jobs = new ArrayList<>();
    Map<Path, String> owners = new HashMap<>();
    for (int i = 0; i < scenarios.size(); i++) {
      ScenarioFile s = scenarios.get(i);
      String name = OutputFiles.safeName(s.scenario().name(), "the scenario name");
      Path dir = base == null ? Path.of("out", name) : several ? base.resolve(name) : base;
      String source = given.isEmpty() ? "the manifests" : given.get(i).toString();
      String earlier = owners.putIfAbsent(dir, source);
      if (earlier != null) {
        throw new UserError(earlier + " and " + source + " are both named \"" + s.scenario().name()
            + "\"; their results would share " + dir);
      }
      if (seedList == null) {
        jobs.add(new Job(s, dir));
      } else {
        for (long seed : seedList) {
          jobs.add(new Job(s.withSeed(seed), dir.resolve("seed-" + seed)));
        }
      }
    }
    return jobs;
  }

  /** One run: prints what a single {@code simulate} prints and writes its files; returns its exit code. */
  private int run(Job job, PrintWriter out, PrintWriter err, TerminalProgress progress) {
    ScenarioFile scenario = job.scenario();
    for (ManifestProblem w : scenario.warnings()) {
      err.println(w);
    }
    ScenarioRun run = ScenarioRun.run(scenario, Optional.ofNullable(step), explain, progress);
    if (!quiet) {
      run.printSteps(out, explain, width.columns());
      if (run.showedDevices()) {
        out.println(Wrap.foldAll("note: " + SmiView.DEVICE_IDS_NOTE, width.columns()));
        out.println();
      }
    }
    run.printSummary(out, width.columns());
    List<Path> written = run.writeAll(job.target(), explain);
    out.println(Wrap.foldAll("  wrote           " + String.join(", ", written.stream().map(Path::toString).toList()),
        width.columns()));
    boolean passed = run.result().allExpectationsPassed();
    if (compare != null) {
      ScenarioFile otherFile = scenarioFile(compare, input.strict);
      for (ManifestProblem w : otherFile.warnings()) {
        err.println(w);
      }
      ScenarioRun other = ScenarioRun.run(otherFile, Optional.empty(), false, err);
      out.println();
      other.printSummary(out, width.columns());
      out.println();
      out.println("COMPARISON");
      out.print(RunComparison.render(run.result(), other.result(), width.wide ? Wrap.UNLIMITED : Wrap.TERMINAL - 2).indent(2));
      passed &= other.result().allExpectationsPassed();
    }
    out.flush();
    err.flush();
    return passed ? ExitCodes.OK : ExitCodes.EXPECTATION_FAILED;
  }

  /** A scenario file, its relative paths resolved from its own folder. */
  static ScenarioFile scenarioFile(Path file, boolean strict) {
    Path dir = file.toAbsolutePath().getParent();
    return ScenarioReader.read(file.toString(), Cli.readFile(file), ScenarioSources.directory(dir), strict);
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
      if (input.gpuCatalog != null) {
        // Not silently ignored: a scenario names its own GPU catalogue, as it names its instance catalogue.
        throw new UserError("--gpu-catalog applies to manifests (-f, --kubeconfig); a SCENARIO file names its GPU "
            + "catalogue with spec.gpuCatalog");
      }
      if (input.admissionChanged()) {
        throw new UserError("--enable-admission-plugins and --disable-admission-plugins apply to manifests (-f, "
            + "--kubeconfig); a SCENARIO file names its admission plugins with spec.apiServer");
      }
      return scenarioFile(file, input.strict);
    }
    if (!manifests) {
      throw new UserError("give a SCENARIO file, or the cluster's manifests with -f FILE or --kubeconfig FILE");
    }
    Duration d = GoDuration.parse(runFor);
    if (d == null || d.isNegative() || d.isZero()) {
      throw new UserError("--for: expected a duration such as 30s, 1m or 1h30m, found \"" + runFor + "\"");
    }
    input.admissionPlugins(); // names checked here, with the options' words
    return ManifestScenario.of("manifests", input.sources(), input.gpuCatalogSource(), input.enableAdmission,
        input.disableAdmission, d, input.strict);
  }
}
