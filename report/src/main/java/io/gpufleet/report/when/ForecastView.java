package io.gpufleet.report.when;

import io.gpufleet.model.cloud.Money;
import io.gpufleet.model.time.KubeDuration;
import io.gpufleet.report.json.JsonText;
import io.gpufleet.report.sim.Durations;
import io.gpufleet.report.sim.RunSummary;
import io.gpufleet.report.table.Wrap;
import io.gpufleet.sim.forecast.JobForecast;
import io.gpufleet.sim.forecast.JobRun;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** When the job runs, where, at what cost and, when it does not, why: text for the terminal and JSON. */
public final class ForecastView {
  private ForecastView() {}

  private static final double[] QUANTILES = {0.5, 0.9};

  /** The answer in a few lines, folded at {@code width}. */
  public static String text(JobForecast f, String cluster, int width) {
    JobRun first = f.runs().getFirst();
    StringBuilder b = new StringBuilder();
    b.append("WHEN  ").append(f.job().name()).append(": ").append(f.job().running()).append(" pod(s) at once");
    if (f.job().completions() > 0) {
      b.append(", ").append(f.job().completions()).append(" completion(s)");
    }
    b.append("; ").append(f.runs().size()).append(" run(s) of ").append(KubeDuration.format(first.horizon()))
        .append(" from ").append(cluster).append(" (seeds ").append(seeds(f)).append(")\n");
    if (f.queued()) {
      b.append("  admitted        ").append(quantiles(f::admitted)).append("  (by Kueue, in ").append(f.admittedRuns())
          .append(" of ").append(f.runs().size()).append(" runs)\n");
      f.runs().stream().filter(r -> r.kueue().orElseThrow().admitted().isEmpty()).findFirst().ifPresent(r ->
          b.append("  pending         in seed ").append(r.seed()).append(", not admitted by ")
              .append(Durations.offset(r.horizon())).append("; Kueue: ")
              .append(r.kueue().orElseThrow().pending().orElse("nothing was said of it")).append('\n'));
    }
    b.append("  running         ").append(quantiles(f::running)).append("  (").append(f.job().running())
        .append(" of its pods started, in ").append(f.runningRuns()).append(" of ").append(f.runs().size()).append(" runs)\n");
    if (f.job().completions() > 0) {
      b.append("  done            ").append(quantiles(f::finished)).append("  (").append(f.job().completions())
          .append(" completed, in ").append(f.finishedRuns()).append(" of ").append(f.runs().size()).append(" runs)\n");
    }
    b.append("  cost            ").append(costQuantiles(f)).append(" for ")
        .append(String.format(Locale.ROOT, "%.2f", first.held().gpuHours()))
        .append(" GPU-h in seed ").append(first.seed()).append(first.held().gpuHours() > 0 && first.held().dollars() == 0
            ? " (on nodes with no price in the run: nodes already there that no NodeClaim of it owns are not billed)\n"
            : " (the cards its pods held, at their nodes' price per GPU)\n");
    String label = "  on";
    if (first.placements().isEmpty()) {
      b.append(pad(label)).append("in seed ").append(first.seed()).append(", no node\n");
    }
    for (var e : first.placements().entrySet()) {
      b.append(pad(label)).append(label.isEmpty() ? "" : "in seed " + first.seed() + ", ").append(e.getKey()).append(": ")
          .append(e.getValue().isEmpty() ? "a node already there" : "Karpenter launched " + e.getValue()).append('\n');
      label = "";
    }
    Optional<JobRun> stuck = f.runs().stream().filter(r -> !r.waiting().isEmpty()).findFirst();
    stuck.ifPresent(r -> {
      String l = "  waiting";
      for (var e : r.waiting().entrySet()) {
        b.append(pad(l)).append("in seed ").append(r.seed()).append(", ").append(e.getValue())
            .append(" pod(s) never started by ")
            .append(Durations.offset(r.horizon())).append("; last said: ").append(e.getKey()).append('\n');
        l = "";
      }
    });
    return Wrap.foldAll(b.toString(), width);
  }

  /** The same answer as one JSON document. */
  public static String json(JobForecast f) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("job", f.job().name());
    root.put("podsAtOnce", f.job().running());
    root.put("completions", f.job().completions());
    root.put("horizonSeconds", f.runs().getFirst().horizon().getSeconds());
    if (f.queued()) {
      root.put("admittedSeconds", quantileMap(f::admitted));
    }
    root.put("runningSeconds", quantileMap(f::running));
    root.put("doneSeconds", f.job().completions() > 0 ? quantileMap(f::finished) : null);
    Map<String, Object> dollars = new LinkedHashMap<>();
    for (double x : QUANTILES) {
      dollars.put(RunSummary.quantileName(x), round(f.dollars(x)));
    }
    root.put("dollars", dollars);
    List<Map<String, Object>> runs = new ArrayList<>();
    for (JobRun r : f.runs()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("seed", r.seed());
      m.put("pods", r.pods());
      r.kueue().ifPresent(k -> {
        m.put("admittedSeconds", k.admitted().map(Duration::getSeconds).orElse(null));
        m.put("kueuePending", k.pending().orElse(null));
      });
      m.put("runningSeconds", r.running().map(Duration::getSeconds).orElse(null));
      m.put("doneSeconds", r.finished().map(Duration::getSeconds).orElse(null));
      Map<String, Object> nodes = new LinkedHashMap<>();
      r.placements().forEach((node, launch) -> nodes.put(node, launch.isEmpty() ? null : launch));
      m.put("nodes", nodes);
      m.put("gpuHours", round(r.held().gpuHours()));
      m.put("dollars", round(r.held().dollars()));
      m.put("waiting", r.waiting());
      runs.add(m);
    }
    root.put("runs", runs);
    return JsonText.write(root);
  }

  private static Map<String, Object> quantileMap(java.util.function.DoubleFunction<Optional<Duration>> q) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (double x : QUANTILES) {
      m.put(RunSummary.quantileName(x), q.apply(x).map(Duration::getSeconds).orElse(null));
    }
    return m;
  }

  private static String quantiles(java.util.function.DoubleFunction<Optional<Duration>> q) {
    List<String> parts = new ArrayList<>();
    for (double x : QUANTILES) {
      parts.add(RunSummary.quantileName(x) + " " + q.apply(x).map(Durations::offset).orElse("not within the horizon"));
    }
    return String.join(", ", parts);
  }

  private static String costQuantiles(JobForecast f) {
    List<String> parts = new ArrayList<>();
    for (double x : QUANTILES) {
      parts.add(RunSummary.quantileName(x) + " " + Money.dollars(f.dollars(x)));
    }
    return String.join(", ", parts);
  }

  private static String seeds(JobForecast f) {
    return String.join(",", f.runs().stream().map(r -> Long.toString(r.seed())).toList());
  }

  private static String pad(String label) {
    return label.isEmpty() ? " ".repeat(18) : label + " ".repeat(Math.max(1, 18 - label.length()));
  }

  private static double round(double v) {
    return Math.round(v * 10_000) / 10_000.0;
  }
}
