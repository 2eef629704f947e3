package io.gpufleet.report.replay;

import io.gpufleet.sim.replay.ReplaySummary;

/** A replay summary as a few lines for the terminal. */
public final class SummaryText {

  private SummaryText() {}

  public static String of(ReplaySummary s) {
    double gpus = s.capacityMilli() / 1000.0;
    StringBuilder b = new StringBuilder();
    b.append("openb ").append(s.variant()).append(" under ").append(s.policy()).append(", seed ").append(s.seed()).append('\n');
    b.append("  arrivals        ").append(s.arrivals()).append(" pods, ").append(s.failed()).append(" failed\n");
    b.append("  arrived GPU     ").append(Numbers.pct(s.arrivedPercent())).append("% of ")
        .append(Numbers.fixed(gpus, 0)).append(" GPUs\n");
    b.append("  allocated GPU   ").append(Numbers.pct(s.allocPercent())).append("% (milli-GPU) at the end; ")
        .append(Numbers.pct(s.allocAtTarget())).append("% at 130% arrived (the paper's figure)\n");
    b.append("  cards in use    ").append(s.cardsInUse()).append(" of ").append(s.cards()).append('\n');
    b.append("  fragmentation   ").append(Numbers.pct(s.fragPercent())).append("% of capacity, against ")
        .append(s.typical().size()).append(" typical pod shapes of ").append(s.typical().distinctShapes())
        .append(" (").append(Numbers.pct(100 * s.typical().coverage())).append("% of the trace's pods)\n");
    b.append("  idle GPU        ").append(Numbers.fixed(s.idle().total() / 1000.0, 1)).append(" GPUs: ")
        .append(Numbers.fixed(s.idle().usable() / 1000.0, 1)).append(" usable by a typical pod, ")
        .append(Numbers.fixed(s.idle().starved() / 1000.0, 1)).append(" starved of CPU or memory, ")
        .append(Numbers.fixed(s.idle().slivers() / 1000.0, 1)).append(" in slivers no typical pod fits\n");
    return b.toString();
  }
}
