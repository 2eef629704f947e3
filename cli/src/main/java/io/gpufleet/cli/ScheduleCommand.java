package io.gpufleet.cli;

import io.gpufleet.cluster.Cluster;
import io.gpufleet.engine.scheduler.BatchPlacement;
import io.gpufleet.engine.scheduler.SchedulerProfile;
import io.gpufleet.engine.scheduler.plugin.DynamicResources;
import io.gpufleet.model.scheduling.SchedulerConfiguration;
import io.gpufleet.manifest.kube.SchedulerConfigurationDecoder;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.report.placement.ClaimReport;
import io.gpufleet.report.placement.PendingDiagnosis;
import io.gpufleet.report.placement.PlacementReport;
import io.gpufleet.scenario.ScenarioFile;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.PendingFates;
import java.time.Duration;
import java.util.Optional;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code gpufleet schedule -f cluster.yaml}: where kube-scheduler would put each pod, or why not. */
@Command(name = "schedule", mixinStandardHelpOptions = true,
    description = {
        "Places pods on nodes as kube-scheduler would, or prints its exact Pending message.",
        "Places the pods of the given manifests on their nodes as kube-scheduler would, and prints",
        "a kubectl-like table plus the FailedScheduling message of every pod left Pending.",
        "Workloads (Deployments, Jobs, StatefulSets, ReplicaSets, DaemonSets) contribute their pods."})
final class ScheduleCommand implements Callable<Integer> {

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @picocli.CommandLine.Mixin ManifestInputOptions input;

  @picocli.CommandLine.Mixin DraDriverOptions draDriver = new DraDriverOptions();
  @picocli.CommandLine.Mixin WidthOption width;

  @Option(names = {"-o", "--output"}, defaultValue = "wide", paramLabel = "FORMAT",
      description = "wide (a table, the default) or json.")
  String output;

  @Option(names = "--config", paramLabel = "FILE",
      description = "A KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1): its profile's scoring strategy, "
          + "score plugin weights and percentageOfNodesToScore. Other options override it.")
  Path config;

  @Option(names = "--scoring", paramLabel = "STRATEGY",
      description = "NodeResourcesFit scoring strategy: LeastAllocated (default), MostAllocated, "
          + "RequestedToCapacityRatio (bin packing: 0%% -> 0, 100%% -> 10). Scores cpu and memory, weight 1 each.")
  String scoring;

  @Option(names = "--percentage-of-nodes-to-score", paramLabel = "PCT",
      description = "Stop filtering after this share of nodes is feasible; 0 = kube-scheduler's adaptive default.")
  Integer percentage;

  @Option(names = "--seed", defaultValue = "1", description = "Seed for tie-breaks and generated pod names.")
  long seed;

  @Option(names = "--explain", description = "Add a Scheduled event per pod with the top nodes' scores by plugin; "
      + "for each Pending pod, each node's reason and what would make it fit (a run of the cluster's Karpenter).")
  boolean explain;

  /** How long the run that answers "what would make it fit" goes on: a launch, registration and binding. */
  static final String EXPLAIN_RUN = "15m";

  @Override
  public Integer call() {
    if (!output.equals("wide") && !output.equals("json")) {
      throw new UserError("--output: expected wide or json, found \"" + output + "\"");
    }
    if (percentage != null && (percentage < 0 || percentage > 100)) {
      throw new UserError("--percentage-of-nodes-to-score: expected 0..100, found " + percentage);
    }
    Cluster cluster = input.cluster(draDriver.gates());
    Cli.printWarnings(cluster, spec);
    if (!explain) {
      Cli.warnUnused(cluster.bundle(), spec, "schedule");
    }
    Cluster.Placement placement = cluster.place(profiles(), seed, explain);
    BatchPlacement.Result result = placement.result();
    DynamicResources dynamicResources = placement.dynamicResources();
    DraObjects dra = cluster.dra();
    // Written as it is made: a fleet-sized placement is never held as one string.
    PrintWriter out = spec.commandLine().getOut();
    var claims = dynamicResources.state(result.snapshot());
    Optional<PendingDiagnosis.KarpenterAnswer> answer = explain ? Optional.of(karpenterAnswer(cluster, result))
        : Optional.empty();
    if (output.equals("json")) {
      PlacementReport.json(result, ClaimReport.json(result, dra, claims), answer, out);
    } else {
      PlacementReport.text(result, explain, answer, out, width.columns());
      ClaimReport.text(result, dra, claims, out, width.columns());
    }
    out.flush();
    return ExitCodes.OK;
  }

  /**
   * What Karpenter would do for the Pending pods: the same inputs run as {@code simulate -f --for 15m}
   * does, its record read for each pod ({@link PendingFates}). No run when nothing is Pending or no
   * NodePool was given.
   */
  private PendingDiagnosis.KarpenterAnswer karpenterAnswer(Cluster cluster, BatchPlacement.Result result) {
    List<String> pending = result.outcomes().stream().filter(o -> o instanceof BatchPlacement.Outcome.Pending)
        .map(o -> o.pod().key()).toList();
    if (pending.isEmpty()) {
      return PendingDiagnosis.KarpenterAnswer.without("no pod is Pending");
    }
    if (cluster.bundle().others().stream().noneMatch(o -> o.kind().equals("NodePool"))) {
      return PendingDiagnosis.KarpenterAnswer.without("no NodePool among the manifests, so it launches no node");
    }
    ScenarioFile run = SimulateCommand.scenario(null, input, EXPLAIN_RUN);
    SimulationResult r = Simulation.run(run.scenario());
    return new PendingDiagnosis.KarpenterAnswer(PendingFates.of(r.record(), r.start(), pending),
        Duration.between(r.start(), r.end()), "");
  }

  /** The configuration's profiles (a pod picks one by schedulerName), each with the options' overrides. */
  private List<SchedulerProfile> profiles() {
    List<SchedulerConfiguration> configs = config == null ? List.of(SchedulerConfiguration.defaults())
        : SchedulerConfigurationDecoder.read(config.toString(), Cli.readFile(config));
    List<SchedulerProfile> out = new ArrayList<>();
    for (SchedulerConfiguration c : configs) {
      if (scoring != null) {
        c = c.withStrategy(strategyType(scoring));
      }
      if (percentage != null) {
        c = c.withPercentageOfNodesToScore(percentage);
      }
      SchedulerProfile profile = SchedulerProfile.of(c);
      // DefaultPreemption is in kube-scheduler's default profile; a configuration may disable it.
      out.add(c.disabledScorePlugins().contains("DefaultPreemption") ? profile : profile.withPreemption());
    }
    return out;
  }

  static SchedulerConfiguration.ScoringStrategyType strategyType(String name) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "leastallocated" -> SchedulerConfiguration.ScoringStrategyType.LEAST_ALLOCATED;
      case "mostallocated" -> SchedulerConfiguration.ScoringStrategyType.MOST_ALLOCATED;
      case "requestedtocapacityratio" -> SchedulerConfiguration.ScoringStrategyType.REQUESTED_TO_CAPACITY_RATIO;
      default -> throw new UserError("--scoring: expected LeastAllocated, MostAllocated or RequestedToCapacityRatio, "
          + "found \"" + name + "\"");
    };
  }
}
