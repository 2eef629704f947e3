package io.gpufleet.model.karpenter;

import io.gpufleet.model.workload.IntOrPercent;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A disruption budget (reference §1.6): at most {@code nodes} (a count, or a percentage of the
 * NodePool's nodes rounded up) may be disrupted at once, while active. A budget without a schedule
 * is always active; with one it is active for {@code duration} after each firing. An empty reason
 * set applies to every reason.
 */
public record Budget(IntOrPercent nodes, Optional<CronSchedule> schedule, Optional<Duration> duration,
    Set<DisruptionReason> reasons) {

  /** {@code [{nodes: "10%"}]}, the default budget list's one entry (reference §1.1). */
  public static final Budget DEFAULT = new Budget(new IntOrPercent.Percent(10), Optional.empty(), Optional.empty(),
      Set.of());

  public Budget {
    Objects.requireNonNull(nodes, "nodes");
    Objects.requireNonNull(schedule, "schedule");
    Objects.requireNonNull(duration, "duration");
    reasons = reasons.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(reasons));
  }

  public static Budget nodes(IntOrPercent nodes) {
    return new Budget(nodes, Optional.empty(), Optional.empty(), Set.of());
  }

  public boolean appliesTo(DisruptionReason reason) {
    return reasons.isEmpty() || reasons.contains(reason);
  }

  /** Whether the budget constrains disruptions now. */
  public boolean isActive(Instant now) {
    if (schedule.isEmpty()) {
      return true;
    }
    if (duration.isEmpty()) {
      return false;
    }
    Optional<Instant> fired = schedule.get().lastFiringAtOrBefore(now, duration.get());
    return fired.isPresent() && now.isBefore(fired.get().plus(duration.get()));
  }

  /** How many of {@code nodeCount} nodes may be disrupted at once under this budget. */
  public int allowed(int nodeCount) {
    return Math.max(0, nodes.resolve(nodeCount, true));
  }
}
