package io.gpufleet.cli;

import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.IGetter;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Written by CommandSpecsSource (test sources) from the commands' picocli annotations; do not edit:
 * change the annotations and run {@code ./run-tests -pl cli -am -Dtest=CommandSpecsTest
 * -Dgpufleet.regenerate=true}. Each command's picocli model built by code, so that a call does not
 * read annotations by reflection (an annotation proxy class per annotation type and a reflective
 * accessor per field, made at run time on a cold JVM, which no AOT cache holds). CommandSpecsTest
 * holds every model built here to the one picocli builds from the annotations.
 */
@SuppressWarnings({"unchecked", "all"})
final class CommandSpecs {
  private CommandSpecs() {}

  /** The model of a command {@link Main} names, built here; null for another (picocli's help). */
  static CommandSpec of(Object command) {
    if (command instanceof LabCommand c) {
      return labCommand(c);
    }
    if (command instanceof SimulateCommand c) {
      return simulateCommand(c);
    }
    if (command instanceof ScheduleCommand c) {
      return scheduleCommand(c);
    }
    if (command instanceof NodeCommand c) {
      return nodeCommand(c);
    }
    if (command instanceof SmiCommand c) {
      return smiCommand(c);
    }
    if (command instanceof WhenCommand c) {
      return whenCommand(c);
    }
    if (command instanceof ImportCommand c) {
      return importCommand(c);
    }
    if (command instanceof ReplayCommand c) {
      return replayCommand(c);
    }
    if (command instanceof AdviseCommand c) {
      return adviseCommand(c);
    }
    if (command instanceof LintCommand c) {
      return lintCommand(c);
    }
    if (command instanceof ServeCommand c) {
      return serveCommand(c);
    }
    if (command instanceof ProbeCommand c) {
      return probeCommand(c);
    }
    if (command instanceof BenchSharingCommand c) {
      return benchSharingCommand(c);
    }
    return null;
  }

  static CommandSpec main(Main c) {
    CommandSpec spec = CommandSpec.wrapWithoutInspection(c);
    spec.name("gpufleet");
    spec.version("gpufleet 0.1.0", "follows Kubernetes v1.37");
    spec.usageMessage().description("A digital twin of a Kubernetes GPU platform: scheduler, device plugin, autoscaler, in deterministic discrete-event time.");
    spec.addOption(OptionSpec.builder("${picocli.help.name.0:--h}", "${picocli.help.name.1:---help}")
        .description("Show this help message and exit.")
        .paramLabel("<helpRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .usageHelp(true)
        .descriptionKey("mixinStandardHelpOptions.help")
        .hasInitialValue(true).initialValue(false).build());
    spec.addOption(OptionSpec.builder("${picocli.version.name.0:--V}", "${picocli.version.name.1:---version}")
        .description("Print version information and exit.")
        .paramLabel("<versionRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .versionHelp(true)
        .descriptionKey("mixinStandardHelpOptions.version")
        .hasInitialValue(true).initialValue(false).build());
    c.spec = spec;
    return spec;
  }

  static CommandSpec labCommand(LabCommand c) {
    CommandSpec spec = CommandSpec.wrapWithoutInspection(c);
    spec.name("lab");
    spec.usageMessage().description("Plays the GPU-sharing mini-lab, step by step, in virtual time.", "Warm the image cache (3.1), time-slice a node to four replicas (3.2),", "four pods on one card (3.3), a fifth pod brings a second, unsliced node (3.4), reset (3.5).", "Each step prints what it did and what the cluster shows; --report FILE writes the HTML report.");
    if (c.width == null) {
      c.width = new WidthOption();
    }
    spec.addOption(OptionSpec.builder("--step")
        .description("Stop after this step (3.1 to 3.5).")
        .paramLabel("ID")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.step)
        .getter(new LabCommandFields(c, 0)).setter(new LabCommandFields(c, 0)).build());
    spec.addOption(OptionSpec.builder("--explain")
        .description("Add the why of each step's decisions.")
        .paramLabel("<explain>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.explain)
        .getter(new LabCommandFields(c, 1)).setter(new LabCommandFields(c, 1)).build());
    spec.addOption(OptionSpec.builder("--wide")
        .description("Print each line whole, however long (default: every line fits 120 columns; long cells wrap onto more lines, nothing is cut off).")
        .paramLabel("<wide>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.width.wide)
        .getter(new WidthOptionFields(c.width, 0)).setter(new WidthOptionFields(c.width, 0)).build());
    spec.addOption(OptionSpec.builder("--report")
        .description("Write the HTML report to FILE (default: no report; nothing is written unless asked).")
        .paramLabel("FILE")
        .type(java.nio.file.Path.class).auxiliaryTypes(java.nio.file.Path.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.report)
        .getter(new LabCommandFields(c, 2)).setter(new LabCommandFields(c, 2)).build());
    spec.addOption(OptionSpec.builder("${picocli.help.name.0:--h}", "${picocli.help.name.1:---help}")
        .description("Show this help message and exit.")
        .paramLabel("<helpRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .usageHelp(true)
        .descriptionKey("mixinStandardHelpOptions.help")
        .hasInitialValue(true).initialValue(false).build());
    spec.addOption(OptionSpec.builder("${picocli.version.name.0:--V}", "${picocli.version.name.1:---version}")
        .description("Print version information and exit.")
        .paramLabel("<versionRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .versionHelp(true)
        .descriptionKey("mixinStandardHelpOptions.version")
        .hasInitialValue(true).initialValue(false).build());
    c.spec = spec;
    return spec;
  }

  static CommandSpec simulateCommand(SimulateCommand c) {
    CommandSpec spec = CommandSpec.wrapWithoutInspection(c);
    spec.name("simulate");
    spec.usageMessage().description("Runs a scenario in virtual time and reports what happened, what it cost, and every expectation.", "A scenario (gpufleet.io/v1alpha1 Scenario) holds real Kubernetes, Karpenter and device-plugin", "manifests plus a timeline of steps) in virtual time. Prints each step and a summary, and writes", "result.json, timeseries.csv, pods.csv, report.html and events.jsonl. Exit code 1 when an expectation fails.", "Several SCENARIO files and --seeds make a batch: its runs go on --threads threads, and each prints", "and writes exactly what it would alone, in the order given (files, then seeds).");
    if (c.input == null) {
      c.input = new ManifestInputOptions();
    }
    if (c.input.cluster == null) {
      c.input.cluster = new ClusterOptions();
    }
    if (c.width == null) {
      c.width = new WidthOption();
    }
    spec.addOption(OptionSpec.builder("-f", "--filename")
        .description("Manifest file, directory (its .json, .yaml and .yml files) or '-' for stdin; YAML (multi-document, kind: List) or JSON. Repeatable.")
        .paramLabel("FILE")
        .type(List.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.filenames)
        .getter(new ManifestInputOptionsFields(c.input, 0)).setter(new ManifestInputOptionsFields(c.input, 0)).build());
    spec.addOption(OptionSpec.builder("-R", "--recursive")
        .description("Read the directories given with -f and their subdirectories, as kubectl -R does.")
        .paramLabel("<recursive>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.recursive)
        .getter(new ManifestInputOptionsFields(c.input, 1)).setter(new ManifestInputOptionsFields(c.input, 1)).build());
    spec.addOption(OptionSpec.builder("--strict")
        .description("Unknown fields in Kubernetes objects are errors (kubectl --validate=strict), not warnings.")
        .paramLabel("<strict>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.strict)
        .getter(new ManifestInputOptionsFields(c.input, 2)).setter(new ManifestInputOptionsFields(c.input, 2)).build());
    spec.addOption(OptionSpec.builder("--gpu-catalog")
        .description("GPU catalogue file in the built-in gpu-catalog.txt format; its models extend or override the built-in ones (docs/models.md).")
        .paramLabel("FILE")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.gpuCatalog)
        .getter(new ManifestInputOptionsFields(c.input, 3)).setter(new ManifestInputOptionsFields(c.input, 3)).build());
    spec.addOption(OptionSpec.builder("--enable-admission-plugins")
        .description("kube-apiserver admission plugins to turn on beside EKS's set, comma-separated, as kube-apiserver's flag (docs/admission.md).")
        .paramLabel("NAMES")
        .splitRegex(",")
        .type(List.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.enableAdmission)
        .getter(new ManifestInputOptionsFields(c.input, 4)).setter(new ManifestInputOptionsFields(c.input, 4)).build());
    spec.addOption(OptionSpec.builder("--disable-admission-plugins")
        .description("Admission plugins of EKS's set to turn off, comma-separated, e.g. ExtendedResourceToleration for a cluster that does not enable it (docs/admission.md).")
        .paramLabel("NAMES")
        .splitRegex(",")
        .type(List.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.disableAdmission)
        .getter(new ManifestInputOptionsFields(c.input, 5)).setter(new ManifestInputOptionsFields(c.input, 5)).build());
    spec.addOption(OptionSpec.builder("--kubeconfig")
        .description("The kubeconfig of a live cluster to read, read-only, through the Kubernetes API (only this file; KUBECONFIG is not read).")
        .paramLabel("FILE")
        .type(java.nio.file.Path.class).auxiliaryTypes(java.nio.file.Path.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.cluster.kubeconfig)
        .getter(new ClusterOptionsFields(c.input.cluster, 0)).setter(new ClusterOptionsFields(c.input.cluster, 0)).build());
    spec.addOption(OptionSpec.builder("--context")
        .description("With --kubeconfig: the context to use (default: its current-context).")
        .paramLabel("NAME")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.cluster.context)
        .getter(new ClusterOptionsFields(c.input.cluster, 1)).setter(new ClusterOptionsFields(c.input.cluster, 1)).build());
    spec.addOption(OptionSpec.builder("-n", "--namespace")
        .description("With --kubeconfig: pods, workloads and PDBs of this namespace only (default: all). Nodes, PriorityClasses and Karpenter's objects are cluster-wide and always read.")
        .paramLabel("NS")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.cluster.namespace)
        .getter(new ClusterOptionsFields(c.input.cluster, 2)).setter(new ClusterOptionsFields(c.input.cluster, 2)).build());
    spec.addOption(OptionSpec.builder("--wide")
        .description("Print each line whole, however long (default: every line fits 120 columns; long cells wrap onto more lines, nothing is cut off).")
        .paramLabel("<wide>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.width.wide)
        .getter(new WidthOptionFields(c.width, 0)).setter(new WidthOptionFields(c.width, 0)).build());
    spec.addOption(OptionSpec.builder("--for")
        .description("With -f or --kubeconfig: how long the cluster runs with no changes (default ${DEFAULT-VALUE}).")
        .paramLabel("DURATION")
        .defaultValue("1m")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.runFor)
        .getter(new SimulateCommandFields(c, 0)).setter(new SimulateCommandFields(c, 0)).build());
    spec.addOption(OptionSpec.builder("--out")
        .description("Where results go (default: out/<scenario name>; a batch writes <scenario name>/ under DIR (default out) when it has several scenarios, and seed-<n>/ under that with --seeds).")
        .paramLabel("DIR")
        .type(java.nio.file.Path.class).auxiliaryTypes(java.nio.file.Path.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.outDir)
        .getter(new SimulateCommandFields(c, 1)).setter(new SimulateCommandFields(c, 1)).build());
    spec.addOption(OptionSpec.builder("--seeds")
        .description("Run each scenario under these seeds instead of its own, as a..b or a,b,c.")
        .paramLabel("<a..b>")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.seeds)
        .getter(new SimulateCommandFields(c, 2)).setter(new SimulateCommandFields(c, 2)).build());
    spec.addOption(OptionSpec.builder("--threads")
        .description("Worker threads of a batch (default: all cores); the output does not depend on it.")
        .paramLabel("<n>")
        .type(Integer.class).auxiliaryTypes(Integer.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.threads)
        .getter(new SimulateCommandFields(c, 3)).setter(new SimulateCommandFields(c, 3)).build());
    spec.addOption(OptionSpec.builder("--step")
        .description("Stop after the step with this id.")
        .paramLabel("ID")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.step)
        .getter(new SimulateCommandFields(c, 4)).setter(new SimulateCommandFields(c, 4)).build());
    spec.addOption(OptionSpec.builder("--explain")
        .description("Add each step's explanation, and the disruption controller's decisions: each node it considered, the one it chose and why it left each other.")
        .paramLabel("<explain>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.explain)
        .getter(new SimulateCommandFields(c, 5)).setter(new SimulateCommandFields(c, 5)).build());
    spec.addOption(OptionSpec.builder("-q", "--quiet")
        .description("Print only the summary, not each step.")
        .paramLabel("<quiet>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.quiet)
        .getter(new SimulateCommandFields(c, 6)).setter(new SimulateCommandFields(c, 6)).build());
    spec.addOption(OptionSpec.builder("--compare")
        .description("Also run the scenario file OTHER (its summary only; its files are not written) and print the two runs side by side: made for the same workloads through the device plugin and through DRA.")
        .paramLabel("OTHER")
        .type(java.nio.file.Path.class).auxiliaryTypes(java.nio.file.Path.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.compare)
        .getter(new SimulateCommandFields(c, 7)).setter(new SimulateCommandFields(c, 7)).build());
    spec.addOption(OptionSpec.builder("${picocli.help.name.0:--h}", "${picocli.help.name.1:---help}")
        .description("Show this help message and exit.")
        .paramLabel("<helpRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .usageHelp(true)
        .descriptionKey("mixinStandardHelpOptions.help")
        .hasInitialValue(true).initialValue(false).build());
    spec.addOption(OptionSpec.builder("${picocli.version.name.0:--V}", "${picocli.version.name.1:---version}")
        .description("Print version information and exit.")
        .paramLabel("<versionRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .versionHelp(true)
        .descriptionKey("mixinStandardHelpOptions.version")
        .hasInitialValue(true).initialValue(false).build());
    spec.addPositional(PositionalParamSpec.builder()
        .description("The scenario files; or give the cluster's manifests with -f or --kubeconfig instead.")
        .paramLabel("SCENARIO")
        .arity("0..*")
        .type(List.class).auxiliaryTypes(java.nio.file.Path.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.files)
        .getter(new SimulateCommandFields(c, 8)).setter(new SimulateCommandFields(c, 8)).build());
    c.spec = spec;
    c.input.mixee = spec;
    return spec;
  }

  static CommandSpec scheduleCommand(ScheduleCommand c) {
    CommandSpec spec = CommandSpec.wrapWithoutInspection(c);
    spec.name("schedule");
    spec.usageMessage().description("Places pods on nodes as kube-scheduler would, or prints its exact Pending message.", "Places the pods of the given manifests on their nodes as kube-scheduler would, and prints", "a kubectl-like table plus the FailedScheduling message of every pod left Pending.", "Workloads (Deployments, Jobs, StatefulSets, ReplicaSets, DaemonSets) contribute their pods.");
    if (c.input == null) {
      c.input = new ManifestInputOptions();
    }
    if (c.input.cluster == null) {
      c.input.cluster = new ClusterOptions();
    }
    if (c.draDriver == null) {
      c.draDriver = new DraDriverOptions();
    }
    if (c.width == null) {
      c.width = new WidthOption();
    }
    spec.addOption(OptionSpec.builder("-f", "--filename")
        .description("Manifest file, directory (its .json, .yaml and .yml files) or '-' for stdin; YAML (multi-document, kind: List) or JSON. Repeatable.")
        .paramLabel("FILE")
        .type(List.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.filenames)
        .getter(new ManifestInputOptionsFields(c.input, 0)).setter(new ManifestInputOptionsFields(c.input, 0)).build());
    spec.addOption(OptionSpec.builder("-R", "--recursive")
        .description("Read the directories given with -f and their subdirectories, as kubectl -R does.")
        .paramLabel("<recursive>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.recursive)
        .getter(new ManifestInputOptionsFields(c.input, 1)).setter(new ManifestInputOptionsFields(c.input, 1)).build());
    spec.addOption(OptionSpec.builder("--strict")
        .description("Unknown fields in Kubernetes objects are errors (kubectl --validate=strict), not warnings.")
        .paramLabel("<strict>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.strict)
        .getter(new ManifestInputOptionsFields(c.input, 2)).setter(new ManifestInputOptionsFields(c.input, 2)).build());
    spec.addOption(OptionSpec.builder("--gpu-catalog")
        .description("GPU catalogue file in the built-in gpu-catalog.txt format; its models extend or override the built-in ones (docs/models.md).")
        .paramLabel("FILE")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.gpuCatalog)
        .getter(new ManifestInputOptionsFields(c.input, 3)).setter(new ManifestInputOptionsFields(c.input, 3)).build());
    spec.addOption(OptionSpec.builder("--enable-admission-plugins")
        .description("kube-apiserver admission plugins to turn on beside EKS's set, comma-separated, as kube-apiserver's flag (docs/admission.md).")
        .paramLabel("NAMES")
        .splitRegex(",")
        .type(List.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.enableAdmission)
        .getter(new ManifestInputOptionsFields(c.input, 4)).setter(new ManifestInputOptionsFields(c.input, 4)).build());
    spec.addOption(OptionSpec.builder("--disable-admission-plugins")
        .description("Admission plugins of EKS's set to turn off, comma-separated, e.g. ExtendedResourceToleration for a cluster that does not enable it (docs/admission.md).")
        .paramLabel("NAMES")
        .splitRegex(",")
        .type(List.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.disableAdmission)
        .getter(new ManifestInputOptionsFields(c.input, 5)).setter(new ManifestInputOptionsFields(c.input, 5)).build());
    spec.addOption(OptionSpec.builder("--kubeconfig")
        .description("The kubeconfig of a live cluster to read, read-only, through the Kubernetes API (only this file; KUBECONFIG is not read).")
        .paramLabel("FILE")
        .type(java.nio.file.Path.class).auxiliaryTypes(java.nio.file.Path.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.cluster.kubeconfig)
        .getter(new ClusterOptionsFields(c.input.cluster, 0)).setter(new ClusterOptionsFields(c.input.cluster, 0)).build());
    spec.addOption(OptionSpec.builder("--context")
        .description("With --kubeconfig: the context to use (default: its current-context).")
        .paramLabel("NAME")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.cluster.context)
        .getter(new ClusterOptionsFields(c.input.cluster, 1)).setter(new ClusterOptionsFields(c.input.cluster, 1)).build());
    spec.addOption(OptionSpec.builder("-n", "--namespace")
        .description("With --kubeconfig: pods, workloads and PDBs of this namespace only (default: all). Nodes, PriorityClasses and Karpenter's objects are cluster-wide and always read.")
        .paramLabel("NS")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.cluster.namespace)
        .getter(new ClusterOptionsFields(c.input.cluster, 2)).setter(new ClusterOptionsFields(c.input.cluster, 2)).build());
    spec.addOption(OptionSpec.builder("--dra-feature-gates")
        .description("NVIDIA DRA driver feature gates (TimeSlicingSettings, MPSSupport, DynamicMIG; all off by default, as upstream): whether a claim's GpuConfig sharing applies, and whether MIG-capable cards are published as partitionable devices (docs/commands.md).")
        .paramLabel("GATE=BOOL,...")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.draDriver.draFeatureGates)
        .getter(new DraDriverOptionsFields(c.draDriver, 0)).setter(new DraDriverOptionsFields(c.draDriver, 0)).build());
    spec.addOption(OptionSpec.builder("--wide")
        .description("Print each line whole, however long (default: every line fits 120 columns; long cells wrap onto more lines, nothing is cut off).")
        .paramLabel("<wide>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.width.wide)
        .getter(new WidthOptionFields(c.width, 0)).setter(new WidthOptionFields(c.width, 0)).build());
    spec.addOption(OptionSpec.builder("-o", "--output")
        .description("wide (a table, the default) or json.")
        .paramLabel("FORMAT")
        .defaultValue("wide")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.output)
        .getter(new ScheduleCommandFields(c, 0)).setter(new ScheduleCommandFields(c, 0)).build());
    spec.addOption(OptionSpec.builder("--config")
        .description("A KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1): its profile's scoring strategy, score plugin weights and percentageOfNodesToScore. Other options override it.")
        .paramLabel("FILE")
        .type(java.nio.file.Path.class).auxiliaryTypes(java.nio.file.Path.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.config)
        .getter(new ScheduleCommandFields(c, 1)).setter(new ScheduleCommandFields(c, 1)).build());
    spec.addOption(OptionSpec.builder("--scoring")
        .description("NodeResourcesFit scoring strategy: LeastAllocated (default), MostAllocated, RequestedToCapacityRatio (bin packing: 0%% -> 0, 100%% -> 10). Scores cpu and memory, weight 1 each.")
        .paramLabel("STRATEGY")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.scoring)
        .getter(new ScheduleCommandFields(c, 2)).setter(new ScheduleCommandFields(c, 2)).build());
    spec.addOption(OptionSpec.builder("--percentage-of-nodes-to-score")
        .description("Stop filtering after this share of nodes is feasible; 0 = kube-scheduler's adaptive default.")
        .paramLabel("PCT")
        .type(Integer.class).auxiliaryTypes(Integer.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.percentage)
        .getter(new ScheduleCommandFields(c, 3)).setter(new ScheduleCommandFields(c, 3)).build());
    spec.addOption(OptionSpec.builder("--seed")
        .description("Seed for tie-breaks and generated pod names.")
        .paramLabel("<seed>")
        .defaultValue("1")
        .type(long.class).auxiliaryTypes(long.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.seed)
        .getter(new ScheduleCommandFields(c, 4)).setter(new ScheduleCommandFields(c, 4)).build());
    spec.addOption(OptionSpec.builder("--explain")
        .description("Add a Scheduled event per pod with the top nodes' scores by plugin; for each Pending pod, each node's reason and what would make it fit (a run of the cluster's Karpenter).")
        .paramLabel("<explain>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.explain)
        .getter(new ScheduleCommandFields(c, 5)).setter(new ScheduleCommandFields(c, 5)).build());
    spec.addOption(OptionSpec.builder("${picocli.help.name.0:--h}", "${picocli.help.name.1:---help}")
        .description("Show this help message and exit.")
        .paramLabel("<helpRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .usageHelp(true)
        .descriptionKey("mixinStandardHelpOptions.help")
        .hasInitialValue(true).initialValue(false).build());
    spec.addOption(OptionSpec.builder("${picocli.version.name.0:--V}", "${picocli.version.name.1:---version}")
        .description("Print version information and exit.")
        .paramLabel("<versionRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .versionHelp(true)
        .descriptionKey("mixinStandardHelpOptions.version")
        .hasInitialValue(true).initialValue(false).build());
    c.spec = spec;
    c.input.mixee = spec;
    return spec;
  }

  static CommandSpec nodeCommand(NodeCommand c) {
    CommandSpec spec = CommandSpec.wrapWithoutInspection(c);
    spec.name("node");
    spec.usageMessage().description("Nodes as the device plugin and GPU Feature Discovery present them.");
    spec.addOption(OptionSpec.builder("${picocli.help.name.0:--h}", "${picocli.help.name.1:---help}")
        .description("Show this help message and exit.")
        .paramLabel("<helpRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .usageHelp(true)
        .descriptionKey("mixinStandardHelpOptions.help")
        .hasInitialValue(true).initialValue(false).build());
    spec.addOption(OptionSpec.builder("${picocli.version.name.0:--V}", "${picocli.version.name.1:---version}")
        .description("Print version information and exit.")
        .paramLabel("<versionRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .versionHelp(true)
        .descriptionKey("mixinStandardHelpOptions.version")
        .hasInitialValue(true).initialValue(false).build());
    c.spec = spec;
    spec.addSubcommand("describe", nodeCommandDescribe(new NodeCommand.Describe()));
    return spec;
  }

  static CommandSpec nodeCommandDescribe(NodeCommand.Describe c) {
    CommandSpec spec = CommandSpec.wrapWithoutInspection(c);
    spec.name("describe");
    spec.usageMessage().description("Print each node like kubectl describe node, after its device plugin registered.");
    if (c.input == null) {
      c.input = new ManifestInputOptions();
    }
    if (c.input.cluster == null) {
      c.input.cluster = new ClusterOptions();
    }
    spec.addOption(OptionSpec.builder("-f", "--filename")
        .description("Manifest file, directory (its .json, .yaml and .yml files) or '-' for stdin; YAML (multi-document, kind: List) or JSON. Repeatable.")
        .paramLabel("FILE")
        .type(List.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.filenames)
        .getter(new ManifestInputOptionsFields(c.input, 0)).setter(new ManifestInputOptionsFields(c.input, 0)).build());
    spec.addOption(OptionSpec.builder("-R", "--recursive")
        .description("Read the directories given with -f and their subdirectories, as kubectl -R does.")
        .paramLabel("<recursive>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.recursive)
        .getter(new ManifestInputOptionsFields(c.input, 1)).setter(new ManifestInputOptionsFields(c.input, 1)).build());
    spec.addOption(OptionSpec.builder("--strict")
        .description("Unknown fields in Kubernetes objects are errors (kubectl --validate=strict), not warnings.")
        .paramLabel("<strict>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.strict)
        .getter(new ManifestInputOptionsFields(c.input, 2)).setter(new ManifestInputOptionsFields(c.input, 2)).build());
    spec.addOption(OptionSpec.builder("--gpu-catalog")
        .description("GPU catalogue file in the built-in gpu-catalog.txt format; its models extend or override the built-in ones (docs/models.md).")
        .paramLabel("FILE")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.gpuCatalog)
        .getter(new ManifestInputOptionsFields(c.input, 3)).setter(new ManifestInputOptionsFields(c.input, 3)).build());
    spec.addOption(OptionSpec.builder("--enable-admission-plugins")
        .description("kube-apiserver admission plugins to turn on beside EKS's set, comma-separated, as kube-apiserver's flag (docs/admission.md).")
        .paramLabel("NAMES")
        .splitRegex(",")
        .type(List.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.enableAdmission)
        .getter(new ManifestInputOptionsFields(c.input, 4)).setter(new ManifestInputOptionsFields(c.input, 4)).build());
    spec.addOption(OptionSpec.builder("--disable-admission-plugins")
        .description("Admission plugins of EKS's set to turn off, comma-separated, e.g. ExtendedResourceToleration for a cluster that does not enable it (docs/admission.md).")
        .paramLabel("NAMES")
        .splitRegex(",")
        .type(List.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.disableAdmission)
        .getter(new ManifestInputOptionsFields(c.input, 5)).setter(new ManifestInputOptionsFields(c.input, 5)).build());
    spec.addOption(OptionSpec.builder("--kubeconfig")
        .description("The kubeconfig of a live cluster to read, read-only, through the Kubernetes API (only this file; KUBECONFIG is not read).")
        .paramLabel("FILE")
        .type(java.nio.file.Path.class).auxiliaryTypes(java.nio.file.Path.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.cluster.kubeconfig)
        .getter(new ClusterOptionsFields(c.input.cluster, 0)).setter(new ClusterOptionsFields(c.input.cluster, 0)).build());
    spec.addOption(OptionSpec.builder("--context")
        .description("With --kubeconfig: the context to use (default: its current-context).")
        .paramLabel("NAME")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.cluster.context)
        .getter(new ClusterOptionsFields(c.input.cluster, 1)).setter(new ClusterOptionsFields(c.input.cluster, 1)).build());
    spec.addOption(OptionSpec.builder("-n", "--namespace")
        .description("With --kubeconfig: pods, workloads and PDBs of this namespace only (default: all). Nodes, PriorityClasses and Karpenter's objects are cluster-wide and always read.")
        .paramLabel("NS")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.cluster.namespace)
        .getter(new ClusterOptionsFields(c.input.cluster, 2)).setter(new ClusterOptionsFields(c.input.cluster, 2)).build());
    spec.addOption(OptionSpec.builder("--node")
        .description("Describe only this node.")
        .paramLabel("NAME")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.only)
        .getter(new NodeCommandDescribeFields(c, 0)).setter(new NodeCommandDescribeFields(c, 0)).build());
    spec.addOption(OptionSpec.builder("${picocli.help.name.0:--h}", "${picocli.help.name.1:---help}")
        .description("Show this help message and exit.")
        .paramLabel("<helpRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .usageHelp(true)
        .descriptionKey("mixinStandardHelpOptions.help")
        .hasInitialValue(true).initialValue(false).build());
    spec.addOption(OptionSpec.builder("${picocli.version.name.0:--V}", "${picocli.version.name.1:---version}")
        .description("Print version information and exit.")
        .paramLabel("<versionRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .versionHelp(true)
        .descriptionKey("mixinStandardHelpOptions.version")
        .hasInitialValue(true).initialValue(false).build());
    c.spec = spec;
    c.input.mixee = spec;
    return spec;
  }

  static CommandSpec smiCommand(SmiCommand c) {
    CommandSpec spec = CommandSpec.wrapWithoutInspection(c);
    spec.name("smi");
    spec.usageMessage().description("Schedule a cluster file's pods and show, like nvidia-smi, which pod runs on which GPU.");
    if (c.input == null) {
      c.input = new ManifestInputOptions();
    }
    if (c.input.cluster == null) {
      c.input.cluster = new ClusterOptions();
    }
    if (c.draDriver == null) {
      c.draDriver = new DraDriverOptions();
    }
    if (c.width == null) {
      c.width = new WidthOption();
    }
    spec.addOption(OptionSpec.builder("-f", "--filename")
        .description("Manifest file, directory (its .json, .yaml and .yml files) or '-' for stdin; YAML (multi-document, kind: List) or JSON. Repeatable.")
        .paramLabel("FILE")
        .type(List.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.filenames)
        .getter(new ManifestInputOptionsFields(c.input, 0)).setter(new ManifestInputOptionsFields(c.input, 0)).build());
    spec.addOption(OptionSpec.builder("-R", "--recursive")
        .description("Read the directories given with -f and their subdirectories, as kubectl -R does.")
        .paramLabel("<recursive>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.recursive)
        .getter(new ManifestInputOptionsFields(c.input, 1)).setter(new ManifestInputOptionsFields(c.input, 1)).build());
    spec.addOption(OptionSpec.builder("--strict")
        .description("Unknown fields in Kubernetes objects are errors (kubectl --validate=strict), not warnings.")
        .paramLabel("<strict>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.strict)
        .getter(new ManifestInputOptionsFields(c.input, 2)).setter(new ManifestInputOptionsFields(c.input, 2)).build());
    spec.addOption(OptionSpec.builder("--gpu-catalog")
        .description("GPU catalogue file in the built-in gpu-catalog.txt format; its models extend or override the built-in ones (docs/models.md).")
        .paramLabel("FILE")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.gpuCatalog)
        .getter(new ManifestInputOptionsFields(c.input, 3)).setter(new ManifestInputOptionsFields(c.input, 3)).build());
    spec.addOption(OptionSpec.builder("--enable-admission-plugins")
        .description("kube-apiserver admission plugins to turn on beside EKS's set, comma-separated, as kube-apiserver's flag (docs/admission.md).")
        .paramLabel("NAMES")
        .splitRegex(",")
        .type(List.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.enableAdmission)
        .getter(new ManifestInputOptionsFields(c.input, 4)).setter(new ManifestInputOptionsFields(c.input, 4)).build());
    spec.addOption(OptionSpec.builder("--disable-admission-plugins")
        .description("Admission plugins of EKS's set to turn off, comma-separated, e.g. ExtendedResourceToleration for a cluster that does not enable it (docs/admission.md).")
        .paramLabel("NAMES")
        .splitRegex(",")
        .type(List.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.disableAdmission)
        .getter(new ManifestInputOptionsFields(c.input, 5)).setter(new ManifestInputOptionsFields(c.input, 5)).build());
    spec.addOption(OptionSpec.builder("--kubeconfig")
        .description("The kubeconfig of a live cluster to read, read-only, through the Kubernetes API (only this file; KUBECONFIG is not read).")
        .paramLabel("FILE")
        .type(java.nio.file.Path.class).auxiliaryTypes(java.nio.file.Path.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.cluster.kubeconfig)
        .getter(new ClusterOptionsFields(c.input.cluster, 0)).setter(new ClusterOptionsFields(c.input.cluster, 0)).build());
    spec.addOption(OptionSpec.builder("--context")
        .description("With --kubeconfig: the context to use (default: its current-context).")
        .paramLabel("NAME")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.cluster.context)
        .getter(new ClusterOptionsFields(c.input.cluster, 1)).setter(new ClusterOptionsFields(c.input.cluster, 1)).build());
    spec.addOption(OptionSpec.builder("-n", "--namespace")
        .description("With --kubeconfig: pods, workloads and PDBs of this namespace only (default: all). Nodes, PriorityClasses and Karpenter's objects are cluster-wide and always read.")
        .paramLabel("NS")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.cluster.namespace)
        .getter(new ClusterOptionsFields(c.input.cluster, 2)).setter(new ClusterOptionsFields(c.input.cluster, 2)).build());
    spec.addOption(OptionSpec.builder("--dra-feature-gates")
        .description("NVIDIA DRA driver feature gates (TimeSlicingSettings, MPSSupport, DynamicMIG; all off by default, as upstream): whether a claim's GpuConfig sharing applies, and whether MIG-capable cards are published as partitionable devices (docs/commands.md).")
        .paramLabel("GATE=BOOL,...")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.draDriver.draFeatureGates)
        .getter(new DraDriverOptionsFields(c.draDriver, 0)).setter(new DraDriverOptionsFields(c.draDriver, 0)).build());
    spec.addOption(OptionSpec.builder("--wide")
        .description("Print each line whole, however long (default: every line fits 120 columns; long cells wrap onto more lines, nothing is cut off).")
        .paramLabel("<wide>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.width.wide)
        .getter(new WidthOptionFields(c.width, 0)).setter(new WidthOptionFields(c.width, 0)).build());
    spec.addOption(OptionSpec.builder("--seed")
        .description("Seed for pod names and score ties (default ${DEFAULT-VALUE}).")
        .paramLabel("<seed>")
        .defaultValue("1")
        .type(long.class).auxiliaryTypes(long.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.seed)
        .getter(new SmiCommandFields(c, 0)).setter(new SmiCommandFields(c, 0)).build());
    spec.addOption(OptionSpec.builder("${picocli.help.name.0:--h}", "${picocli.help.name.1:---help}")
        .description("Show this help message and exit.")
        .paramLabel("<helpRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .usageHelp(true)
        .descriptionKey("mixinStandardHelpOptions.help")
        .hasInitialValue(true).initialValue(false).build());
    spec.addOption(OptionSpec.builder("${picocli.version.name.0:--V}", "${picocli.version.name.1:---version}")
        .description("Print version information and exit.")
        .paramLabel("<versionRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .versionHelp(true)
        .descriptionKey("mixinStandardHelpOptions.version")
        .hasInitialValue(true).initialValue(false).build());
    c.spec = spec;
    c.input.mixee = spec;
    return spec;
  }

  static CommandSpec whenCommand(WhenCommand c) {
    CommandSpec spec = CommandSpec.wrapWithoutInspection(c);
    spec.name("when");
    spec.usageMessage().description("Answer for a job before it is submitted: when would it run on this cluster, where, at what cost, and if not, why not.", "The cluster (-f, --kubeconfig) and the job run forward as simulate -f --for does, once per seed; the answer gives p50 and p90 over the seeds. Exit 0 when the job runs within --within at p50, 1 when it does not.");
    if (c.input == null) {
      c.input = new ManifestInputOptions();
    }
    if (c.input.cluster == null) {
      c.input.cluster = new ClusterOptions();
    }
    if (c.width == null) {
      c.width = new WidthOption();
    }
    spec.addOption(OptionSpec.builder("-f", "--filename")
        .description("Manifest file, directory (its .json, .yaml and .yml files) or '-' for stdin; YAML (multi-document, kind: List) or JSON. Repeatable.")
        .paramLabel("FILE")
        .type(List.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.filenames)
        .getter(new ManifestInputOptionsFields(c.input, 0)).setter(new ManifestInputOptionsFields(c.input, 0)).build());
    spec.addOption(OptionSpec.builder("-R", "--recursive")
        .description("Read the directories given with -f and their subdirectories, as kubectl -R does.")
        .paramLabel("<recursive>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.recursive)
        .getter(new ManifestInputOptionsFields(c.input, 1)).setter(new ManifestInputOptionsFields(c.input, 1)).build());
    spec.addOption(OptionSpec.builder("--strict")
        .description("Unknown fields in Kubernetes objects are errors (kubectl --validate=strict), not warnings.")
        .paramLabel("<strict>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.strict)
        .getter(new ManifestInputOptionsFields(c.input, 2)).setter(new ManifestInputOptionsFields(c.input, 2)).build());
    spec.addOption(OptionSpec.builder("--gpu-catalog")
        .description("GPU catalogue file in the built-in gpu-catalog.txt format; its models extend or override the built-in ones (docs/models.md).")
        .paramLabel("FILE")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.gpuCatalog)
        .getter(new ManifestInputOptionsFields(c.input, 3)).setter(new ManifestInputOptionsFields(c.input, 3)).build());
    spec.addOption(OptionSpec.builder("--enable-admission-plugins")
        .description("kube-apiserver admission plugins to turn on beside EKS's set, comma-separated, as kube-apiserver's flag (docs/admission.md).")
        .paramLabel("NAMES")
        .splitRegex(",")
        .type(List.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.enableAdmission)
        .getter(new ManifestInputOptionsFields(c.input, 4)).setter(new ManifestInputOptionsFields(c.input, 4)).build());
    spec.addOption(OptionSpec.builder("--disable-admission-plugins")
        .description("Admission plugins of EKS's set to turn off, comma-separated, e.g. ExtendedResourceToleration for a cluster that does not enable it (docs/admission.md).")
        .paramLabel("NAMES")
        .splitRegex(",")
        .type(List.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.disableAdmission)
        .getter(new ManifestInputOptionsFields(c.input, 5)).setter(new ManifestInputOptionsFields(c.input, 5)).build());
    spec.addOption(OptionSpec.builder("--kubeconfig")
        .description("The kubeconfig of a live cluster to read, read-only, through the Kubernetes API (only this file; KUBECONFIG is not read).")
        .paramLabel("FILE")
        .type(java.nio.file.Path.class).auxiliaryTypes(java.nio.file.Path.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.cluster.kubeconfig)
        .getter(new ClusterOptionsFields(c.input.cluster, 0)).setter(new ClusterOptionsFields(c.input.cluster, 0)).build());
    spec.addOption(OptionSpec.builder("--context")
        .description("With --kubeconfig: the context to use (default: its current-context).")
        .paramLabel("NAME")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.cluster.context)
        .getter(new ClusterOptionsFields(c.input.cluster, 1)).setter(new ClusterOptionsFields(c.input.cluster, 1)).build());
    spec.addOption(OptionSpec.builder("-n", "--namespace")
        .description("With --kubeconfig: pods, workloads and PDBs of this namespace only (default: all). Nodes, PriorityClasses and Karpenter's objects are cluster-wide and always read.")
        .paramLabel("NS")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.cluster.namespace)
        .getter(new ClusterOptionsFields(c.input.cluster, 2)).setter(new ClusterOptionsFields(c.input.cluster, 2)).build());
    spec.addOption(OptionSpec.builder("--wide")
        .description("Print each line whole, however long (default: every line fits 120 columns; long cells wrap onto more lines, nothing is cut off).")
        .paramLabel("<wide>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.width.wide)
        .getter(new WidthOptionFields(c.width, 0)).setter(new WidthOptionFields(c.width, 0)).build());
    spec.addOption(OptionSpec.builder("--within")
        .description("How far to play the cluster forward (default ${DEFAULT-VALUE}).")
        .paramLabel("DURATION")
        .defaultValue("24h")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.within)
        .getter(new WhenCommandFields(c, 0)).setter(new WhenCommandFields(c, 0)).build());
    spec.addOption(OptionSpec.builder("--seeds")
        .description("The seeds of the runs, as a..b or a,b,c (default ${DEFAULT-VALUE}): spot interruptions, names and ties differ between them.")
        .paramLabel("<a..b>")
        .defaultValue("1..5")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.seeds)
        .getter(new WhenCommandFields(c, 1)).setter(new WhenCommandFields(c, 1)).build());
    spec.addOption(OptionSpec.builder("-o", "--output")
        .description("text (default) or json.")
        .paramLabel("FORMAT")
        .defaultValue("text")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.output)
        .getter(new WhenCommandFields(c, 2)).setter(new WhenCommandFields(c, 2)).build());
    spec.addOption(OptionSpec.builder("${picocli.help.name.0:--h}", "${picocli.help.name.1:---help}")
        .description("Show this help message and exit.")
        .paramLabel("<helpRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .usageHelp(true)
        .descriptionKey("mixinStandardHelpOptions.help")
        .hasInitialValue(true).initialValue(false).build());
    spec.addOption(OptionSpec.builder("${picocli.version.name.0:--V}", "${picocli.version.name.1:---version}")
        .description("Print version information and exit.")
        .paramLabel("<versionRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .versionHelp(true)
        .descriptionKey("mixinStandardHelpOptions.version")
        .hasInitialValue(true).initialValue(false).build());
    spec.addPositional(PositionalParamSpec.builder()
        .index("0")
        .description("The job's manifest: a Job, Deployment, StatefulSet, ReplicaSet or Pod (several make one job).")
        .paramLabel("JOB")
        .arity("0..1")
        .type(java.nio.file.Path.class).auxiliaryTypes(java.nio.file.Path.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.job)
        .getter(new WhenCommandFields(c, 3)).setter(new WhenCommandFields(c, 3)).build());
    c.spec = spec;
    c.input.mixee = spec;
    return spec;
  }

  static CommandSpec importCommand(ImportCommand c) {
    CommandSpec spec = CommandSpec.wrapWithoutInspection(c);
    spec.name("import");
    spec.usageMessage().description("Reads a live cluster, read-only, into a snapshot file every command takes with -f.", "Lists nodes, pods, Deployments, ReplicaSets, StatefulSets, DaemonSets, Jobs,", "PodDisruptionBudgets, PriorityClasses, the GPU Operator's device-plugin and", "mig-parted ConfigMaps and, where installed, Karpenter's NodePools, NodeClaims and", "EC2NodeClasses. Never reads Secrets. Writes one kind: List, sorted, with the", "context, server version and import time in its annotations (docs/real-clusters.md).");
    if (c.cluster == null) {
      c.cluster = new ClusterOptions();
    }
    spec.addOption(OptionSpec.builder("--kubeconfig")
        .description("The kubeconfig of a live cluster to read, read-only, through the Kubernetes API (only this file; KUBECONFIG is not read).")
        .paramLabel("FILE")
        .type(java.nio.file.Path.class).auxiliaryTypes(java.nio.file.Path.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.cluster.kubeconfig)
        .getter(new ClusterOptionsFields(c.cluster, 0)).setter(new ClusterOptionsFields(c.cluster, 0)).build());
    spec.addOption(OptionSpec.builder("--context")
        .description("With --kubeconfig: the context to use (default: its current-context).")
        .paramLabel("NAME")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.cluster.context)
        .getter(new ClusterOptionsFields(c.cluster, 1)).setter(new ClusterOptionsFields(c.cluster, 1)).build());
    spec.addOption(OptionSpec.builder("-n", "--namespace")
        .description("With --kubeconfig: pods, workloads and PDBs of this namespace only (default: all). Nodes, PriorityClasses and Karpenter's objects are cluster-wide and always read.")
        .paramLabel("NS")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.cluster.namespace)
        .getter(new ClusterOptionsFields(c.cluster, 2)).setter(new ClusterOptionsFields(c.cluster, 2)).build());
    spec.addOption(OptionSpec.builder("-o", "--output")
        .description("Where the snapshot goes (default, or '-': standard output).")
        .paramLabel("FILE")
        .type(java.nio.file.Path.class).auxiliaryTypes(java.nio.file.Path.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.output)
        .getter(new ImportCommandFields(c, 0)).setter(new ImportCommandFields(c, 0)).build());
    spec.addOption(OptionSpec.builder("${picocli.help.name.0:--h}", "${picocli.help.name.1:---help}")
        .description("Show this help message and exit.")
        .paramLabel("<helpRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .usageHelp(true)
        .descriptionKey("mixinStandardHelpOptions.help")
        .hasInitialValue(true).initialValue(false).build());
    spec.addOption(OptionSpec.builder("${picocli.version.name.0:--V}", "${picocli.version.name.1:---version}")
        .description("Print version information and exit.")
        .paramLabel("<versionRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .versionHelp(true)
        .descriptionKey("mixinStandardHelpOptions.version")
        .hasInitialValue(true).initialValue(false).build());
    c.spec = spec;
    return spec;
  }

  static CommandSpec replayCommand(ReplayCommand c) {
    CommandSpec spec = CommandSpec.wrapWithoutInspection(c);
    spec.name("replay");
    spec.usageMessage().description("Replay a GPU cluster trace through placement policies.");
    spec.addOption(OptionSpec.builder("${picocli.help.name.0:--h}", "${picocli.help.name.1:---help}")
        .description("Show this help message and exit.")
        .paramLabel("<helpRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .usageHelp(true)
        .descriptionKey("mixinStandardHelpOptions.help")
        .hasInitialValue(true).initialValue(false).build());
    spec.addOption(OptionSpec.builder("${picocli.version.name.0:--V}", "${picocli.version.name.1:---version}")
        .description("Print version information and exit.")
        .paramLabel("<versionRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .versionHelp(true)
        .descriptionKey("mixinStandardHelpOptions.version")
        .hasInitialValue(true).initialValue(false).build());
    c.spec = spec;
    spec.addSubcommand("openb", replayCommandOpenb(new ReplayCommand.Openb()));
    return spec;
  }

  static CommandSpec replayCommandOpenb(ReplayCommand.Openb c) {
    CommandSpec spec = CommandSpec.wrapWithoutInspection(c);
    spec.name("openb");
    spec.usageMessage().description("Replay the Alibaba openb GPU trace under a placement policy, as the FGD paper (ATC'23) did:", "the 1,213 GPU nodes start empty, pods are shuffled by the seed and tuned up to 130%% of GPU", "capacity, then scheduled one at a time; a pod that fits nowhere fails.", "One run writes a per-pod CSV curve and prints a summary; --sweep runs policies x variants x", "seeds in parallel and writes a table, CSVs and an HTML page with charts.");
    spec.addOption(OptionSpec.builder("--pods")
        .description("Trace variant, e.g. default, cpu050, gpushare40, gpuspec33, multigpu50 (default: ${DEFAULT-VALUE}).")
        .paramLabel("<variant>")
        .defaultValue("default")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.pods)
        .getter(new ReplayCommandOpenbFields(c, 0)).setter(new ReplayCommandOpenbFields(c, 0)).build());
    spec.addOption(OptionSpec.builder("--policy")
        .description("Placement policy: random, dotproduct, gpuclustering, gpupacking, bestfit, fgd, fgd-cpu (default: ${DEFAULT-VALUE}).")
        .paramLabel("<name>")
        .defaultValue("fgd")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.policy)
        .getter(new ReplayCommandOpenbFields(c, 1)).setter(new ReplayCommandOpenbFields(c, 1)).build());
    spec.addOption(OptionSpec.builder("--seed")
        .description("Seed of the run (default: ${DEFAULT-VALUE}).")
        .paramLabel("<n>")
        .defaultValue("42")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.seed)
        .getter(new ReplayCommandOpenbFields(c, 2)).setter(new ReplayCommandOpenbFields(c, 2)).build());
    spec.addOption(OptionSpec.builder("--seeds")
        .description("Seeds, as a..b or a,b,c; runs a sweep.")
        .paramLabel("<a..b>")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.seeds)
        .getter(new ReplayCommandOpenbFields(c, 3)).setter(new ReplayCommandOpenbFields(c, 3)).build());
    spec.addOption(OptionSpec.builder("--sweep")
        .description("Run policies x variants x seeds (default: the paper's 17 variants, its six policies and ours, seeds 42..51).")
        .paramLabel("<sweep>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.sweep)
        .getter(new ReplayCommandOpenbFields(c, 4)).setter(new ReplayCommandOpenbFields(c, 4)).build());
    spec.addOption(OptionSpec.builder("--variants")
        .description("Variants of a sweep, comma-separated, or 'paper' or 'all'.")
        .paramLabel("<list>")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.variants)
        .getter(new ReplayCommandOpenbFields(c, 5)).setter(new ReplayCommandOpenbFields(c, 5)).build());
    spec.addOption(OptionSpec.builder("--policies")
        .description("Policies of a sweep, comma-separated, or 'paper' or 'all'.")
        .paramLabel("<list>")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.policies)
        .getter(new ReplayCommandOpenbFields(c, 6)).setter(new ReplayCommandOpenbFields(c, 6)).build());
    spec.addOption(OptionSpec.builder("--threads")
        .description("Worker threads of a sweep (default: all cores).")
        .paramLabel("<n>")
        .type(Integer.class).auxiliaryTypes(Integer.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.threads)
        .getter(new ReplayCommandOpenbFields(c, 7)).setter(new ReplayCommandOpenbFields(c, 7)).build());
    spec.addOption(OptionSpec.builder("--data")
        .description("Directory of the openb CSVs (default: data/openb of the project, else ../shared/data/openb).")
        .paramLabel("<dir>")
        .type(java.nio.file.Path.class).auxiliaryTypes(java.nio.file.Path.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.data)
        .getter(new ReplayCommandOpenbFields(c, 8)).setter(new ReplayCommandOpenbFields(c, 8)).build());
    spec.addOption(OptionSpec.builder("--out")
        .description("Where CSV and HTML outputs go (default: ${DEFAULT-VALUE}).")
        .paramLabel("<dir>")
        .defaultValue("out/openb")
        .type(java.nio.file.Path.class).auxiliaryTypes(java.nio.file.Path.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.out)
        .getter(new ReplayCommandOpenbFields(c, 9)).setter(new ReplayCommandOpenbFields(c, 9)).build());
    spec.addOption(OptionSpec.builder("${picocli.help.name.0:--h}", "${picocli.help.name.1:---help}")
        .description("Show this help message and exit.")
        .paramLabel("<helpRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .usageHelp(true)
        .descriptionKey("mixinStandardHelpOptions.help")
        .hasInitialValue(true).initialValue(false).build());
    spec.addOption(OptionSpec.builder("${picocli.version.name.0:--V}", "${picocli.version.name.1:---version}")
        .description("Print version information and exit.")
        .paramLabel("<versionRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .versionHelp(true)
        .descriptionKey("mixinStandardHelpOptions.version")
        .hasInitialValue(true).initialValue(false).build());
    c.spec = spec;
    return spec;
  }

  static CommandSpec adviseCommand(AdviseCommand c) {
    CommandSpec spec = CommandSpec.wrapWithoutInspection(c);
    spec.name("advise");
    spec.usageMessage().description("Picks exclusive, time-slicing, MIG or MPS for your workloads, and defends the choice.", "Ranks the ways to share a GPU type among workloads: GPUs and nodes needed, monthly cost,", "predicted p50/p99 per replica against the SLO, utilisation and risks; then recommends one", "and defends it. Profiles come from -f files (kind: WorkloadProfile, see examples/advise/)", "or, for one workload, from the flags below.");
    spec.usageMessage().sortOptions(false);
    if (c.width == null) {
      c.width = new WidthOption();
    }
    spec.addOption(OptionSpec.builder("-f", "--filename")
        .description("WorkloadProfile YAML. Repeatable.")
        .paramLabel("FILE")
        .type(List.class).auxiliaryTypes(java.nio.file.Path.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.files)
        .getter(new AdviseCommandFields(c, 0)).setter(new AdviseCommandFields(c, 0)).build());
    spec.addOption(OptionSpec.builder("--gpu")
        .description("GPU type: A10G, L4, L40S, A100-80GB, H100, H200, ... (overrides spec.gpu); 'any' compares every GPU type the instance catalogue prices.")
        .paramLabel("GPU")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.gpu)
        .getter(new AdviseCommandFields(c, 1)).setter(new AdviseCommandFields(c, 1)).build());
    spec.addOption(OptionSpec.builder("--name")
        .description("Workload name (default: workload).")
        .paramLabel("NAME")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.name)
        .getter(new AdviseCommandFields(c, 2)).setter(new AdviseCommandFields(c, 2)).build());
    spec.addOption(OptionSpec.builder("--kind")
        .description("inference, notebook, dev or batch (default: inference).")
        .paramLabel("KIND")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.kind)
        .getter(new AdviseCommandFields(c, 3)).setter(new AdviseCommandFields(c, 3)).build());
    spec.addOption(OptionSpec.builder("--tenants")
        .description("Replicas (tenants) of the workload (default: 1).")
        .paramLabel("N")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.tenants)
        .getter(new AdviseCommandFields(c, 4)).setter(new AdviseCommandFields(c, 4)).build());
    spec.addOption(OptionSpec.builder("--model-params")
        .description("Model parameters, e.g. 1.5B: a request streams the weights once per token.")
        .paramLabel("COUNT")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.modelParams)
        .getter(new AdviseCommandFields(c, 5)).setter(new AdviseCommandFields(c, 5)).build());
    spec.addOption(OptionSpec.builder("--bytes-per-param")
        .description("Bytes per parameter (default: 2, bf16).")
        .paramLabel("B")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.bytesPerParam)
        .getter(new AdviseCommandFields(c, 6)).setter(new AdviseCommandFields(c, 6)).build());
    spec.addOption(OptionSpec.builder("--tokens")
        .description("Decode steps per request (default: 1).")
        .paramLabel("N")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.tokens)
        .getter(new AdviseCommandFields(c, 7)).setter(new AdviseCommandFields(c, 7)).build());
    spec.addOption(OptionSpec.builder("--kernels")
        .description("Kernel launches per request, for a launch-bound workload.")
        .paramLabel("N")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.kernels)
        .getter(new AdviseCommandFields(c, 8)).setter(new AdviseCommandFields(c, 8)).build());
    spec.addOption(OptionSpec.builder("--measured-latency")
        .description("Mean latency of a request alone on --measured-on, e.g. 250ms.")
        .paramLabel("DURATION")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.measuredLatency)
        .getter(new AdviseCommandFields(c, 9)).setter(new AdviseCommandFields(c, 9)).build());
    spec.addOption(OptionSpec.builder("--measured-throughput")
        .description("Or: requests per second of the workload alone on --measured-on, back to back.")
        .paramLabel("R")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.measuredThroughput)
        .getter(new AdviseCommandFields(c, 10)).setter(new AdviseCommandFields(c, 10)).build());
    spec.addOption(OptionSpec.builder("--measured-on")
        .description("The GPU --measured-latency was measured on.")
        .paramLabel("GPU")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.measuredOn)
        .getter(new AdviseCommandFields(c, 11)).setter(new AdviseCommandFields(c, 11)).build());
    spec.addOption(OptionSpec.builder("--bound")
        .description("What limits a measured request (default: memory).")
        .paramLabel("memory|launch")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.bound)
        .getter(new AdviseCommandFields(c, 12)).setter(new AdviseCommandFields(c, 12)).build());
    spec.addOption(OptionSpec.builder("--memory")
        .description("GPU memory per replica, e.g. 4Gi (default for --model-params: weights + 1Gi).")
        .paramLabel("QTY")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.memory)
        .getter(new AdviseCommandFields(c, 13)).setter(new AdviseCommandFields(c, 13)).build());
    spec.addOption(OptionSpec.builder("--rate")
        .description("Requests per second per replica.")
        .paramLabel("R")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.rate)
        .getter(new AdviseCommandFields(c, 14)).setter(new AdviseCommandFields(c, 14)).build());
    spec.addOption(OptionSpec.builder("--burstiness")
        .description("poisson, bursty, or the inter-arrival SCV (default: poisson; bursty for notebook/dev).")
        .paramLabel("B")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.burstiness)
        .getter(new AdviseCommandFields(c, 15)).setter(new AdviseCommandFields(c, 15)).build());
    spec.addOption(OptionSpec.builder("--slo-p99")
        .description("p99 latency objective, e.g. 50ms.")
        .paramLabel("DURATION")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.sloP99)
        .getter(new AdviseCommandFields(c, 16)).setter(new AdviseCommandFields(c, 16)).build());
    spec.addOption(OptionSpec.builder("--trust")
        .description("trusted or untrusted tenants (default: trusted).")
        .paramLabel("T")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.trust)
        .getter(new AdviseCommandFields(c, 17)).setter(new AdviseCommandFields(c, 17)).build());
    spec.addOption(OptionSpec.builder("--cpu")
        .description("CPU each replica requests from its node, e.g. 1 or 500m.")
        .paramLabel("QTY")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.cpu)
        .getter(new AdviseCommandFields(c, 18)).setter(new AdviseCommandFields(c, 18)).build());
    spec.addOption(OptionSpec.builder("--host-memory")
        .description("Memory each replica requests from its node, e.g. 4Gi.")
        .paramLabel("QTY")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.hostMemory)
        .getter(new AdviseCommandFields(c, 19)).setter(new AdviseCommandFields(c, 19)).build());
    spec.addOption(OptionSpec.builder("-o", "--output")
        .description("table (default), json or html.")
        .paramLabel("FORMAT")
        .defaultValue("table")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.output)
        .getter(new AdviseCommandFields(c, 20)).setter(new AdviseCommandFields(c, 20)).build());
    spec.addOption(OptionSpec.builder("--wide")
        .description("Print each line whole, however long (default: every line fits 120 columns; long cells wrap onto more lines, nothing is cut off).")
        .paramLabel("<wide>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.width.wide)
        .getter(new WidthOptionFields(c.width, 0)).setter(new WidthOptionFields(c.width, 0)).build());
    spec.addOption(OptionSpec.builder("--out")
        .description("Write the output to FILE instead of stdout.")
        .paramLabel("FILE")
        .type(java.nio.file.Path.class).auxiliaryTypes(java.nio.file.Path.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.out)
        .getter(new AdviseCommandFields(c, 21)).setter(new AdviseCommandFields(c, 21)).build());
    spec.addOption(OptionSpec.builder("--calibration")
        .description("Print the performance model against every row it was fitted to instead.")
        .paramLabel("<calibration>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.calibration)
        .getter(new AdviseCommandFields(c, 22)).setter(new AdviseCommandFields(c, 22)).build());
    spec.addOption(OptionSpec.builder("--calibration-file")
        .description("Fit the performance model to this gpufleet bench-sharing JSON instead of the built-in H200 rows; give it again to add another file's rows of the same card (such as a run the advice names).")
        .paramLabel("FILE")
        .type(List.class).auxiliaryTypes(java.nio.file.Path.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.calibrationFiles)
        .getter(new AdviseCommandFields(c, 23)).setter(new AdviseCommandFields(c, 23)).build());
    spec.addOption(OptionSpec.builder("${picocli.help.name.0:--h}", "${picocli.help.name.1:---help}")
        .description("Show this help message and exit.")
        .paramLabel("<helpRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .usageHelp(true)
        .descriptionKey("mixinStandardHelpOptions.help")
        .hasInitialValue(true).initialValue(false).build());
    spec.addOption(OptionSpec.builder("${picocli.version.name.0:--V}", "${picocli.version.name.1:---version}")
        .description("Print version information and exit.")
        .paramLabel("<versionRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .versionHelp(true)
        .descriptionKey("mixinStandardHelpOptions.version")
        .hasInitialValue(true).initialValue(false).build());
    c.spec = spec;
    return spec;
  }

  static CommandSpec lintCommand(LintCommand c) {
    CommandSpec spec = CommandSpec.wrapWithoutInspection(c);
    spec.name("lint");
    spec.usageMessage().description("Checks manifests against the hard-won rules of GPU platforms.", "Each finding names the rule, the object, the field and its file:line:column, why it matters and the fix.", "Exit code 1 when a finding at or above --fail-on exists, 2 for input it cannot read.");
    if (c.input == null) {
      c.input = new ManifestInputOptions();
    }
    if (c.input.cluster == null) {
      c.input.cluster = new ClusterOptions();
    }
    spec.addOption(OptionSpec.builder("-f", "--filename")
        .description("Manifest file, directory (its .json, .yaml and .yml files) or '-' for stdin; YAML (multi-document, kind: List) or JSON. Repeatable.")
        .paramLabel("FILE")
        .type(List.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.filenames)
        .getter(new ManifestInputOptionsFields(c.input, 0)).setter(new ManifestInputOptionsFields(c.input, 0)).build());
    spec.addOption(OptionSpec.builder("-R", "--recursive")
        .description("Read the directories given with -f and their subdirectories, as kubectl -R does.")
        .paramLabel("<recursive>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.recursive)
        .getter(new ManifestInputOptionsFields(c.input, 1)).setter(new ManifestInputOptionsFields(c.input, 1)).build());
    spec.addOption(OptionSpec.builder("--strict")
        .description("Unknown fields in Kubernetes objects are errors (kubectl --validate=strict), not warnings.")
        .paramLabel("<strict>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.strict)
        .getter(new ManifestInputOptionsFields(c.input, 2)).setter(new ManifestInputOptionsFields(c.input, 2)).build());
    spec.addOption(OptionSpec.builder("--gpu-catalog")
        .description("GPU catalogue file in the built-in gpu-catalog.txt format; its models extend or override the built-in ones (docs/models.md).")
        .paramLabel("FILE")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.gpuCatalog)
        .getter(new ManifestInputOptionsFields(c.input, 3)).setter(new ManifestInputOptionsFields(c.input, 3)).build());
    spec.addOption(OptionSpec.builder("--enable-admission-plugins")
        .description("kube-apiserver admission plugins to turn on beside EKS's set, comma-separated, as kube-apiserver's flag (docs/admission.md).")
        .paramLabel("NAMES")
        .splitRegex(",")
        .type(List.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.enableAdmission)
        .getter(new ManifestInputOptionsFields(c.input, 4)).setter(new ManifestInputOptionsFields(c.input, 4)).build());
    spec.addOption(OptionSpec.builder("--disable-admission-plugins")
        .description("Admission plugins of EKS's set to turn off, comma-separated, e.g. ExtendedResourceToleration for a cluster that does not enable it (docs/admission.md).")
        .paramLabel("NAMES")
        .splitRegex(",")
        .type(List.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.disableAdmission)
        .getter(new ManifestInputOptionsFields(c.input, 5)).setter(new ManifestInputOptionsFields(c.input, 5)).build());
    spec.addOption(OptionSpec.builder("--kubeconfig")
        .description("The kubeconfig of a live cluster to read, read-only, through the Kubernetes API (only this file; KUBECONFIG is not read).")
        .paramLabel("FILE")
        .type(java.nio.file.Path.class).auxiliaryTypes(java.nio.file.Path.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.cluster.kubeconfig)
        .getter(new ClusterOptionsFields(c.input.cluster, 0)).setter(new ClusterOptionsFields(c.input.cluster, 0)).build());
    spec.addOption(OptionSpec.builder("--context")
        .description("With --kubeconfig: the context to use (default: its current-context).")
        .paramLabel("NAME")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.cluster.context)
        .getter(new ClusterOptionsFields(c.input.cluster, 1)).setter(new ClusterOptionsFields(c.input.cluster, 1)).build());
    spec.addOption(OptionSpec.builder("-n", "--namespace")
        .description("With --kubeconfig: pods, workloads and PDBs of this namespace only (default: all). Nodes, PriorityClasses and Karpenter's objects are cluster-wide and always read.")
        .paramLabel("NS")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.cluster.namespace)
        .getter(new ClusterOptionsFields(c.input.cluster, 2)).setter(new ClusterOptionsFields(c.input.cluster, 2)).build());
    spec.addOption(OptionSpec.builder("-o", "--output")
        .description("text (default), json or sarif (SARIF 2.1.0).")
        .paramLabel("FORMAT")
        .defaultValue("text")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.output)
        .getter(new LintCommandFields(c, 0)).setter(new LintCommandFields(c, 0)).build());
    spec.addOption(OptionSpec.builder("--fail-on")
        .description("Exit 1 when a finding of this severity or worse exists: info, warning or error (default).")
        .paramLabel("SEVERITY")
        .defaultValue("error")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.failOn)
        .getter(new LintCommandFields(c, 1)).setter(new LintCommandFields(c, 1)).build());
    spec.addOption(OptionSpec.builder("--disable")
        .description("Skip a rule. Repeatable.")
        .paramLabel("RULE")
        .type(List.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.disable)
        .getter(new LintCommandFields(c, 2)).setter(new LintCommandFields(c, 2)).build());
    spec.addOption(OptionSpec.builder("--enable")
        .description("Run a rule that is off by default. Repeatable.")
        .paramLabel("RULE")
        .type(List.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.enable)
        .getter(new LintCommandFields(c, 3)).setter(new LintCommandFields(c, 3)).build());
    spec.addOption(OptionSpec.builder("--list-rules")
        .description("Print every rule's id, severity, default and summary, and exit.")
        .paramLabel("<listRules>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.listRules)
        .getter(new LintCommandFields(c, 4)).setter(new LintCommandFields(c, 4)).build());
    spec.addOption(OptionSpec.builder("${picocli.help.name.0:--h}", "${picocli.help.name.1:---help}")
        .description("Show this help message and exit.")
        .paramLabel("<helpRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .usageHelp(true)
        .descriptionKey("mixinStandardHelpOptions.help")
        .hasInitialValue(true).initialValue(false).build());
    spec.addOption(OptionSpec.builder("${picocli.version.name.0:--V}", "${picocli.version.name.1:---version}")
        .description("Print version information and exit.")
        .paramLabel("<versionRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .versionHelp(true)
        .descriptionKey("mixinStandardHelpOptions.version")
        .hasInitialValue(true).initialValue(false).build());
    c.spec = spec;
    c.input.mixee = spec;
    return spec;
  }

  static CommandSpec serveCommand(ServeCommand c) {
    CommandSpec spec = CommandSpec.wrapWithoutInspection(c);
    spec.name("serve");
    spec.usageMessage().description("Plays a scenario (default: the built-in lab) and serves a dashboard of its run.", "The dashboard shows the cluster at any moment (nodes, GPUs and their sharing, pods), the timeline", "with the scenario's steps, node lifecycle lanes, charts, the event log, and what-if re-runs", "compared side by side.", "Listens on 127.0.0.1 unless --address says otherwise; prints the URL; runs until stopped (Ctrl-C).");
    if (c.input == null) {
      c.input = new ManifestInputOptions();
    }
    if (c.input.cluster == null) {
      c.input.cluster = new ClusterOptions();
    }
    spec.addOption(OptionSpec.builder("-f", "--filename")
        .description("Manifest file, directory (its .json, .yaml and .yml files) or '-' for stdin; YAML (multi-document, kind: List) or JSON. Repeatable.")
        .paramLabel("FILE")
        .type(List.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.filenames)
        .getter(new ManifestInputOptionsFields(c.input, 0)).setter(new ManifestInputOptionsFields(c.input, 0)).build());
    spec.addOption(OptionSpec.builder("-R", "--recursive")
        .description("Read the directories given with -f and their subdirectories, as kubectl -R does.")
        .paramLabel("<recursive>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.recursive)
        .getter(new ManifestInputOptionsFields(c.input, 1)).setter(new ManifestInputOptionsFields(c.input, 1)).build());
    spec.addOption(OptionSpec.builder("--strict")
        .description("Unknown fields in Kubernetes objects are errors (kubectl --validate=strict), not warnings.")
        .paramLabel("<strict>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.strict)
        .getter(new ManifestInputOptionsFields(c.input, 2)).setter(new ManifestInputOptionsFields(c.input, 2)).build());
    spec.addOption(OptionSpec.builder("--gpu-catalog")
        .description("GPU catalogue file in the built-in gpu-catalog.txt format; its models extend or override the built-in ones (docs/models.md).")
        .paramLabel("FILE")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.gpuCatalog)
        .getter(new ManifestInputOptionsFields(c.input, 3)).setter(new ManifestInputOptionsFields(c.input, 3)).build());
    spec.addOption(OptionSpec.builder("--enable-admission-plugins")
        .description("kube-apiserver admission plugins to turn on beside EKS's set, comma-separated, as kube-apiserver's flag (docs/admission.md).")
        .paramLabel("NAMES")
        .splitRegex(",")
        .type(List.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.enableAdmission)
        .getter(new ManifestInputOptionsFields(c.input, 4)).setter(new ManifestInputOptionsFields(c.input, 4)).build());
    spec.addOption(OptionSpec.builder("--disable-admission-plugins")
        .description("Admission plugins of EKS's set to turn off, comma-separated, e.g. ExtendedResourceToleration for a cluster that does not enable it (docs/admission.md).")
        .paramLabel("NAMES")
        .splitRegex(",")
        .type(List.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.disableAdmission)
        .getter(new ManifestInputOptionsFields(c.input, 5)).setter(new ManifestInputOptionsFields(c.input, 5)).build());
    spec.addOption(OptionSpec.builder("--kubeconfig")
        .description("The kubeconfig of a live cluster to read, read-only, through the Kubernetes API (only this file; KUBECONFIG is not read).")
        .paramLabel("FILE")
        .type(java.nio.file.Path.class).auxiliaryTypes(java.nio.file.Path.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.cluster.kubeconfig)
        .getter(new ClusterOptionsFields(c.input.cluster, 0)).setter(new ClusterOptionsFields(c.input.cluster, 0)).build());
    spec.addOption(OptionSpec.builder("--context")
        .description("With --kubeconfig: the context to use (default: its current-context).")
        .paramLabel("NAME")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.cluster.context)
        .getter(new ClusterOptionsFields(c.input.cluster, 1)).setter(new ClusterOptionsFields(c.input.cluster, 1)).build());
    spec.addOption(OptionSpec.builder("-n", "--namespace")
        .description("With --kubeconfig: pods, workloads and PDBs of this namespace only (default: all). Nodes, PriorityClasses and Karpenter's objects are cluster-wide and always read.")
        .paramLabel("NS")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.input.cluster.namespace)
        .getter(new ClusterOptionsFields(c.input.cluster, 2)).setter(new ClusterOptionsFields(c.input.cluster, 2)).build());
    spec.addOption(OptionSpec.builder("--for")
        .description("With -f or --kubeconfig: how long the cluster runs with no changes (default ${DEFAULT-VALUE}).")
        .paramLabel("DURATION")
        .defaultValue("1m")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.runFor)
        .getter(new ServeCommandFields(c, 0)).setter(new ServeCommandFields(c, 0)).build());
    spec.addOption(OptionSpec.builder("--address")
        .description("The address to listen on (default ${DEFAULT-VALUE}: this machine only).")
        .paramLabel("HOST")
        .defaultValue("127.0.0.1")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.address)
        .getter(new ServeCommandFields(c, 1)).setter(new ServeCommandFields(c, 1)).build());
    spec.addOption(OptionSpec.builder("--port")
        .description("The port (default ${DEFAULT-VALUE}; 0 picks a free one).")
        .paramLabel("PORT")
        .defaultValue("8080")
        .type(int.class).auxiliaryTypes(int.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.port)
        .getter(new ServeCommandFields(c, 2)).setter(new ServeCommandFields(c, 2)).build());
    spec.addOption(OptionSpec.builder("${picocli.help.name.0:--h}", "${picocli.help.name.1:---help}")
        .description("Show this help message and exit.")
        .paramLabel("<helpRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .usageHelp(true)
        .descriptionKey("mixinStandardHelpOptions.help")
        .hasInitialValue(true).initialValue(false).build());
    spec.addOption(OptionSpec.builder("${picocli.version.name.0:--V}", "${picocli.version.name.1:---version}")
        .description("Print version information and exit.")
        .paramLabel("<versionRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .versionHelp(true)
        .descriptionKey("mixinStandardHelpOptions.version")
        .hasInitialValue(true).initialValue(false).build());
    spec.addPositional(PositionalParamSpec.builder()
        .index("0")
        .description("The scenario file (default: the lab); or give the cluster's manifests with -f or --kubeconfig.")
        .paramLabel("SCENARIO")
        .arity("0..1")
        .type(java.nio.file.Path.class).auxiliaryTypes(java.nio.file.Path.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.file)
        .getter(new ServeCommandFields(c, 3)).setter(new ServeCommandFields(c, 3)).build());
    c.spec = spec;
    c.input.mixee = spec;
    return spec;
  }

  static CommandSpec probeCommand(ProbeCommand c) {
    CommandSpec spec = CommandSpec.wrapWithoutInspection(c);
    spec.name("probe");
    spec.usageMessage().description("Read this machine's GPUs through NVML and print the labels GPU Feature Discovery would give the node.");
    spec.addOption(OptionSpec.builder("-o", "--output")
        .description("table (default), json (everything NVML reported, with the labels) or yaml (the labels as a Node patch).")
        .paramLabel("FORMAT")
        .defaultValue("table")
        .type(io.gpufleet.cli.ProbeCommand.Output.class).auxiliaryTypes(io.gpufleet.cli.ProbeCommand.Output.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.output)
        .getter(new ProbeCommandFields(c, 0)).setter(new ProbeCommandFields(c, 0)).build());
    spec.addOption(OptionSpec.builder("--nvml-library")
        .description("NVML library to load (default: $GPUFLEET_NVML, else libnvidia-ml.so.1 through the system loader).")
        .paramLabel("PATH")
        .type(java.nio.file.Path.class).auxiliaryTypes(java.nio.file.Path.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.nvmlLibrary)
        .getter(new ProbeCommandFields(c, 1)).setter(new ProbeCommandFields(c, 1)).build());
    spec.addOption(OptionSpec.builder("${picocli.help.name.0:--h}", "${picocli.help.name.1:---help}")
        .description("Show this help message and exit.")
        .paramLabel("<helpRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .usageHelp(true)
        .descriptionKey("mixinStandardHelpOptions.help")
        .hasInitialValue(true).initialValue(false).build());
    spec.addOption(OptionSpec.builder("${picocli.version.name.0:--V}", "${picocli.version.name.1:---version}")
        .description("Print version information and exit.")
        .paramLabel("<versionRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .versionHelp(true)
        .descriptionKey("mixinStandardHelpOptions.version")
        .hasInitialValue(true).initialValue(false).build());
    c.spec = spec;
    return spec;
  }

  static CommandSpec benchSharingCommand(BenchSharingCommand c) {
    CommandSpec spec = CommandSpec.wrapWithoutInspection(c);
    spec.name("bench-sharing");
    spec.usageMessage().description("Measure on this GPU what time-slicing and MPS cost N tenant processes: req/s, p50 and p99 per N.");
    spec.usageMessage().sortOptions(false);
    spec.addOption(OptionSpec.builder("--tenants")
        .description("Tenant counts to run (default: ${DEFAULT-VALUE}).")
        .paramLabel("N")
        .defaultValue("1,2,4,8")
        .splitRegex(",")
        .type(List.class).auxiliaryTypes(Integer.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.tenants)
        .getter(new BenchSharingCommandFields(c, 0)).setter(new BenchSharingCommandFields(c, 0)).build());
    spec.addOption(OptionSpec.builder("--workloads")
        .description("big (memory-bound: 12.9 GB read per request) and/or small (launch-bound: 768 tiny kernels) (default: ${DEFAULT-VALUE}).")
        .paramLabel("NAME")
        .defaultValue("big,small")
        .splitRegex(",")
        .type(List.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.workloads)
        .getter(new BenchSharingCommandFields(c, 1)).setter(new BenchSharingCommandFields(c, 1)).build());
    spec.addOption(OptionSpec.builder("--modes")
        .description("time-slicing, mps (own daemon, no caps), mps-capped (each client at 100/N %% of the SMs, as the device plugin sets it) and/or mps-capped-solo (one client alone at 100/N %%: a replica whose co-tenants are idle) (default: ${DEFAULT-VALUE}).")
        .paramLabel("MODE")
        .defaultValue("time-slicing")
        .splitRegex(",")
        .type(List.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.modes)
        .getter(new BenchSharingCommandFields(c, 2)).setter(new BenchSharingCommandFields(c, 2)).build());
    spec.addOption(OptionSpec.builder("--seconds")
        .description("Measured seconds per run (default: ${DEFAULT-VALUE}).")
        .paramLabel("<seconds>")
        .defaultValue("6")
        .type(double.class).auxiliaryTypes(double.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.seconds)
        .getter(new BenchSharingCommandFields(c, 3)).setter(new BenchSharingCommandFields(c, 3)).build());
    spec.addOption(OptionSpec.builder("--rate")
        .description("Poisson arrivals per second per tenant (open loop); 0 = closed loop (default).")
        .paramLabel("PER_SECOND")
        .defaultValue("0")
        .type(double.class).auxiliaryTypes(double.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.rate)
        .getter(new BenchSharingCommandFields(c, 4)).setter(new BenchSharingCommandFields(c, 4)).build());
    spec.addOption(OptionSpec.builder("--seed")
        .description("Seed of the first tenant's arrivals (default: ${DEFAULT-VALUE}).")
        .paramLabel("<seed>")
        .defaultValue("1")
        .type(long.class).auxiliaryTypes(long.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.seed)
        .getter(new BenchSharingCommandFields(c, 5)).setter(new BenchSharingCommandFields(c, 5)).build());
    spec.addOption(OptionSpec.builder("-o", "--output")
        .description("table (default) or json.")
        .paramLabel("FORMAT")
        .defaultValue("table")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.output)
        .getter(new BenchSharingCommandFields(c, 6)).setter(new BenchSharingCommandFields(c, 6)).build());
    spec.addOption(OptionSpec.builder("--open-loop-check")
        .description("After the closed-loop runs (with mps-capped, also mps-capped-solo), measure per workload and mode a light, a busy and an overloaded open-loop point and print the model's prediction (from the closed-loop rows just measured) beside each, with its error.")
        .paramLabel("<openLoopCheck>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.openLoopCheck)
        .getter(new BenchSharingCommandFields(c, 7)).setter(new BenchSharingCommandFields(c, 7)).build());
    spec.addOption(OptionSpec.builder("--json-file")
        .description("Also write the JSON result here (the form advise's calibration reads).")
        .paramLabel("FILE")
        .type(java.nio.file.Path.class).auxiliaryTypes(java.nio.file.Path.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.jsonFile)
        .getter(new BenchSharingCommandFields(c, 8)).setter(new BenchSharingCommandFields(c, 8)).build());
    spec.addOption(OptionSpec.builder("--nvml-library")
        .description("NVML library (default: $GPUFLEET_NVML, else libnvidia-ml.so.1).")
        .paramLabel("PATH")
        .type(java.nio.file.Path.class).auxiliaryTypes(java.nio.file.Path.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.nvmlLibrary)
        .getter(new BenchSharingCommandFields(c, 9)).setter(new BenchSharingCommandFields(c, 9)).build());
    spec.addOption(OptionSpec.builder("--cuda-library")
        .description("CUDA driver library (default: $GPUFLEET_CUDA, else libcuda.so.1).")
        .paramLabel("PATH")
        .type(java.nio.file.Path.class).auxiliaryTypes(java.nio.file.Path.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.cudaLibrary)
        .getter(new BenchSharingCommandFields(c, 10)).setter(new BenchSharingCommandFields(c, 10)).build());
    spec.addOption(OptionSpec.builder("--mps-control")
        .description("The MPS control program (default: ${DEFAULT-VALUE}).")
        .paramLabel("COMMAND")
        .defaultValue("nvidia-cuda-mps-control")
        .type(String.class).auxiliaryTypes(String.class)
        .descriptionKey("")
        .hasInitialValue(true).initialValue(c.mpsControl)
        .getter(new BenchSharingCommandFields(c, 11)).setter(new BenchSharingCommandFields(c, 11)).build());
    spec.addOption(OptionSpec.builder("${picocli.help.name.0:--h}", "${picocli.help.name.1:---help}")
        .description("Show this help message and exit.")
        .paramLabel("<helpRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .usageHelp(true)
        .descriptionKey("mixinStandardHelpOptions.help")
        .hasInitialValue(true).initialValue(false).build());
    spec.addOption(OptionSpec.builder("${picocli.version.name.0:--V}", "${picocli.version.name.1:---version}")
        .description("Print version information and exit.")
        .paramLabel("<versionRequested>")
        .type(boolean.class).auxiliaryTypes(boolean.class)
        .versionHelp(true)
        .descriptionKey("mixinStandardHelpOptions.version")
        .hasInitialValue(true).initialValue(false).build());
    c.spec = spec;
    return spec;
  }

  /** The option fields of LabCommand, by number. */
  private static final class LabCommandFields implements IGetter, ISetter {
    private final LabCommand o;
    private final int field;

    LabCommandFields(LabCommand o, int field) {
      this.o = o;
      this.field = field;
    }

    @Override
    public <T> T get() {
      return (T) switch (field) {
        case 0 -> (Object) o.step;
        case 1 -> (Object) o.explain;
        case 2 -> (Object) o.report;
        default -> throw new IllegalStateException("no field " + field);
      };
    }

    @Override
    public <T> T set(T value) {
      T old = get();
      switch (field) {
        case 0 -> o.step = (String) value;
        case 1 -> o.explain = (Boolean) value;
        case 2 -> o.report = (java.nio.file.Path) value;
        default -> throw new IllegalStateException("no field " + field);
      }
      return old;
    }
  }

  /** The option fields of WidthOption, by number. */
  private static final class WidthOptionFields implements IGetter, ISetter {
    private final WidthOption o;
    private final int field;

    WidthOptionFields(WidthOption o, int field) {
      this.o = o;
      this.field = field;
    }

    @Override
    public <T> T get() {
      return (T) switch (field) {
        case 0 -> (Object) o.wide;
        default -> throw new IllegalStateException("no field " + field);
      };
    }

    @Override
    public <T> T set(T value) {
      T old = get();
      switch (field) {
        case 0 -> o.wide = (Boolean) value;
        default -> throw new IllegalStateException("no field " + field);
      }
      return old;
    }
  }

  /** The option fields of ManifestInputOptions, by number. */
  private static final class ManifestInputOptionsFields implements IGetter, ISetter {
    private final ManifestInputOptions o;
    private final int field;

    ManifestInputOptionsFields(ManifestInputOptions o, int field) {
      this.o = o;
      this.field = field;
    }

    @Override
    public <T> T get() {
      return (T) switch (field) {
        case 0 -> (Object) o.filenames;
        case 1 -> (Object) o.recursive;
        case 2 -> (Object) o.strict;
        case 3 -> (Object) o.gpuCatalog;
        case 4 -> (Object) o.enableAdmission;
        case 5 -> (Object) o.disableAdmission;
        default -> throw new IllegalStateException("no field " + field);
      };
    }

    @Override
    public <T> T set(T value) {
      T old = get();
      switch (field) {
        case 0 -> o.filenames = (List<java.lang.String>) value;
        case 1 -> o.recursive = (Boolean) value;
        case 2 -> o.strict = (Boolean) value;
        case 3 -> o.gpuCatalog = (String) value;
        case 4 -> o.enableAdmission = (List<java.lang.String>) value;
        case 5 -> o.disableAdmission = (List<java.lang.String>) value;
        default -> throw new IllegalStateException("no field " + field);
      }
      return old;
    }
  }

  /** The option fields of ClusterOptions, by number. */
  private static final class ClusterOptionsFields implements IGetter, ISetter {
    private final ClusterOptions o;
    private final int field;

    ClusterOptionsFields(ClusterOptions o, int field) {
      this.o = o;
      this.field = field;
    }

    @Override
    public <T> T get() {
      return (T) switch (field) {
        case 0 -> (Object) o.kubeconfig;
        case 1 -> (Object) o.context;
        case 2 -> (Object) o.namespace;
        default -> throw new IllegalStateException("no field " + field);
      };
    }

    @Override
    public <T> T set(T value) {
      T old = get();
      switch (field) {
        case 0 -> o.kubeconfig = (java.nio.file.Path) value;
        case 1 -> o.context = (String) value;
        case 2 -> o.namespace = (String) value;
        default -> throw new IllegalStateException("no field " + field);
      }
      return old;
    }
  }

  /** The option fields of SimulateCommand, by number. */
  private static final class SimulateCommandFields implements IGetter, ISetter {
    private final SimulateCommand o;
    private final int field;

    SimulateCommandFields(SimulateCommand o, int field) {
      this.o = o;
      this.field = field;
    }

    @Override
    public <T> T get() {
      return (T) switch (field) {
        case 0 -> (Object) o.runFor;
        case 1 -> (Object) o.outDir;
        case 2 -> (Object) o.seeds;
        case 3 -> (Object) o.threads;
        case 4 -> (Object) o.step;
        case 5 -> (Object) o.explain;
        case 6 -> (Object) o.quiet;
        case 7 -> (Object) o.compare;
        case 8 -> (Object) o.files;
        default -> throw new IllegalStateException("no field " + field);
      };
    }

    @Override
    public <T> T set(T value) {
      T old = get();
      switch (field) {
        case 0 -> o.runFor = (String) value;
        case 1 -> o.outDir = (java.nio.file.Path) value;
        case 2 -> o.seeds = (String) value;
        case 3 -> o.threads = (Integer) value;
        case 4 -> o.step = (String) value;
        case 5 -> o.explain = (Boolean) value;
        case 6 -> o.quiet = (Boolean) value;
        case 7 -> o.compare = (java.nio.file.Path) value;
        case 8 -> o.files = (List<java.nio.file.Path>) value;
        default -> throw new IllegalStateException("no field " + field);
      }
      return old;
    }
  }

  /** The option fields of DraDriverOptions, by number. */
  private static final class DraDriverOptionsFields implements IGetter, ISetter {
    private final DraDriverOptions o;
    private final int field;

    DraDriverOptionsFields(DraDriverOptions o, int field) {
      this.o = o;
      this.field = field;
    }

    @Override
    public <T> T get() {
      return (T) switch (field) {
        case 0 -> (Object) o.draFeatureGates;
        default -> throw new IllegalStateException("no field " + field);
      };
    }

    @Override
    public <T> T set(T value) {
      T old = get();
      switch (field) {
        case 0 -> o.draFeatureGates = (String) value;
        default -> throw new IllegalStateException("no field " + field);
      }
      return old;
    }
  }

  /** The option fields of ScheduleCommand, by number. */
  private static final class ScheduleCommandFields implements IGetter, ISetter {
    private final ScheduleCommand o;
    private final int field;

    ScheduleCommandFields(ScheduleCommand o, int field) {
      this.o = o;
      this.field = field;
    }

    @Override
    public <T> T get() {
      return (T) switch (field) {
        case 0 -> (Object) o.output;
        case 1 -> (Object) o.config;
        case 2 -> (Object) o.scoring;
        case 3 -> (Object) o.percentage;
        case 4 -> (Object) o.seed;
        case 5 -> (Object) o.explain;
        default -> throw new IllegalStateException("no field " + field);
      };
    }

    @Override
    public <T> T set(T value) {
      T old = get();
      switch (field) {
        case 0 -> o.output = (String) value;
        case 1 -> o.config = (java.nio.file.Path) value;
        case 2 -> o.scoring = (String) value;
        case 3 -> o.percentage = (Integer) value;
        case 4 -> o.seed = (Long) value;
        case 5 -> o.explain = (Boolean) value;
        default -> throw new IllegalStateException("no field " + field);
      }
      return old;
    }
  }

  /** The option fields of NodeCommand.Describe, by number. */
  private static final class NodeCommandDescribeFields implements IGetter, ISetter {
    private final NodeCommand.Describe o;
    private final int field;

    NodeCommandDescribeFields(NodeCommand.Describe o, int field) {
      this.o = o;
      this.field = field;
    }

    @Override
    public <T> T get() {
      return (T) switch (field) {
        case 0 -> (Object) o.only;
        default -> throw new IllegalStateException("no field " + field);
      };
    }

    @Override
    public <T> T set(T value) {
      T old = get();
      switch (field) {
        case 0 -> o.only = (String) value;
        default -> throw new IllegalStateException("no field " + field);
      }
      return old;
    }
  }

  /** The option fields of SmiCommand, by number. */
  private static final class SmiCommandFields implements IGetter, ISetter {
    private final SmiCommand o;
    private final int field;

    SmiCommandFields(SmiCommand o, int field) {
      this.o = o;
      this.field = field;
    }

    @Override
    public <T> T get() {
      return (T) switch (field) {
        case 0 -> (Object) o.seed;
        default -> throw new IllegalStateException("no field " + field);
      };
    }

    @Override
    public <T> T set(T value) {
      T old = get();
      switch (field) {
        case 0 -> o.seed = (Long) value;
        default -> throw new IllegalStateException("no field " + field);
      }
      return old;
    }
  }

  /** The option fields of WhenCommand, by number. */
  private static final class WhenCommandFields implements IGetter, ISetter {
    private final WhenCommand o;
    private final int field;

    WhenCommandFields(WhenCommand o, int field) {
      this.o = o;
      this.field = field;
    }

    @Override
    public <T> T get() {
      return (T) switch (field) {
        case 0 -> (Object) o.within;
        case 1 -> (Object) o.seeds;
        case 2 -> (Object) o.output;
        case 3 -> (Object) o.job;
        default -> throw new IllegalStateException("no field " + field);
      };
    }

    @Override
    public <T> T set(T value) {
      T old = get();
      switch (field) {
        case 0 -> o.within = (String) value;
        case 1 -> o.seeds = (String) value;
        case 2 -> o.output = (String) value;
        case 3 -> o.job = (java.nio.file.Path) value;
        default -> throw new IllegalStateException("no field " + field);
      }
      return old;
    }
  }

  /** The option fields of ImportCommand, by number. */
  private static final class ImportCommandFields implements IGetter, ISetter {
    private final ImportCommand o;
    private final int field;

    ImportCommandFields(ImportCommand o, int field) {
      this.o = o;
      this.field = field;
    }

    @Override
    public <T> T get() {
      return (T) switch (field) {
        case 0 -> (Object) o.output;
        default -> throw new IllegalStateException("no field " + field);
      };
    }

    @Override
    public <T> T set(T value) {
      T old = get();
      switch (field) {
        case 0 -> o.output = (java.nio.file.Path) value;
        default -> throw new IllegalStateException("no field " + field);
      }
      return old;
    }
  }

  /** The option fields of ReplayCommand.Openb, by number. */
  private static final class ReplayCommandOpenbFields implements IGetter, ISetter {
    private final ReplayCommand.Openb o;
    private final int field;

    ReplayCommandOpenbFields(ReplayCommand.Openb o, int field) {
      this.o = o;
      this.field = field;
    }

    @Override
    public <T> T get() {
      return (T) switch (field) {
        case 0 -> (Object) o.pods;
        case 1 -> (Object) o.policy;
        case 2 -> (Object) o.seed;
        case 3 -> (Object) o.seeds;
        case 4 -> (Object) o.sweep;
        case 5 -> (Object) o.variants;
        case 6 -> (Object) o.policies;
        case 7 -> (Object) o.threads;
        case 8 -> (Object) o.data;
        case 9 -> (Object) o.out;
        default -> throw new IllegalStateException("no field " + field);
      };
    }

    @Override
    public <T> T set(T value) {
      T old = get();
      switch (field) {
        case 0 -> o.pods = (String) value;
        case 1 -> o.policy = (String) value;
        case 2 -> o.seed = (String) value;
        case 3 -> o.seeds = (String) value;
        case 4 -> o.sweep = (Boolean) value;
        case 5 -> o.variants = (String) value;
        case 6 -> o.policies = (String) value;
        case 7 -> o.threads = (Integer) value;
        case 8 -> o.data = (java.nio.file.Path) value;
        case 9 -> o.out = (java.nio.file.Path) value;
        default -> throw new IllegalStateException("no field " + field);
      }
      return old;
    }
  }

  /** The option fields of AdviseCommand, by number. */
  private static final class AdviseCommandFields implements IGetter, ISetter {
    private final AdviseCommand o;
    private final int field;

    AdviseCommandFields(AdviseCommand o, int field) {
      this.o = o;
      this.field = field;
    }

    @Override
    public <T> T get() {
      return (T) switch (field) {
        case 0 -> (Object) o.files;
        case 1 -> (Object) o.gpu;
        case 2 -> (Object) o.name;
        case 3 -> (Object) o.kind;
        case 4 -> (Object) o.tenants;
        case 5 -> (Object) o.modelParams;
        case 6 -> (Object) o.bytesPerParam;
        case 7 -> (Object) o.tokens;
        case 8 -> (Object) o.kernels;
        case 9 -> (Object) o.measuredLatency;
        case 10 -> (Object) o.measuredThroughput;
        case 11 -> (Object) o.measuredOn;
        case 12 -> (Object) o.bound;
        case 13 -> (Object) o.memory;
        case 14 -> (Object) o.rate;
        case 15 -> (Object) o.burstiness;
        case 16 -> (Object) o.sloP99;
        case 17 -> (Object) o.trust;
        case 18 -> (Object) o.cpu;
        case 19 -> (Object) o.hostMemory;
        case 20 -> (Object) o.output;
        case 21 -> (Object) o.out;
        case 22 -> (Object) o.calibration;
        case 23 -> (Object) o.calibrationFiles;
        default -> throw new IllegalStateException("no field " + field);
      };
    }

    @Override
    public <T> T set(T value) {
      T old = get();
      switch (field) {
        case 0 -> o.files = (List<java.nio.file.Path>) value;
        case 1 -> o.gpu = (String) value;
        case 2 -> o.name = (String) value;
        case 3 -> o.kind = (String) value;
        case 4 -> o.tenants = (String) value;
        case 5 -> o.modelParams = (String) value;
        case 6 -> o.bytesPerParam = (String) value;
        case 7 -> o.tokens = (String) value;
        case 8 -> o.kernels = (String) value;
        case 9 -> o.measuredLatency = (String) value;
        case 10 -> o.measuredThroughput = (String) value;
        case 11 -> o.measuredOn = (String) value;
        case 12 -> o.bound = (String) value;
        case 13 -> o.memory = (String) value;
        case 14 -> o.rate = (String) value;
        case 15 -> o.burstiness = (String) value;
        case 16 -> o.sloP99 = (String) value;
        case 17 -> o.trust = (String) value;
        case 18 -> o.cpu = (String) value;
        case 19 -> o.hostMemory = (String) value;
        case 20 -> o.output = (String) value;
        case 21 -> o.out = (java.nio.file.Path) value;
        case 22 -> o.calibration = (Boolean) value;
        case 23 -> o.calibrationFiles = (List<java.nio.file.Path>) value;
        default -> throw new IllegalStateException("no field " + field);
      }
      return old;
    }
  }

  /** The option fields of LintCommand, by number. */
  private static final class LintCommandFields implements IGetter, ISetter {
    private final LintCommand o;
    private final int field;

    LintCommandFields(LintCommand o, int field) {
      this.o = o;
      this.field = field;
    }

    @Override
    public <T> T get() {
      return (T) switch (field) {
        case 0 -> (Object) o.output;
        case 1 -> (Object) o.failOn;
        case 2 -> (Object) o.disable;
        case 3 -> (Object) o.enable;
        case 4 -> (Object) o.listRules;
        default -> throw new IllegalStateException("no field " + field);
      };
    }

    @Override
    public <T> T set(T value) {
      T old = get();
      switch (field) {
        case 0 -> o.output = (String) value;
        case 1 -> o.failOn = (String) value;
        case 2 -> o.disable = (List<java.lang.String>) value;
        case 3 -> o.enable = (List<java.lang.String>) value;
        case 4 -> o.listRules = (Boolean) value;
        default -> throw new IllegalStateException("no field " + field);
      }
      return old;
    }
  }

  /** The option fields of ServeCommand, by number. */
  private static final class ServeCommandFields implements IGetter, ISetter {
    private final ServeCommand o;
    private final int field;

    ServeCommandFields(ServeCommand o, int field) {
      this.o = o;
      this.field = field;
    }

    @Override
    public <T> T get() {
      return (T) switch (field) {
        case 0 -> (Object) o.runFor;
        case 1 -> (Object) o.address;
        case 2 -> (Object) o.port;
        case 3 -> (Object) o.file;
        default -> throw new IllegalStateException("no field " + field);
      };
    }

    @Override
    public <T> T set(T value) {
      T old = get();
      switch (field) {
        case 0 -> o.runFor = (String) value;
        case 1 -> o.address = (String) value;
        case 2 -> o.port = (Integer) value;
        case 3 -> o.file = (java.nio.file.Path) value;
        default -> throw new IllegalStateException("no field " + field);
      }
      return old;
    }
  }

  /** The option fields of ProbeCommand, by number. */
  private static final class ProbeCommandFields implements IGetter, ISetter {
    private final ProbeCommand o;
    private final int field;

    ProbeCommandFields(ProbeCommand o, int field) {
      this.o = o;
      this.field = field;
    }

    @Override
    public <T> T get() {
      return (T) switch (field) {
        case 0 -> (Object) o.output;
        case 1 -> (Object) o.nvmlLibrary;
        default -> throw new IllegalStateException("no field " + field);
      };
    }

    @Override
    public <T> T set(T value) {
      T old = get();
      switch (field) {
        case 0 -> o.output = (io.gpufleet.cli.ProbeCommand.Output) value;
        case 1 -> o.nvmlLibrary = (java.nio.file.Path) value;
        default -> throw new IllegalStateException("no field " + field);
      }
      return old;
    }
  }

  /** The option fields of BenchSharingCommand, by number. */
  private static final class BenchSharingCommandFields implements IGetter, ISetter {
    private final BenchSharingCommand o;
    private final int field;

    BenchSharingCommandFields(BenchSharingCommand o, int field) {
      this.o = o;
      this.field = field;
    }

    @Override
    public <T> T get() {
      return (T) switch (field) {
        case 0 -> (Object) o.tenants;
        case 1 -> (Object) o.workloads;
        case 2 -> (Object) o.modes;
        case 3 -> (Object) o.seconds;
        case 4 -> (Object) o.rate;
        case 5 -> (Object) o.seed;
        case 6 -> (Object) o.output;
        case 7 -> (Object) o.openLoopCheck;
        case 8 -> (Object) o.jsonFile;
        case 9 -> (Object) o.nvmlLibrary;
        case 10 -> (Object) o.cudaLibrary;
        case 11 -> (Object) o.mpsControl;
        default -> throw new IllegalStateException("no field " + field);
      };
    }

    @Override
    public <T> T set(T value) {
      T old = get();
      switch (field) {
        case 0 -> o.tenants = (List<java.lang.Integer>) value;
        case 1 -> o.workloads = (List<java.lang.String>) value;
        case 2 -> o.modes = (List<java.lang.String>) value;
        case 3 -> o.seconds = (Double) value;
        case 4 -> o.rate = (Double) value;
        case 5 -> o.seed = (Long) value;
        case 6 -> o.output = (String) value;
        case 7 -> o.openLoopCheck = (Boolean) value;
        case 8 -> o.jsonFile = (java.nio.file.Path) value;
        case 9 -> o.nvmlLibrary = (java.nio.file.Path) value;
        case 10 -> o.cudaLibrary = (java.nio.file.Path) value;
        case 11 -> o.mpsControl = (String) value;
        default -> throw new IllegalStateException("no field " + field);
      }
      return old;
    }
  }
}
