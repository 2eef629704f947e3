package io.gpufleet.cli;

import io.gpufleet.engine.advise.Advice;
import io.gpufleet.engine.advise.AdvicePolicy;
import io.gpufleet.engine.advise.Advisor;
import io.gpufleet.engine.perf.Calibration;
import io.gpufleet.engine.perf.CalibrationFit;
import io.gpufleet.engine.perf.MeasurementReplay;
import io.gpufleet.engine.perf.SharingCurves;
import io.gpufleet.engine.perf.SharingModel;
import io.gpufleet.manifest.advise.ProfileDraft;
import io.gpufleet.manifest.advise.ProfileSet;
import io.gpufleet.manifest.advise.ProfileValues;
import io.gpufleet.manifest.advise.WorkloadProfileReader;
import io.gpufleet.model.advise.Boundness;
import io.gpufleet.model.advise.Burstiness;
import io.gpufleet.model.advise.GpuNodeOffers;
import io.gpufleet.model.advise.H200Measurement;
import io.gpufleet.model.advise.MeasuredSharing;
import io.gpufleet.model.advise.Trust;
import io.gpufleet.model.advise.WorkloadKind;
import io.gpufleet.model.advise.WorkloadProfile;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.nvml.bench.SharingMeasurement;
import io.gpufleet.report.advise.AdviceReport;
import io.gpufleet.report.advise.CalibrationReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gpufleet advise}: ranks exclusive GPUs, time-slicing, MPS and MIG (and MIG instances
 * time-sliced or MPS-shared) for workload profiles on a GPU type, and says which to choose and why.
 */
@Command(name = "advise", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Picks exclusive, time-slicing, MIG or MPS for your workloads, and defends the choice.",
        "Ranks the ways to share a GPU type among workloads: GPUs and nodes needed, monthly cost,",
        "predicted p50/p99 per replica against the SLO, utilisation and risks; then recommends one",
        "and defends it. Profiles come from -f files (kind: WorkloadProfile, see examples/advise/)",
        "or, for one workload, from the flags below."})
final class AdviseCommand implements Callable<Integer> {

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = {"-f", "--filename"}, paramLabel = "FILE", description = "WorkloadProfile YAML. Repeatable.")
  List<Path> files = new ArrayList<>();

  @Option(names = "--gpu", paramLabel = "GPU", description = "GPU type: A10G, L4, L40S, A100-80GB, H100, H200, ... (overrides spec.gpu); "
      + "'any' compares every GPU type the instance catalogue prices.")
  String gpu;

  @Option(names = "--name", paramLabel = "NAME", description = "Workload name (default: workload).")
  String name;

  @Option(names = "--kind", paramLabel = "KIND", description = "inference, notebook, dev or batch (default: inference).")
  String kind;

  @Option(names = "--tenants", paramLabel = "N", description = "Replicas (tenants) of the workload (default: 1).")
  String tenants;

  @Option(names = "--model-params", paramLabel = "COUNT", description = "Model parameters, e.g. 1.5B: a request streams the weights once per token.")
  String modelParams;

  @Option(names = "--bytes-per-param", paramLabel = "B", description = "Bytes per parameter (default: 2, bf16).")
  String bytesPerParam;

  @Option(names = "--tokens", paramLabel = "N", description = "Decode steps per request (default: 1).")
  String tokens;

  @Option(names = "--kernels", paramLabel = "N", description = "Kernel launches per request, for a launch-bound workload.")
  String kernels;

  @Option(names = "--measured-latency", paramLabel = "DURATION", description = "Mean latency of a request alone on --measured-on, e.g. 250ms.")
  String measuredLatency;

  @Option(names = "--measured-throughput", paramLabel = "R", description = "Or: requests per second of the workload alone on --measured-on, back to back.")
  String measuredThroughput;

  @Option(names = "--measured-on", paramLabel = "GPU", description = "The GPU --measured-latency was measured on.")
  String measuredOn;

  @Option(names = "--bound", paramLabel = "memory|launch", description = "What limits a measured request (default: memory).")
  String bound;

  @Option(names = "--memory", paramLabel = "QTY", description = "GPU memory per replica, e.g. 4Gi (default for --model-params: weights + 1Gi).")
  String memory;

  @Option(names = "--rate", paramLabel = "R", description = "Requests per second per replica.")
  String rate;

  @Option(names = "--burstiness", paramLabel = "B", description = "poisson, bursty, or the inter-arrival SCV (default: poisson; bursty for notebook/dev).")
  String burstiness;

  @Option(names = "--slo-p99", paramLabel = "DURATION", description = "p99 latency objective, e.g. 50ms.")
  String sloP99;

  @Option(names = "--trust", paramLabel = "T", description = "trusted or untrusted tenants (default: trusted).")
  String trust;

  @Option(names = "--cpu", paramLabel = "QTY", description = "CPU each replica requests from its node, e.g. 1 or 500m.")
  String cpu;

  @Option(names = "--host-memory", paramLabel = "QTY", description = "Memory each replica requests from its node, e.g. 4Gi.")
  String hostMemory;

  @Option(names = {"-o", "--output"}, defaultValue = "table", paramLabel = "FORMAT", description = "table (default), json or html.")
  String output;

  @picocli.CommandLine.Mixin WidthOption width;

  @Option(names = "--out", paramLabel = "FILE", description = "Write the output to FILE instead of stdout.")
  Path out;

  @Option(names = "--calibration", description = "Print the performance model against every row it was fitted to instead.")
  boolean calibration;

  @Option(names = "--calibration-file", paramLabel = "FILE",
      description = "Fit the performance model to this gpufleet bench-sharing JSON instead of the built-in H200 rows; give it again to add another file's rows of the same card (such as a run the advice names).")
  List<Path> calibrationFiles;

  /** Which flag a profile field comes from, for one-line errors. */
  private static final Map<String, String> FLAG_OF = Map.of(
      "spec.request", "--model-params, --kernels or --measured-latency",
      "spec.request.measured.gpu", "--measured-on",
      "spec.load.rate", "--rate",
      "spec.memory", "--memory",
      "spec", "profile");

  @Override
  public Integer call() {
    if (!List.of("table", "json", "html").contains(output)) {
      throw new UserError("--output: expected table, json or html, found \"" + output + "\"");
    }
    GpuCatalog catalog = GpuCatalog.builtIn();
    boolean builtIn = calibrationFiles == null || calibrationFiles.isEmpty();
    MeasuredSharing measured = builtIn ? H200Measurement.builtIn() : readCalibration(catalog);
    CalibrationFit.Fitted fit = builtIn
        ? new CalibrationFit.Fitted(Calibration.H200_2026_11_30, List.of()) : fit(measured, catalog);
    Calibration fitted = fit.calibration();
    // A user's file also gives its card's own contention to open-loop tenants there (MeasuredQueueing).
    SharingModel sharing = builtIn ? new SharingModel(fitted)
        : new SharingModel(fitted, Optional.of(new SharingCurves(measured.gpu(), measured.rows(), measured.lone())));
    List<String> notes = calibrationNotes(fit, sharing);
    if (calibration) {
      var replay = new MeasurementReplay(new SharingModel(fitted), catalog);
      // The open-loop runs kept aside are the H200's; a user's file is checked on its own rows.
      emit(CalibrationReport.text(measured.source(), fitted, replay.closedLoop(measured),
          builtIn ? replay.openLoop() : List.of())
          + (notes.isEmpty() ? "" : "\nNOT MEASURED IN THIS FILE\n" + notes.stream().map(n -> "* " + n + "\n")
              .collect(java.util.stream.Collectors.joining())));
      return ExitCodes.OK;
    }
    ProfileSet given = files.isEmpty() ? fromFlags() : fromFiles();
    int inAll = given.profiles().stream().mapToInt(WorkloadProfile::replicas).sum();
    if (inAll > WorkloadProfile.MAX_REPLICAS_IN_ALL) {
      throw new UserError("the workloads have " + inAll + " replicas in all; advise takes at most "
          + WorkloadProfile.MAX_REPLICAS_IN_ALL + " (docs/advise.md, \"Input limits\")");
    }
    List<String> assumptions = new ArrayList<>(given.assumptions());
    assumptions.add("Calibration: fitted to " + measured.source() + ".");
    notes.forEach(n -> assumptions.add("Calibration: " + n + "."));
    ProfileSet set = new ProfileSet(given.profiles(), given.gpu(), given.gpuAt(), assumptions);
    Advisor advisor = new Advisor(sharing, catalog, GpuNodeOffers.aws(), AdvicePolicy.DEFAULT);
    if ("any".equalsIgnoreCase(gpu)) {
      List<Advice> byGpu = advisor.acrossGpus(set.profiles(), catalog.models(), set.assumptions());
      emit(switch (output) {
        case "json" -> AdviceReport.comparisonJson(byGpu);
        case "html" -> AdviceReport.html(byGpu.getFirst());
        default -> AdviceReport.comparisonText(byGpu, width.columns());
      });
      return ExitCodes.OK;
    }
    String gpuName = gpu != null ? gpu : set.gpu().orElseThrow(
        () -> new UserError("--gpu: required (no profile names spec.gpu)"));
    GpuModel model = catalog.find(gpuName).orElseThrow(() -> new UserError("--gpu: unknown GPU \"" + gpuName
        + "\"; known: " + String.join(", ", catalog.models().stream().map(GpuModel::id).toList())));
    if (model.bandwidthGBps().isEmpty() || model.memoryMiB().isEmpty()) {
      throw new UserError("--gpu: the memory size or bandwidth of " + model.id() + " is not known, so its sharing cannot be modelled");
    }
    Advice advice = advisor.advise(set.profiles(), model, set.assumptions());
    emit(switch (output) {
      case "json" -> AdviceReport.json(advice);
      case "html" -> AdviceReport.html(advice);
      default -> AdviceReport.text(advice, width.columns());
    });
    return ExitCodes.OK;
  }

  /** The bench-sharing files; a problem in one names the file and where, and exits 2. */
  private MeasuredSharing readCalibration(GpuCatalog catalog) {
    LinkedHashMap<String, String> texts = new LinkedHashMap<>();
    for (Path f : calibrationFiles) {
      try {
        texts.put(f.toString(), Files.readString(f, StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new UserError("--calibration-file " + f + ": cannot read: "
            + (e instanceof NoSuchFileException ? "no such file" : e.getMessage()));
      }
    }
    try {
      MeasuredSharing m = SharingMeasurement.calibration(texts);
      if (catalog.byId(m.gpu()).filter(g -> g.bandwidthGBps().isPresent()).isEmpty()) {
        throw new UserError(calibrationFiles.getFirst() + ": card.catalogId: expected a GPU of the catalogue with a known "
            + "bandwidth, found \"" + m.gpu() + "\"");
      }
      return m;
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    }
  }

  private CalibrationFit.Fitted fit(MeasuredSharing m, GpuCatalog catalog) {
    try {
      return CalibrationFit.fitWhatIsMeasured(m, catalog);
    } catch (IllegalArgumentException e) {
      throw new UserError(String.join(" + ", calibrationFiles.stream().map(Path::toString).toList())
          + ": closedLoop: cannot fit the model: " + e.getMessage());
    }
  }

  /**
   * What a calibration file leaves to the built-in constants, and what the card's own rows do not
   * cover, each with the {@code bench-sharing} run that measures it.
   */
  private List<String> calibrationNotes(CalibrationFit.Fitted fit, SharingModel sharing) {
    List<String> notes = new ArrayList<>();
    for (CalibrationFit.Gap g : fit.gaps()) {
      notes.add(g.constant() + " is " + g.kept() + " (the file has no " + g.missing() + "), so "
          + g.rests() + " rest on it; measure: " + g.command());
    }
    sharing.measured().ifPresent(m -> notes.addAll(m.uncovered(8)));
    return notes;
  }

  private void emit(String text) {
    PrintWriter stdout = spec.commandLine().getOut();
    if (out == null) {
      stdout.print(text);
    } else {
      // As simulate and replay do with --out: the folder is made if it is not there yet.
      OutputFiles.writeOne(out, text);
      stdout.println("wrote " + out);
    }
    stdout.flush();
  }

  private ProfileSet fromFiles() {
    List<String> given = profileFlagsGiven();
    if (!given.isEmpty()) {
      throw new UserError(given.getFirst() + ": give the workload by -f or by flags, not both");
    }
    return new WorkloadProfileReader().read(files);
  }

  private List<String> profileFlagsGiven() {
    List<String> given = new ArrayList<>();
    String[][] flags = {{"--name", name}, {"--kind", kind}, {"--tenants", tenants}, {"--model-params", modelParams},
        {"--bytes-per-param", bytesPerParam}, {"--tokens", tokens}, {"--kernels", kernels},
        {"--measured-latency", measuredLatency}, {"--measured-throughput", measuredThroughput}, {"--measured-on", measuredOn}, {"--bound", bound}, {"--memory", memory},
        {"--rate", rate}, {"--burstiness", burstiness}, {"--slo-p99", sloP99}, {"--trust", trust}, {"--cpu", cpu},
        {"--host-memory", hostMemory}};
    for (String[] f : flags) {
      if (f[1] != null) {
        given.add(f[0]);
      }
    }
    return given;
  }

  private ProfileSet fromFlags() {
    if (gpu == null) {
      throw new UserError("--gpu: required (or give -f profile.yaml)");
    }
    ProfileDraft d = new ProfileDraft();
    d.name = name;
    d.kind = parse("--kind", kind, WorkloadKind::parse, "inference, notebook, dev or batch");
    d.replicas = tenants == null ? null : positiveInt("--tenants", tenants);
    if (d.replicas != null && d.replicas > WorkloadProfile.MAX_REPLICAS_IN_ALL) {
      throw new UserError("--tenants: expected 1 to " + WorkloadProfile.MAX_REPLICAS_IN_ALL
          + " (advise's limit), found " + d.replicas);
    }
    d.parameters = dbl("--model-params", modelParams, ProfileValues::count, "a parameter count such as 1.5B");
    d.bytesPerParameter = dbl("--bytes-per-param", bytesPerParam, ProfileValues::positive, "a positive number");
    d.tokens = tokens == null ? null : positiveInt("--tokens", tokens);
    d.kernels = kernels == null ? null : positiveInt("--kernels", kernels);
    d.measuredLatencyMs = dbl("--measured-latency", measuredLatency, ProfileValues::milliseconds, "a duration such as 250ms");
    Double alone = dbl("--measured-throughput", measuredThroughput, ProfileValues::positive, "requests per second, such as 270");
    if (alone != null) {
      if (d.measuredLatencyMs != null) {
        throw new UserError("--measured-throughput: give --measured-latency or --measured-throughput, not both");
      }
      d.measuredLatencyMs = 1000 / alone;
    }
    if (measuredOn != null) {
      GpuCatalog.builtIn().find(measuredOn).orElseThrow(() -> new UserError("--measured-on: unknown GPU \"" + measuredOn + "\""));
      d.measuredGpu = measuredOn;
    }
    d.measuredBound = parse("--bound", bound, Boundness::parse, "memory or launch");
    d.memoryMiB = lng("--memory", memory, ProfileValues::mebibytes, "a memory quantity such as 4Gi");
    d.rate = dbl("--rate", rate, ProfileValues::positive, "requests per second, such as 5 or 0.5");
    d.burstiness = parse("--burstiness", burstiness, Burstiness::parse, "poisson, bursty or an inter-arrival SCV in [0.01, 100]");
    d.sloP99Ms = dbl("--slo-p99", sloP99, ProfileValues::milliseconds, "a duration such as 50ms");
    d.trust = parse("--trust", trust, Trust::parse, "trusted or untrusted");
    Long c = lng("--cpu", cpu, ProfileValues::millicores, "a CPU quantity such as 1 or 500m");
    d.cpuMillis = c == null ? 0 : c;
    Long h = lng("--host-memory", hostMemory, ProfileValues::mebibytes, "a memory quantity such as 4Gi");
    d.hostMemoryMiB = h == null ? 0 : h;
    List<String> assumptions = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    Optional<WorkloadProfile> p = d.build((field, message) -> problems.add(FLAG_OF.getOrDefault(field, field) + ": " + message),
        assumptions);
    if (p.isEmpty()) {
      throw new UserError(problems.getFirst());
    }
    return new ProfileSet(List.of(p.get()), Optional.of(gpu), Optional.empty(), assumptions);
  }

  private static <T> T parse(String flag, String text, Function<String, Optional<T>> parser, String expected) {
    if (text == null) {
      return null;
    }
    return parser.apply(text).orElseThrow(() -> new UserError(flag + ": expected " + expected + ", found \"" + text + "\""));
  }

  private static Double dbl(String flag, String text, Function<String, OptionalDouble> parser, String expected) {
    if (text == null) {
      return null;
    }
    OptionalDouble v = parser.apply(text);
    if (v.isEmpty()) {
      throw new UserError(flag + ": expected " + expected + ", found \"" + text + "\"");
    }
    return v.getAsDouble();
  }

  private static Long lng(String flag, String text, Function<String, OptionalLong> parser, String expected) {
    if (text == null) {
      return null;
    }
    OptionalLong v = parser.apply(text);
    if (v.isEmpty()) {
      throw new UserError(flag + ": expected " + expected + ", found \"" + text + "\"");
    }
    return v.getAsLong();
  }

  private static int positiveInt(String flag, String text) {
    try {
      int v = Integer.parseInt(text.strip());
      if (v >= 1) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UserError(flag + ": expected a whole number of at least 1, found \"" + text + "\"");
  }
}
