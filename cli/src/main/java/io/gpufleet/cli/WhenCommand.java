package io.gpufleet.cli;

import io.gpufleet.manifest.ManifestBundle;
import io.gpufleet.manifest.ManifestReader;
import io.gpufleet.manifest.ManifestSource;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.model.time.GoDuration;
import io.gpufleet.report.when.ForecastView;
import io.gpufleet.scenario.ScenarioFile;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.forecast.JobForecast;
import io.gpufleet.sim.forecast.JobRun;
import io.gpufleet.sim.forecast.JobSpec;
import io.gpufleet.web.server.Forecaster;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gpufleet when JOB -f CLUSTER}: the cluster as it is, the job added, played forward under
 * several seeds; when the job is running and done, where, at what cost, and why not.
 */
@Command(name = "when", mixinStandardHelpOptions = true,
    description = {"Answer for a job before it is submitted: when would it run on this cluster, where, at what cost, and "
        + "if not, why not.",
        "The cluster (-f, --kubeconfig) and the job run forward as simulate -f --for does, once per seed; the answer "
            + "gives p50 and p90 over the seeds. Exit 0 when the job runs within --within at p50, 1 when it does not."})
public final class WhenCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", arity = "0..1", paramLabel = "JOB",
      description = "The job's manifest: a Job, Deployment, StatefulSet, ReplicaSet or Pod (several make one job).")
  Path job;

  /** The cluster: nodes, NodePools, workloads running now. */
  @CommandLine.Mixin ManifestInputOptions input;

  @CommandLine.Mixin WidthOption width;

  /** {@code --within}'s and {@code --seeds}' defaults, which serve's when view starts from too. */
  static final String WITHIN = "24h";
  static final String SEEDS = "1..5";

  @Option(names = "--within", paramLabel = "DURATION", defaultValue = WITHIN,
      description = "How far to play the cluster forward (default ${DEFAULT-VALUE}).")
  String within;

  @Option(names = "--seeds", paramLabel = "<a..b>", defaultValue = SEEDS,
      description = "The seeds of the runs, as a..b or a,b,c (default ${DEFAULT-VALUE}): spot interruptions, names "
          + "and ties differ between them.")
  String seeds;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "text",
      description = "text (default) or json.")
  String output;

  @Override
  public Integer call() {
    if (job == null) {
      throw new UserError("no JOB: give the job's manifest first, as in gpufleet when job.yaml -f cluster.yaml");
    }
    if (!output.equals("text") && !output.equals("json")) {
      throw new UserError("-o: expected text or json, found \"" + output + "\"");
    }
    Result result = forecast(new ManifestSource(job.toString(), Cli.readFile(job)), input, within, seeds);
    Cli.printWarnings(result.warnings(), this.spec);
    JobForecast forecast = result.forecast();
    PrintWriter out = this.spec.commandLine().getOut();
    out.print(output.equals("json") ? ForecastView.json(forecast) + "\n"
        : ForecastView.text(forecast, input.names(), width.columns()));
    out.flush();
    return forecast.running(0.5).isPresent() ? 0 : 1;
  }

  /** The forecast and the warnings met reading the cluster and the job. */
  record Result(JobForecast forecast, List<ManifestProblem> warnings) {}

  /**
   * The job's manifest added to the cluster {@code input} gives, played forward for {@code within}
   * once per seed: what {@code when} prints and {@code serve}'s when view shows. Bad input is a
   * {@link UserError} or a {@link io.gpufleet.manifest.yaml.ManifestException}.
   */
  static Result forecast(ManifestSource jobSource, ManifestInputOptions input, String within, String seeds) {
    return forecast(jobSource, input, within, seeds, Bound.NONE);
  }

  /**
   * How much one question may ask: serve's when view answers anyone who can reach it, so it plays at
   * most {@link #SERVED} (a what-if slot is held meanwhile); the command plays what it is told.
   */
  record Bound(int seeds, Duration within) {
    static final Bound NONE = new Bound(Integer.MAX_VALUE, Duration.ofSeconds(Long.MAX_VALUE));
    static final Bound SERVED = new Bound(20, Duration.ofDays(7));
  }

  private static Result forecast(ManifestSource jobSource, ManifestInputOptions input, String within, String seeds,
      Bound bound) {
    Duration horizon = GoDuration.parse(within);
    if (horizon == null || horizon.isNegative() || horizon.isZero()) {
      throw new UserError("--within: expected a duration such as 30m, 6h or 24h, found \"" + within + "\"");
    }
    if (horizon.compareTo(bound.within()) > 0) {
      throw new UserError("--within: at most " + bound.within().toHours() + "h here (gpufleet when plays further), found \""
          + within + "\"");
    }
    List<Long> seedList;
    try {
      seedList = ReplayCommand.Openb.seedsOf(seeds);
    } catch (IllegalArgumentException | ReplayCommand.UsageProblem e) {
      // The range's message names --seeds already; a bad seed's does not.
      throw new UserError(e.getMessage().startsWith("--seeds") ? e.getMessage() : "--seeds: " + e.getMessage());
    }
    if (seedList.size() > bound.seeds()) {
      throw new UserError("--seeds: at most " + bound.seeds() + " seeds here (gpufleet when runs more), found "
          + seedList.size());
    }
    JobSpec spec = jobSpec(jobSource.name(),
        new ManifestReader(input.strict, input.admissionPlugins()).read(List.of(jobSource)));
    List<ManifestSource> sources = new ArrayList<>(input.sources());
    sources.add(jobSource);
    ScenarioFile base = ManifestScenario.of("when", sources, input.gpuCatalogSource(), input.enableAdmission,
        input.disableAdmission, horizon, input.strict);
    List<JobRun> runs = new ArrayList<>();
    for (long seed : seedList) {
      runs.add(JobRun.of(Simulation.run(base.withSeed(seed).scenario()), seed, spec));
    }
    return new Result(new JobForecast(spec, runs), base.warnings());
  }

  /**
   * serve's when view: the job's text, named {@code job} in messages, asked against the cluster
   * {@code input} gives (read once, when serve started), within {@link Bound#SERVED}; bad input comes
   * back as the one message the command would print.
   */
  static Forecaster forecaster(ManifestInputOptions input) {
    return new Forecaster() {
      @Override
      public String cluster() {
        return input.names();
      }

      @Override
      public String within() {
        return WITHIN;
      }

      @Override
      public String seeds() {
        return SEEDS;
      }

      @Override
      public Answer forecast(String job, String within, String seeds) {
        try {
          return new Answer.Forecast(WhenCommand.forecast(new ManifestSource("job", job), input, within, seeds,
              Bound.SERVED).forecast());
        } catch (UserError e) {
          return new Answer.Refused(e.getMessage());
        } catch (ManifestException e) {
          List<ManifestProblem> errors = e.problems();
          return new Answer.Refused(errors.getFirst() + (errors.size() > 1 ? " (and " + (errors.size() - 1)
              + " more error(s))" : ""));
        }
      }
    };
  }

  /** The job file's workloads and pods; a file with neither, or with a DaemonSet, is refused. */
  private static JobSpec jobSpec(String job, ManifestBundle b) {
    if (b.workloads().isEmpty() && b.pods().isEmpty()) {
      throw new UserError(job + ": expected a Job, Deployment, StatefulSet, ReplicaSet or Pod to place, found none");
    }
    try {
      return JobSpec.of(b.workloads(), b.pods());
    } catch (IllegalArgumentException e) {
      throw new UserError(job + ": " + e.getMessage());
    }
  }
}
