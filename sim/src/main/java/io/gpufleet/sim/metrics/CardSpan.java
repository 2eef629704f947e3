package io.gpufleet.sim.metrics;

import java.time.Instant;
import java.util.Optional;

/**
 * A pod holding a card (or a MIG slice, or a replica of a shared card) from {@code start} until
 * {@code end} (empty when it still held it at the end of the run): the material of a Gantt view.
 */
public record CardSpan(String pod, String node, Card card, Instant start, Optional<Instant> end) {

  /** Which card: the GPU's index and UUID, and the MIG profile or replica it came as. */
  public record Card(int gpuIndex, String gpuUuid, String detail) {
    /** {@code GPU 0}, {@code GPU 0 (1g.10gb)}. */
    public String label() {
      return "GPU " + gpuIndex + (detail.isEmpty() ? "" : " (" + detail + ")");
    }
  }
}
