package io.gpufleet.cli;

import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.nvml.GpuFacts;
import io.gpufleet.nvml.GpuUnavailable;
import io.gpufleet.nvml.NodeFacts;
import io.gpufleet.nvml.NodeProbe;
import io.gpufleet.nvml.NvmlException;
import io.gpufleet.nvml.NvmlLibrary;
import io.gpufleet.nvml.ProbeDocument;
import io.gpufleet.nvml.ProbeLabels;
import io.gpufleet.report.table.Table;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** {@code gpufleet probe}: this machine's GPUs through NVML, and the labels GFD would give the node. */
@Command(name = "probe", mixinStandardHelpOptions = true,
    description = "Read this machine's GPUs through NVML and print the labels GPU Feature Discovery would give the node.")
public final class ProbeCommand implements Callable<Integer> {

  /** What {@code -o} accepts. */
  enum Output { table, json, yaml }

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = {"-o", "--output"}, defaultValue = "table", paramLabel = "FORMAT",
      description = "table (default), json (everything NVML reported, with the labels) or yaml (the labels as a Node patch).")
  Output output;

  @Option(names = "--nvml-library", paramLabel = "PATH",
      description = "NVML library to load (default: $GPUFLEET_NVML, else libnvidia-ml.so.1 through the system loader).")
  Path nvmlLibrary;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    NodeFacts facts;
    try (NvmlLibrary nvml = NvmlLibrary.open(Optional.ofNullable(nvmlLibrary), System.getenv())) {
      facts = NodeProbe.read(nvml);
    } catch (GpuUnavailable | NvmlException e) {
      err.println("gpufleet probe: " + e.getMessage());
      err.flush();
      return ExitCodes.NO_GPU;
    }
    ProbeLabels labels = ProbeLabels.of(facts, GpuCatalog.builtIn());
    labels.warnings().forEach(w -> err.println("gpufleet probe: warning: " + w));
    err.flush();
    out.print(render(facts, labels, output));
    out.flush();
    return ExitCodes.OK;
  }

  static String render(NodeFacts facts, ProbeLabels labels, Output output) {
    return switch (output) {
      case json -> JsonMapper.builder().build().writerWithDefaultPrettyPrinter()
          .writeValueAsString(ProbeDocument.full(facts, labels)) + "\n";
      case yaml -> YAMLMapper.builder().build().writeValueAsString(ProbeDocument.labelsPatch(labels));
      case table -> table(facts, labels);
    };
  }

  private static String table(NodeFacts facts, ProbeLabels labels) {
    Table gpus = Table.of("gpu", "name", "uuid", "memory", "compute", "mig current/pending", "compute mode",
        "util gpu/mem");
    for (GpuFacts g : facts.gpus()) {
      gpus = gpus.row(g.index(), g.name(), g.uuid(), g.memoryMiB() + "MiB",
          g.compute().major() + "." + g.compute().minor(),
          g.mig().map(m -> ProbeDocument.enabled(m.current()) + "/" + ProbeDocument.enabled(m.pending()))
              .orElse("N/A") + (g.migDevices().isEmpty() ? "" : " (" + g.migDevices().size() + " MIG devices)"),
          g.computeMode().smiName(),
          g.utilization().map(u -> u.gpuPercent() + "%/" + u.memoryPercent() + "%").orElse("N/A"));
    }
    Table l = Table.of("label", "value");
    for (var e : labels.labels().map().entrySet()) {
      l = l.row(e.getKey(), e.getValue());
    }
    return "Driver " + facts.driverVersion() + "\n\n" + gpus.render() + "\nGFD labels ("
        + labels.catalogEntry().map(id -> "catalogue entry " + id).orElse("not in the catalogue")
        + "; device plugin defaults):\n" + l.render();
  }
}
