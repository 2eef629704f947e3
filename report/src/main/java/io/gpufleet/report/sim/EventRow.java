package io.gpufleet.report.sim;

import io.gpufleet.report.table.Table;
import io.gpufleet.sim.record.RunRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One row of an event log, as the dashboard's log and the report's tables show it: the entry's
 * place in the run record, when, its Kubernetes-style reason, the object and the message.
 */
public record EventRow(int index, Instant time, String reason, String object, String message) {

  /** The run record's entries {@code from} (inclusive) to {@code to} (exclusive; clamped to its end). */
  public static List<EventRow> of(RunRecord record, int from, int to) {
    List<RunRecord.Entry> entries = record.entries();
    int end = Math.min(to, entries.size());
    List<EventRow> out = new ArrayList<>(Math.max(0, end - from));
    for (int i = from; i < end; i++) {
      RunRecord.Entry e = entries.get(i);
      out.add(new EventRow(i, e.time(), ClusterTables.title(e.kind()), e.subject(), e.message()));
    }
    return out;
  }

  public long seconds(Instant start) {
    return Duration.between(start, time).getSeconds();
  }

  /** The rows as a table: TIME (offset from {@code start}), EVENT, OBJECT, MESSAGE. */
  public static Table table(List<EventRow> rows, Instant start) {
    List<List<String>> cells = new ArrayList<>(rows.size());
    for (EventRow r : rows) {
      cells.add(Table.cells(Durations.offset(start, r.time()), r.reason(), r.object(), r.message()));
    }
    return new Table(List.of("TIME", "EVENT", "OBJECT", "MESSAGE"), cells);
  }
}
