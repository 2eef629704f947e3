package io.gpufleet.autoscaler.termination;

import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.time.GoDuration;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Whether a pod's {@code karpenter.sh/do-not-disrupt} protects it now ({@code K:pkg/utils/pod/scheduling.go}
 * IsDoNotDisruptActive): {@code "true"} always; a positive duration ({@code "30m"}) for that long after
 * the pod started, and, with no start time known, always (upstream fails safe); anything else, a zero
 * or negative duration included, is ignored as if the annotation were absent.
 */
public final class DoNotDisrupt {
  private DoNotDisrupt() {}

  /** Whether the pod, started at {@code started} if known, may not be disrupted at {@code now}. */
  public static boolean active(Pod p, Optional<Instant> started, Instant now) {
    Optional<String> value = p.meta().annotations().get(KarpenterLabels.DO_NOT_DISRUPT);
    if (value.isEmpty()) {
      return false;
    }
    if (value.get().equals("true")) {
      return true;
    }
    Optional<Duration> d = duration(value.get());
    if (d.isEmpty()) {
      return false;
    }
    return started.isEmpty() || now.isBefore(started.get().plus(d.get()));
  }

  /** As {@link #active(Pod, Optional, Instant)} for a pod on {@code n}, with its start time there. */
  public static boolean active(StateNode n, Pod p, Instant now) {
    return active(p, n.started(p), now);
  }

  /** When a duration protection with a known start ends: the instant the answer above next changes. */
  public static Optional<Instant> until(Pod p, Optional<Instant> started) {
    if (started.isEmpty()) {
      return Optional.empty();
    }
    return p.meta().annotations().get(KarpenterLabels.DO_NOT_DISRUPT).flatMap(DoNotDisrupt::duration)
        .map(d -> started.get().plus(d));
  }

  /** The earliest end of a duration protection on {@code n} after {@code now}, if any. */
  public static Optional<Instant> nextExpiry(StateNode n, Instant now) {
    Instant best = null;
    for (Pod p : n.pods()) {
      Optional<Instant> t = until(p, n.started(p));
      if (t.isPresent() && t.get().isAfter(now) && (best == null || t.get().isBefore(best))) {
        best = t.get();
      }
    }
    return Optional.ofNullable(best);
  }

  /** A positive Go duration ({@code parseDoNotDisrupt}), else empty. */
  static Optional<Duration> duration(String value) {
    Duration d = GoDuration.parse(value);
    return d == null || d.isZero() || d.isNegative() ? Optional.empty() : Optional.of(d);
  }
}
