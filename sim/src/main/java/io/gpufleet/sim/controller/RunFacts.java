package io.gpufleet.sim.controller;

import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.scenario.Condition;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What a run has done so far, beyond the cluster's current image: the run record's entries (indexed
 * by type as they come, so a condition checked after every event reads only the new ones), and the
 * disruptions, evictions and cost the metrics tally.
 */
final class RunFacts {

  private final ApiServer api;
  private final Map<RunRecord.Kind, List<RunRecord.Entry>> byKind = new EnumMap<>(RunRecord.Kind.class);
  private int indexed;

  RunFacts(ApiServer api) {
    this.api = api;
  }

  /** Whether the record keeps every occurrence; without it events cannot be counted. */
  boolean recording() {
    return api.recorder().enabled();
  }

  /** Entries so far that match the condition's type, Karpenter event reason and object. */
  int events(Condition.Events e) {
    RunRecord.Recorder r = api.recorder();
    for (; indexed < r.size(); indexed++) {
      RunRecord.Entry entry = r.get(indexed);
      byKind.computeIfAbsent(entry.kind(), k -> new ArrayList<>()).add(entry);
    }
    RunRecord.Kind kind = e.type().orElse(RunRecord.Kind.KARPENTER_EVENT);
    int n = 0;
    for (RunRecord.Entry entry : byKind.getOrDefault(kind, List.of())) {
      // A Karpenter event is recorded as "Reason: message", as kubectl lists an event's reason beside it.
      if (e.reason().map(reason -> entry.message().startsWith(reason + ":")).orElse(true)
          && e.object().map(entry.subject()::equals).orElse(true)) {
        n++;
      }
    }
    return n;
  }

  int disruptions(Condition.Disruptions d) {
    return api.metrics().disruptions(d.reason(), d.method());
  }

  int evictions(Condition.Evictions e) {
    return api.metrics().evictions(e.reason());
  }

  double cost() {
    return api.metrics().costSoFar(api.now());
  }
}
