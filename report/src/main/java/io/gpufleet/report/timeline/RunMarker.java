package io.gpufleet.report.timeline;

import io.gpufleet.report.sim.ClusterTables;
import io.gpufleet.sim.record.RunRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A moment worth a mark on the timeline: a spot interruption, a disruption, a launch, a deletion,
 * an eviction or an invariant broken, with its Kubernetes-style reason, in seconds from the start.
 */
public record RunMarker(String kind, long seconds, String subject, String message) {

  /** The run-record kinds drawn as markers. */
  static final Set<RunRecord.Kind> MARKED = Set.of(RunRecord.Kind.SPOT_INTERRUPTION_WARNING,
      RunRecord.Kind.SPOT_RECLAIMED, RunRecord.Kind.DISRUPTION_EXECUTED, RunRecord.Kind.NODECLAIM_LAUNCHED,
      RunRecord.Kind.NODECLAIM_DELETING, RunRecord.Kind.POD_EVICTED, RunRecord.Kind.INVARIANT_VIOLATED);

  public static List<RunMarker> of(RunRecord record, Instant start) {
    List<RunMarker> out = new ArrayList<>();
    for (RunRecord.Entry e : record.entries()) {
      if (MARKED.contains(e.kind())) {
        out.add(new RunMarker(ClusterTables.title(e.kind()), Duration.between(start, e.time()).getSeconds(),
            e.subject(), e.message()));
      }
    }
    return out;
  }

  /** An interruption or a disruption: what a reader of the run looks for first. */
  public boolean disruptive() {
    return kind.startsWith("Spot") || kind.equals("DisruptionExecuted") || kind.equals("PodEvicted");
  }
}
