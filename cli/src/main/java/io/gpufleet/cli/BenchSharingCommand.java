package io.gpufleet.cli;

import io.gpufleet.engine.perf.OpenLoopCheck;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.nvml.GpuFacts;
import io.gpufleet.nvml.GpuUnavailable;
import io.gpufleet.nvml.NodeFacts;
import io.gpufleet.nvml.NodeProbe;
import io.gpufleet.nvml.NvmlException;
import io.gpufleet.nvml.NvmlLibrary;
import io.gpufleet.nvml.ProbeLabels;
import io.gpufleet.nvml.bench.Arrivals;
import io.gpufleet.nvml.bench.BenchFailure;
import io.gpufleet.nvml.bench.BenchMode;
import io.gpufleet.nvml.bench.MpsDaemon;
import io.gpufleet.nvml.bench.ProcessTenants;
import io.gpufleet.nvml.bench.SharingBench;
import io.gpufleet.nvml.bench.SharingMeasurement;
import io.gpufleet.nvml.bench.SharingRow;
import io.gpufleet.nvml.bench.TenantKernel;
import io.gpufleet.nvml.cuda.CudaDriver;
import io.gpufleet.nvml.cuda.CudaException;
import io.gpufleet.report.table.Table;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code gpufleet bench-sharing}: measures on this machine's GPU what sharing it costs N tenants. */
@Command(name = "bench-sharing", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Measure on this GPU what time-slicing and MPS cost N tenant processes: req/s, p50 and p99 per N.")
public final class BenchSharingCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--tenants", split = ",", defaultValue = "1,2,4,8", paramLabel = "N",
      description = "Tenant counts to run (default: ${DEFAULT-VALUE}).")
  List<Integer> tenants;

  @Option(names = "--workloads", split = ",", defaultValue = "big,small", paramLabel = "NAME",
      description = "big (memory-bound: 12.9 GB read per request) and/or small (launch-bound: 768 tiny kernels) (default: ${DEFAULT-VALUE}).")
  List<String> workloads;

  @Option(names = "--modes", split = ",", defaultValue = "time-slicing", paramLabel = "MODE",
      description = "time-slicing, mps (own daemon, no caps), mps-capped (each client at 100/N %% of the SMs, as the device plugin sets it) and/or mps-capped-solo (one client alone at 100/N %%: a replica whose co-tenants are idle) (default: ${DEFAULT-VALUE}).")
  List<String> modes;

  @Option(names = "--seconds", defaultValue = "6", description = "Measured seconds per run (default: ${DEFAULT-VALUE}).")
  double seconds;

  @Option(names = "--rate", defaultValue = "0", paramLabel = "PER_SECOND",
      description = "Poisson arrivals per second per tenant (open loop); 0 = closed loop (default).")
  double rate;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of the first tenant's arrivals (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = {"-o", "--output"}, defaultValue = "table", paramLabel = "FORMAT", description = "table (default) or json.")
  String output;

  @Option(names = "--open-loop-check",
      description = "After the closed-loop runs (with mps-capped, also mps-capped-solo), measure per workload and mode a light, a busy and an overloaded open-loop point and print the model's prediction (from the closed-loop rows just measured) beside each, with its error.")
  boolean openLoopCheck;

  @Option(names = "--json-file", paramLabel = "FILE", description = "Also write the JSON result here (the form advise's calibration reads).")
  Path jsonFile;

  @Option(names = "--nvml-library", paramLabel = "PATH", description = "NVML library (default: $GPUFLEET_NVML, else libnvidia-ml.so.1).")
  Path nvmlLibrary;

  @Option(names = "--cuda-library", paramLabel = "PATH", description = "CUDA driver library (default: $GPUFLEET_CUDA, else libcuda.so.1).")
  Path cudaLibrary;

  @Option(names = "--mps-control", defaultValue = "nvidia-cuda-mps-control", paramLabel = "COMMAND",
      description = "The MPS control program (default: ${DEFAULT-VALUE}).")
  String mpsControl;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    SharingBench.Plan plan = plan();
    try {
      SharingMeasurement.Card card = card();
      try (CudaDriver cuda = CudaDriver.open(Optional.ofNullable(cudaLibrary), System.getenv())) {
        // Loaded here only to fail before any tenant starts where CUDA cannot run.
      }
      Path scratch = Files.createTempDirectory("gpufleet-bench-");
      SharingBench bench = new SharingBench(ProcessTenants.ofThisJvm(scratch, Optional.ofNullable(cudaLibrary)),
          new MpsDaemon(scratch.resolve("mps"), mpsControl), line -> {
            err.println("bench-sharing: " + line);
            err.flush();
          });
      // The check also measures a lone capped client where mps-capped runs: the file names it among the modes.
      SharingMeasurement result = new SharingMeasurement(card, openLoopCheck ? plan.withCappedSolo() : plan,
          openLoopCheck ? bench.runWithOpenLoopCheck(plan) : bench.run(plan));
      String json = result.toJson();
      if (jsonFile != null) {
        OutputFiles.writeOne(jsonFile, json);
      }
      out.print(output.equals("json") ? json : table(result));
      if (openLoopCheck && !output.equals("json")) {
        double runSeconds = result.plan().settings().seconds();
        List<OpenLoopCheck.Point> points = SharingBench.check(result.rows(), runSeconds);
        out.print("\nOPEN-LOOP CHECK: each point of two tenants or more measured, and predicted from the closed-loop "
            + "rows and the lone open-loop rows above (MeasuredQueueing)\n"
            + OpenLoopCheck.table(points) + "\n" + OpenLoopCheck.summary(points));
        OpenLoopCheck.notes(SharingBench.closed(result.rows()), SharingBench.lone(result.rows(), runSeconds), points)
            .forEach(n -> out.println("Note: " + n));
      }
      out.flush();
      return ExitCodes.OK;
    } catch (GpuUnavailable | NvmlException | CudaException | BenchFailure e) {
      err.println("gpufleet bench-sharing: " + e.getMessage());
      err.flush();
      return ExitCodes.NO_GPU;
    } catch (IOException e) {
      throw new UserError("cannot write: " + e.getMessage());
    }
  }

  private SharingBench.Plan plan() {
    if (!output.equals("table") && !output.equals("json")) {
      throw new UserError("-o: expected table or json, found \"" + output + "\"");
    }
    List<TenantKernel> kernels = workloads.stream().map(w -> TenantKernel.byName(w)
        .orElseThrow(() -> new UserError("--workloads: expected big or small, found \"" + w + "\""))).toList();
    List<BenchMode> ms = modes.stream().map(m -> BenchMode.byLabel(m)
        .orElseThrow(() -> new UserError("--modes: expected time-slicing, mps, mps-capped or mps-capped-solo, found \"" + m + "\"")))
        .toList();
    for (int n : tenants) {
      if (n < 1 || n > 48) {
        throw new UserError("--tenants: expected counts from 1 to 48 (MPS serves at most 48 clients), found " + n);
      }
    }
    if (openLoopCheck && rate != 0) {
      throw new UserError("--open-loop-check: runs after the closed-loop runs; leave --rate out, found " + rate);
    }
    if (!(seconds > 0) || !(rate >= 0)) {
      throw new UserError("--seconds must be > 0 and --rate >= 0, found " + seconds + " and " + rate);
    }
    return new SharingBench.Plan(kernels, ms, tenants, new Arrivals.Settings(seconds, rate, seed));
  }

  private SharingMeasurement.Card card() {
    try (NvmlLibrary nvml = NvmlLibrary.open(Optional.ofNullable(nvmlLibrary), System.getenv())) {
      NodeFacts facts = NodeProbe.read(nvml);
      GpuFacts gpu = facts.gpus().getFirst();
      return new SharingMeasurement.Card(gpu.name(), ProbeLabels.of(facts, GpuCatalog.builtIn()).catalogEntry(),
          gpu.memoryMiB(), gpu.compute().major() + "." + gpu.compute().minor(), facts.driverVersion());
    }
  }

  static String table(SharingMeasurement m) {
    Table t = Table.of("workload", "mode", "n", "sm cap", "rate/tenant", "req/s", "p50 ms", "p99 ms", "requests");
    for (SharingRow r : m.rows()) {
      t = t.row(r.workload(), r.mode(), r.tenants(), r.threadPercentage().map(p -> p + "%").orElse("-"),
          r.closedLoop() ? "closed" : fmt("%.1f", r.ratePerSecond()), fmt("%.1f", r.throughput()),
          fmt("%.2f", r.p50Ms()), fmt("%.2f", r.p99Ms()), r.requests());
    }
    return m.card().name() + " (" + m.card().memoryMiB() + " MiB, driver " + m.card().driverVersion() + ")\n"
        + t.render();
  }

  private static String fmt(String f, double v) {
    return String.format(Locale.ROOT, f, v);
  }
}
