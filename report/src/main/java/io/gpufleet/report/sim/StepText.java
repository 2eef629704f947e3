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

  public static String render(StepView step, SimulationResult run, boolean explain) {
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
      b.append(indent(ClusterTables.events(run.record(), segmentStart, c.recordEntries(), start).render()));
      List<String> launches = launches(run.record(), segmentStart, c.recordEntries(), start);
      if (!launches.isEmpty()) {
        b.append("\nNodes Karpenter launched (the cheapest instance type its NodePool allows that fits the pending pods):\n");
        launches.forEach(l -> b.append("  ").append(l).append('\n'));
      }
      if (!last) {
        b.append("\nThe cluster ").append(c.label()).append(":\n");
      }
      views(b, c);
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

  private static void views(StringBuilder b, Checkpoint c) {
    var s = c.state();
    Instant now = c.time();
    b.append("\n$ kubectl get nodes\n").append(indent(ClusterTables.nodes(s, now).render()));
    b.append("\n$ kubectl get pods -A -o wide\n").append(indent(ClusterTables.pods(s, now).render()));
    String smi = ClusterTables.smi(s);
    if (!smi.isBlank()) {
      b.append("\n$ nvidia-smi   (each GPU node's cards and the pods holding them)\n").append(indent(smi));
    }
  }

  /**
   * Each NodeClaim launched in the range: its instance type, capacity type, zone and price (from
   * the launch entry) and how long until Karpenter counted it initialised.
   */
  static List<String> launches(RunRecord record, int from, int to, Instant start) {
    List<String> out = new ArrayList<>();
    List<RunRecord.Entry> all = record.entries();
    for (RunRecord.Entry e : all.subList(from, Math.min(to, all.size()))) {
      if (e.kind() != RunRecord.Kind.NODECLAIM_LAUNCHED) {
        continue;
      }
      String line = e.subject() + ": " + e.message() + ", launched at " + Durations.offset(start, e.time());
      for (RunRecord.Entry later : all) {
        if (later.kind() == RunRecord.Kind.NODECLAIM_INITIALIZED && later.subject().equals(e.subject())
            && !later.time().isBefore(e.time())) {
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
