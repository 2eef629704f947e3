package io.gpufleet.sim.metrics;

import java.time.Instant;
import java.util.Optional;

/**
 * A pod holding a card (or a MIG slice, or a replica of a shared card) from {@code start} until
 * {@code end} (empty when it still held it at the end of the run): the material of a Gantt view and
 * of the cost each namespace is charged ({@link TeamCost}).
 */
public record CardSpan(String pod, String node, Card card, Instant start, Optional<Instant> end) {

  /**
   * Which card: the GPU's index and UUID, and the MIG profile or replica it came as; {@code share} is
   * the part of the physical card the holding stands for (1 for a whole card, 1/R for R replicas of
   * a shared one, a MIG instance's compute slices over the card's), in (0, 1].
   */
  public record Card(int gpuIndex, String gpuUuid, String detail, double share) {
    public Card {
      if (!(share > 0 && share <= 1)) {
        throw new IllegalArgumentException("a card's share is in (0, 1], found " + share);
      }
    }

    /** {@code GPU 0}, {@code GPU 0 (1g.10gb)}. */
    public String label() {
      return "GPU " + gpuIndex + (detail.isEmpty() ? "" : " (" + detail + ")");
    }
  }
}
