package io.gpufleet.report.sim;

import io.gpufleet.sim.Checkpoint;
import io.gpufleet.model.time.KubeDuration;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.scenario.ExpectationOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A step of a scenario for a terminal: heading, what it does, what happened (events with their
 * offsets), any node launches with type, price and time to initialisation, and then what the
 * cluster shows: nodes, pods, and the per-card process view.
 */
public final class StepText {
  private StepText() {}

  static final int WIDTH = 100;

  /** Every row of every table: what a terminal shows. */
  public static String render(StepView step, SimulationResult run, boolean explain) {
    return render(step, run, explain, Integer.MAX_VALUE);
  }

  /**
   * With at most {@code rowBound} rows of each table (events, launches, nodes, pods, and lines of
   * the card view); a longer one ends with a line saying how many rows are left out. A report keeps
   * its size this way on a fleet of thousands of nodes; the run record is whole in events.jsonl.
   */
  public static String render(StepView step, SimulationResult run, boolean explain, int rowBound) {
    StringBuilder b = new StringBuilder();
    Instant start = run.start();
    String rule = "=".repeat(WIDTH);
    b.append(rule).append('\n');
    Instant from = step.from() < run.record().entries().size() && step.from() > 0
        ? run.record().entries().get(step.from()).time() : start;
    b.append(step.heading()).append("   (virtual time ").append(Durations.offset(start, from)).append(" to ")
        .append(Durations.offset(start, step.end().time())).append(")\n");
    b.append(rule).append('\n');
    if (!step.description().isEmpty()) {
      b.append(wrap(step.description(), "")).append('\n');
    }
    int segmentStart = step.from();
    for (int i = 0; i < step.checkpoints().size(); i++) {
      Checkpoint c = step.checkpoints().get(i);
      boolean last = i == step.checkpoints().size() - 1;
      b.append(last && i > 0 ? "\nThen:\n" : "\nWhat happened:\n");
      b.append(indent(bounded(ClusterTables.events(run.record(), segmentStart, c.recordEntries(), start), rowBound)));
      List<String> launches = launches(run.record(), segmentStart, c.recordEntries(), start);
      if (!launches.isEmpty()) {
        b.append("\nNodes Karpenter launched (the cheapest instance type its NodePool allows that fits the pending pods):\n");
        launches.stream().limit(rowBound).forEach(l -> b.append("  ").append(l).append('\n'));
        if (launches.size() > rowBound) {
          b.append("  ").append(more(launches.size() - rowBound, "launches")).append('\n');
        }
      }
      if (!last) {
        b.append("\nThe cluster ").append(c.label()).append(":\n");
      }
      views(b, c, rowBound);
      segmentStart = c.recordEntries();
    }
    for (ExpectationOutcome o : run.expectations()) {
      if (!o.time().isBefore(from) && !o.time().isAfter(step.end().time()) && !o.passed()) {
        b.append("\nEXPECTATION FAILED at ").append(Durations.offset(start, o.time())).append(": ")
            .append(o.description()).append(" (seen: ").append(o.detail()).append(")\n");
      }
    }
    if (explain && !step.explanation().isEmpty()) {
      b.append("\nWhy:\n").append(wrap(step.explanation(), "  ")).append('\n');
    }
    List<String> decisions = explain ? DisruptionDecisions.render(run.record(), step.from(), step.end().recordEntries(),
        start) : List.of();
    if (!decisions.isEmpty()) {
      b.append("\nDisruption decisions (each node the disruption controller considered; \"left\" says why it stays):\n");
      decisions.forEach(l -> b.append("  ").append(l).append('\n'));
    }
    b.append('\n');
    return b.toString();
  }

  private static void views(StringBuilder b, Checkpoint c, int rowBound) {
    var s = c.state();
    Instant now = c.time();
    b.append("\n$ kubectl get nodes\n").append(indent(bounded(ClusterTables.nodes(s, now), rowBound)));
    b.append("\n$ kubectl get pods -A -o wide\n").append(indent(bounded(ClusterTables.pods(s, now), rowBound)));
    String smi = ClusterTables.smi(s);
    if (!smi.isBlank()) {
      String[] lines = smi.split("\n", -1);
      if (lines.length - 1 > rowBound) {
        smi = String.join("\n", java.util.Arrays.asList(lines).subList(0, rowBound)) + "\n"
            + more(lines.length - 1 - rowBound, "lines") + "\n";
      }
      b.append("\n$ nvidia-smi   (each GPU node's cards and the pods holding them)\n").append(indent(smi));
    }
  }

  /** The table, or its first {@code rowBound} rows and a line saying how many more there are. */
  static String bounded(io.gpufleet.report.table.Table t, int rowBound) {
    if (t.rows().size() <= rowBound) {
      return t.render();
    }
    return new io.gpufleet.report.table.Table(t.headers(), t.rows().subList(0, rowBound)).render()
        + more(t.rows().size() - rowBound, "rows") + "\n";
  }

  private static String more(int count, String what) {
    return String.format(java.util.Locale.ROOT, "... %,d more %s not shown; the whole run record is in events.jsonl",
        count, what);
  }

  /**
   * Each NodeClaim launched in the range: its instance type, capacity type, zone and price (from
   * the launch entry) and how long until Karpenter counted it initialised.
   */
  static List<String> launches(RunRecord record, int from, int to, Instant start) {
    List<String> out = new ArrayList<>();
    List<RunRecord.Entry> all = record.entries();
    List<RunRecord.Entry> launched = all.subList(from, Math.min(to, all.size())).stream()
        .filter(e -> e.kind() == RunRecord.Kind.NODECLAIM_LAUNCHED).toList();
    if (launched.isEmpty()) {
      return out;
    }
    // Each NodeClaim's initialisations in record order, found in one pass instead of one per launch.
    java.util.Map<String, List<RunRecord.Entry>> initialized = new java.util.HashMap<>();
    for (RunRecord.Entry later : all) {
      if (later.kind() == RunRecord.Kind.NODECLAIM_INITIALIZED) {
        initialized.computeIfAbsent(later.subject(), k -> new ArrayList<>()).add(later);
      }
    }
    for (RunRecord.Entry e : launched) {
      String line = e.subject() + ": " + e.message() + ", launched at " + Durations.offset(start, e.time());
      for (RunRecord.Entry later : initialized.getOrDefault(e.subject(), List.of())) {
        if (!later.time().isBefore(e.time())) {
          line += ", initialised at " + Durations.offset(start, later.time()) + " ("
              + KubeDuration.format(Duration.between(e.time(), later.time())) + " later: boot and registration, then the "
              + "device plugin registering nvidia.com/gpu)";
          break;
        }
      }
      out.add(line);
    }
    return out;
  }

  static String indent(String text) {
    StringBuilder b = new StringBuilder();
    for (String line : text.split("\n", -1)) {
      if (!line.isEmpty()) {
        b.append("  ").append(line);
      }
      b.append('\n');
    }
    String s = b.toString();
    return s.endsWith("\n\n") ? s.substring(0, s.length() - 1) : s;
  }

  static String wrap(String text, String prefix) {
    StringBuilder b = new StringBuilder();
    StringBuilder line = new StringBuilder(prefix);
    for (String word : text.strip().split("\\s+")) {
      if (line.length() > prefix.length() && line.length() + 1 + word.length() > WIDTH) {
        b.append(line).append('\n');
        line = new StringBuilder(prefix);
      }
      if (line.length() > prefix.length()) {
        line.append(' ');
      }
      line.append(word);
    }
    return b.append(line).toString();
  }
}
