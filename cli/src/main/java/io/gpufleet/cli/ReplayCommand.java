package io.gpufleet.cli;

import io.gpufleet.engine.placement.PolicyKind;
import io.gpufleet.manifest.openb.OpenbFormatException;
import io.gpufleet.manifest.openb.OpenbTrace;
import io.gpufleet.model.gpu.share.ShareNode;
import io.gpufleet.model.gpu.share.SharePod;
import io.gpufleet.report.replay.CurveCsv;
import io.gpufleet.report.replay.SummaryText;
import io.gpufleet.report.replay.SweepReport;
import io.gpufleet.sim.replay.ArrivalGrid;
import io.gpufleet.sim.replay.ReplayCluster;
import io.gpufleet.sim.replay.ReplayCurve;
import io.gpufleet.sim.replay.ReplayProtocol;
import io.gpufleet.sim.replay.ReplayRun;
import io.gpufleet.sim.replay.ReplaySummary;
import io.gpufleet.sim.replay.ReplaySweep;
import io.gpufleet.sim.replay.ReplayWorkload;
import io.gpufleet.sim.replay.SweepCell;
import io.gpufleet.sim.replay.SweepOutcome;
import io.gpufleet.sim.replay.SweepProgress;
import io.gpufleet.sim.replay.WorkloadTuning;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code gpufleet replay}: replays GPU traces through placement policies. */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    description = "Replay a GPU cluster trace through placement policies.",
    subcommands = ReplayCommand.Openb.class)
public final class ReplayCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Bad input from the user: printed as one line, exit code 2. */
  static final class UsageProblem extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageProblem(String message) {
      super(message);
    }
  }

  /** {@code gpufleet replay openb}: the FGD paper's protocol on the Alibaba openb trace. */
  @Command(
      name = "openb",
      mixinStandardHelpOptions = true,
      description = {
          "Replay the Alibaba openb GPU trace under a placement policy, as the FGD paper (ATC'23) did:",
          "the 1,213 GPU nodes start empty, pods are shuffled by the seed and tuned up to 130%% of GPU",
          "capacity, then scheduled one at a time; a pod that fits nowhere fails.",
          "One run writes a per-pod CSV curve and prints a summary; --sweep runs policies x variants x",
          "seeds in parallel and writes a table, CSVs and an HTML page with charts."})
  static final class Openb implements Callable<Integer> {

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--pods", paramLabel = "<variant>", defaultValue = "default",
        description = "Trace variant, e.g. default, cpu050, gpushare40, gpuspec33, multigpu50 (default: ${DEFAULT-VALUE}).")
    String pods;

    @Option(names = "--policy", paramLabel = "<name>", defaultValue = "fgd",
        description = "Placement policy: random, dotproduct, gpuclustering, gpupacking, bestfit, fgd, fgd-cpu (default: ${DEFAULT-VALUE}).")
    String policy;

    @Option(names = "--seed", paramLabel = "<n>", defaultValue = "42", description = "Seed of the run (default: ${DEFAULT-VALUE}).")
    String seed;

    @Option(names = "--seeds", paramLabel = "<a..b>", description = "Seeds, as a..b or a,b,c; runs a sweep.")
    String seeds;

    @Option(names = "--sweep", description = "Run policies x variants x seeds (default: the paper's 17 variants, its six policies and ours, seeds 42..51).")
    boolean sweep;

    @Option(names = "--variants", paramLabel = "<list>", description = "Variants of a sweep, comma-separated, or 'paper' or 'all'.")
    String variants;

    @Option(names = "--policies", paramLabel = "<list>", description = "Policies of a sweep, comma-separated, or 'paper' or 'all'.")
    String policies;

    @Option(names = "--threads", paramLabel = "<n>", description = "Worker threads of a sweep (default: all cores).")
    Integer threads;

    @Option(names = "--data", paramLabel = "<dir>", description = "Directory of the openb CSVs (default: data/openb of the project, else ../shared/data/openb).")
    Path data;

    @Option(names = "--out", paramLabel = "<dir>", defaultValue = "out/openb", description = "Where CSV and HTML outputs go (default: ${DEFAULT-VALUE}).")
    Path out;

    @Override
    public Integer call() {
      PrintWriter err = spec.commandLine().getErr();
      try {
        return sweep || seeds != null || variants != null || policies != null ? runSweep() : runOne();
      } catch (UsageProblem | OpenbFormatException | IllegalArgumentException e) {
        err.println("gpufleet: " + e.getMessage());
        return 2;
      } catch (IOException e) {
        err.println("gpufleet: " + describe(e));
        return 2;
      } catch (UncheckedIOException e) {
        err.println("gpufleet: " + describe(e.getCause()));
        return 2;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        err.println("gpufleet: interrupted");
        return 130;
      } finally {
        err.flush();
      }
    }

    private static String describe(IOException e) {
      return switch (e) {
        case NoSuchFileException f -> "no such file: " + f.getFile();
        case FileAlreadyExistsException f -> f.getFile() + " exists and is not a directory";
        case AccessDeniedException f -> "permission denied: " + f.getFile();
        default -> e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      };
    }

    private int runOne() throws IOException {
      PrintWriter stdout = spec.commandLine().getOut();
      PolicyKind kind = policyOf(policy);
      long s = parseSeed(seed);
      OpenbTrace trace = new OpenbTrace(dataDirectory());
      String variant = variantOf(pods);
      ReplayCluster cluster = ReplayCluster.of(trace.gpuNodes());
      ReplayWorkload workload = workload(trace, variant, cluster);
      ReplayCurve curve = ReplayRun.run(cluster, workload, kind, ReplaySweep.generator(s), ReplayProtocol.PAPER);
      ArrivalGrid grid = ArrivalGrid.of(curve);
      ReplaySummary summary = ReplaySummary.of(variant, kind.title(), s, curve, grid, workload.typical());

      String stem = "openb-" + variant + "-" + kind.title().toLowerCase(Locale.ROOT) + "-seed" + s;
      StringWriter perPodText = new StringWriter();
      CurveCsv.perPod(curve, perPodText);
      StringWriter gridText = new StringWriter();
      CurveCsv.grid(grid, gridText);
      List<Path> written = OutputFiles.in(out)
          .add(OutputFiles.safeName(stem + ".csv", "--pods"), perPodText.toString())
          .add(OutputFiles.safeName(stem + "-grid.csv", "--pods"), gridText.toString())
          .write();
      Path perPod = written.get(0);
      Path gridFile = written.get(1);
      stdout.print(SummaryText.of(summary));
      stdout.println("  wrote           " + perPod + " (per pod), " + gridFile + " (x grid)");
      stdout.flush();
      return 0;
    }

    /** A variant's pods as the paper's protocol takes them, refused up front when they cannot be tuned. */
    private static ReplayWorkload workload(OpenbTrace trace, String variant, ReplayCluster cluster) throws IOException {
      List<SharePod> pods = trace.pods(variant);
      Optional<String> refusal = WorkloadTuning.refusal(pods, ReplayProtocol.PAPER.targetMilli(cluster.capacityMilli()));
      if (refusal.isPresent()) {
        throw new UsageProblem(trace.directory().resolve(OpenbTrace.podListFile(variant)) + ": " + refusal.get());
      }
      return ReplayWorkload.of(variant, pods, ReplayProtocol.PAPER);
    }

    private int runSweep() throws IOException, InterruptedException {
      PrintWriter stdout = spec.commandLine().getOut();
      List<String> vs = variants == null ? (sweep ? OpenbTrace.PAPER_VARIANTS : List.of(variantOf(pods))) : variantsOf(variants);
      List<PolicyKind> ps = policies == null ? (sweep ? PolicyKind.ALL : List.of(policyOf(policy))) : policiesOf(policies);
      List<Long> ss = seeds == null ? (sweep ? range(42, 51) : List.of(parseSeed(seed))) : seedsOf(seeds);
      int workers = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
      if (workers < 1) {
        throw new UsageProblem("--threads must be at least 1, got " + workers);
      }

      long start = System.nanoTime();
      OpenbTrace trace = new OpenbTrace(dataDirectory());
      List<ShareNode> nodes = trace.gpuNodes();
      ReplayCluster cluster = ReplayCluster.of(nodes);
      Map<String, ReplayWorkload> workloads = new LinkedHashMap<>();
      for (String v : vs) {
        workloads.put(v, workload(trace, v, cluster));
      }
      List<SweepCell> cells = new ArrayList<>();
      for (String v : vs) {
        for (PolicyKind p : ps) {
          for (long s : ss) {
            cells.add(new SweepCell(v, p, s));
          }
        }
      }
      ProgressBar bar = ProgressBar.forTerminal(spec.commandLine().getErr());
      ExecutorService pool = Executors.newFixedThreadPool(workers, r -> {
        Thread t = new Thread(r, "replay");
        t.setDaemon(true);
        return t;
      });
      List<SweepOutcome> outcomes;
      try {
        outcomes = ReplaySweep.run(cluster, workloads, cells, ReplayProtocol.PAPER, pool, bar);
      } finally {
        pool.shutdownNow();
        bar.close();
      }
      double seconds = (System.nanoTime() - start) / 1e9;

      SweepReport report = new SweepReport(outcomes);
      OutputFiles.in(out)
          .add("sweep-runs.csv", report.runsCsv())
          .add("sweep-table.csv", report.tableCsv())
          .add("sweep-table.md", report.table())
          .add("sweep.html", report.html())
          .write();
      stdout.println("Allocated GPU (% of capacity) at 130% arrived demand, mean ± sd over seeds "
          + describeSeeds(ss) + ":");
      stdout.println();
      stdout.print(report.table());
      String paper = report.paperComparison();
      if (!paper.isEmpty()) {
        stdout.println();
        stdout.println("Default trace against the FGD paper:");
        stdout.println();
        stdout.print(paper);
      }
      stdout.println();
      stdout.printf(Locale.ROOT, "%d replays (%d variants x %d policies x %d seeds)%n", cells.size(), vs.size(),
          ps.size(), ss.size());
      // Wall time and thread count differ from machine to machine: stderr, so stdout stays the same bytes.
      PrintWriter stderr = spec.commandLine().getErr();
      stderr.printf(Locale.ROOT, "on %d %s in %.1f s of wall-clock time%n", workers, workers == 1 ? "thread" : "threads",
          seconds);
      stderr.flush();
      stdout.println("wrote " + out.resolve("sweep.html") + ", sweep-table.md, sweep-table.csv, sweep-runs.csv");
      stdout.flush();
      return 0;
    }

    private Path dataDirectory() {
      if (data != null) {
        if (!Files.isRegularFile(data.resolve(OpenbTrace.GPU_NODE_LIST))) {
          throw new UsageProblem("--data " + data + " does not hold " + OpenbTrace.GPU_NODE_LIST);
        }
        return data;
      }
      List<Path> candidates = new ArrayList<>();
      Path cwd = Path.of("").toAbsolutePath();
      candidates.add(cwd.resolve("data/openb"));
      projectRoot().ifPresent(root -> candidates.add(root.resolve("data/openb")));
      candidates.add(cwd.resolve("../shared/data/openb").normalize());
      projectRoot().ifPresent(root -> candidates.add(root.resolve("../shared/data/openb").normalize()));
      for (Path c : candidates) {
        if (Files.isRegularFile(c.resolve(OpenbTrace.GPU_NODE_LIST))) {
          return c;
        }
      }
      throw new UsageProblem("cannot find the openb trace (looked in " + String.join(", ",
          candidates.stream().map(Path::toString).distinct().toList()) + "); pass --data <dir>");
    }

    /** The project root when running from a build: .../cli/target/gpufleet.jar or .../cli/target/classes. */
    private static Optional<Path> projectRoot() {
      try {
        var source = ReplayCommand.class.getProtectionDomain().getCodeSource();
        if (source == null) {
          return Optional.empty();
        }
        Path p = Path.of(source.getLocation().toURI()).toAbsolutePath();
        Path target = p.getParent();
        if (target == null || target.getParent() == null || target.getParent().getParent() == null) {
          return Optional.empty();
        }
        return Optional.of(target.getParent().getParent());
      } catch (URISyntaxException | IllegalArgumentException | SecurityException e) {
        return Optional.empty();
      }
    }

    static String variantOf(String name) {
      String v = name.trim();
      if (!OpenbTrace.VARIANTS.contains(v)) {
        throw new UsageProblem("unknown openb variant \"" + name + "\"; known: " + String.join(", ", OpenbTrace.VARIANTS));
      }
      return v;
    }

    static List<String> variantsOf(String list) {
      return switch (list.trim()) {
        case "paper" -> OpenbTrace.PAPER_VARIANTS;
        case "all" -> OpenbTrace.VARIANTS;
        default -> split(list).stream().map(Openb::variantOf).distinct().toList();
      };
    }

    static PolicyKind policyOf(String name) {
      return PolicyKind.parse(name).orElseThrow(() ->
          new UsageProblem("unknown policy \"" + name + "\"; known: " + PolicyKind.names()));
    }

    static List<PolicyKind> policiesOf(String list) {
      return switch (list.trim()) {
        case "paper" -> PolicyKind.PAPER;
        case "all" -> PolicyKind.ALL;
        default -> split(list).stream().map(Openb::policyOf).distinct().toList();
      };
    }

    static long parseSeed(String text) {
      try {
        return Long.parseLong(text.trim());
      } catch (NumberFormatException e) {
        throw new UsageProblem("a seed is an integer, got \"" + text + "\"");
      }
    }

    static List<Long> seedsOf(String text) {
      String t = text.trim();
      int dots = t.indexOf("..");
      if (dots >= 0) {
        long from = parseSeed(t.substring(0, dots));
        long to = parseSeed(t.substring(dots + 2));
        if (to < from || to - from >= 10_000) {
          throw new UsageProblem("--seeds " + text + ": expected a..b with a <= b and at most 10000 seeds");
        }
        return range(from, to);
      }
      return split(t).stream().map(Openb::parseSeed).distinct().toList();
    }

    private static List<Long> range(long from, long to) {
      List<Long> r = new ArrayList<>();
      for (long s = from; s <= to; s++) {
        r.add(s);
      }
      return r;
    }

    private static String describeSeeds(List<Long> ss) {
      if (ss.size() > 2 && ss.getLast() - ss.getFirst() == ss.size() - 1) {
        return ss.getFirst() + "–" + ss.getLast();
      }
      return String.join(", ", ss.stream().map(String::valueOf).toList());
    }

    private static List<String> split(String list) {
      List<String> parts = new ArrayList<>();
      for (String p : list.split(",")) {
        if (!p.isBlank()) {
          parts.add(p.trim());
        }
      }
      if (parts.isEmpty()) {
        throw new UsageProblem("an empty list: \"" + list + "\"");
      }
      return parts;
    }
  }

  /** The sweep's progress on the shared terminal progress bar. */
  static final class ProgressBar implements SweepProgress, AutoCloseable {
    private final TerminalProgress bar;

    private ProgressBar(TerminalProgress bar) {
      this.bar = bar;
    }

    static ProgressBar forTerminal(PrintWriter err) {
      return new ProgressBar(TerminalProgress.forTerminal(err));
    }

    @Override
    public void finished(int done, int total, SweepCell cell) {
      bar.update(done, total, cell.variant() + " " + cell.policy().title() + " seed " + cell.seed());
    }

    @Override
    public void close() {
      bar.close();
    }
  }
}
