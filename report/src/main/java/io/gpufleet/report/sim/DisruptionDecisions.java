package io.gpufleet.report.sim;

import io.gpufleet.sim.record.RunRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The disruption controller's decisions in a stretch of the run record, for {@code simulate
 * --explain}: each command it proposed with every node it considered (the ones it chose and why it
 * left each other), what became of the command, and the Unconsolidatable reasons it gave between
 * decisions. Answers "why was this node (not) consolidated?".
 */
public final class DisruptionDecisions {
  private DisruptionDecisions() {}

  /** The Karpenter events that say why consolidation leaves a node ({@code ConsolidationRefusal}). */
  private static final List<String> LEFT = List.of("Unconsolidatable: ", "DisruptionBlocked: ");

  /** The lines for entries in {@code [from, to)}, empty when there was no decision. */
  public static List<String> render(RunRecord record, int from, int to, Instant start) {
    List<String> out = new ArrayList<>();
    List<RunRecord.Entry> entries = record.entries();
    for (RunRecord.Entry e : entries.subList(Math.min(from, entries.size()), Math.min(to, entries.size()))) {
      String at = Durations.offset(start, e.time());
      switch (e.kind()) {
        case DISRUPTION_PROPOSED -> out.add(at + "  proposed " + e.subject() + ": " + e.message());
        case DISRUPTION_CONSIDERED -> out.add(" ".repeat(at.length()) + "    " + e.subject() + "  "
            + e.message());
        case DISRUPTION_EXECUTED -> out.add(at + "  executed " + e.subject() + " after its validation delay");
        case DISRUPTION_ABANDONED -> out.add(at + "  abandoned " + e.subject() + ": " + e.message());
        case KARPENTER_EVENT -> {
          for (String reason : LEFT) {
            if (e.message().startsWith(reason)) {
              out.add(at + "  " + e.subject() + "  left: " + e.message().substring(reason.length()));
            }
          }
        }
        default -> { }
      }
    }
    return out;
  }
}
