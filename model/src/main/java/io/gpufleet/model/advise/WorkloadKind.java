package io.gpufleet.model.advise;

import java.util.Locale;
import java.util.Optional;

/** What a workload is for; the rules of thumb of the sharing module speak in these terms. */
public enum WorkloadKind {
  /** Production serving: requests from users, usually with a latency objective. */
  INFERENCE,
  /** Interactive notebooks: idle most of the time, then a burst of cells. */
  NOTEBOOK,
  /** Development and test work. */
  DEV,
  /** Batch scoring or offline jobs: throughput matters, latency does not. */
  BATCH;

  /** The lower-case name a profile or flag writes. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<WorkloadKind> parse(String text) {
    for (WorkloadKind k : values()) {
      if (k.label().equals(text.strip().toLowerCase(Locale.ROOT))) {
        return Optional.of(k);
      }
    }
    return Optional.empty();
  }
}
