package io.gpufleet.model.advise;

import io.gpufleet.model.wire.WireEnum;
import java.util.Locale;
import java.util.Optional;

/** What a workload is for; the rules of thumb of the sharing module speak in these terms. */
public enum WorkloadKind implements WireEnum {
  /** Production serving: requests from users, usually with a latency objective. */
  INFERENCE,
  /** Interactive notebooks: idle most of the time, then a burst of cells. */
  NOTEBOOK,
  /** Development and test work. */
  DEV,
  /** Batch scoring or offline jobs: throughput matters, latency does not. */
  BATCH;

  /** The lower-case name a profile or flag writes. */
  @Override
  public String wireName() {
    return WireEnum.lowerKebab(this);
  }

  public static Optional<WorkloadKind> parse(String text) {
    return WireEnum.fromWire(WorkloadKind.class, text.strip().toLowerCase(Locale.ROOT));
  }
}
