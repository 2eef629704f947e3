package io.gpufleet.sim.record;

import io.gpufleet.model.wire.WireEnum;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Everything that happened in a run, in order: the material for reports. */
public record RunRecord(List<Entry> entries) {

  public RunRecord {
    entries = List.copyOf(entries);
  }

  /** What kind of thing happened; its wire name ({@code KarpenterEvent}) is how reports and scenarios write it. */
  public enum Kind implements WireEnum {
    SCENARIO, POD_CREATED, POD_SCHEDULED, POD_STARTED, POD_READY, POD_FAILED_SCHEDULING, POD_NOMINATED, POD_PREEMPTED, POD_EVICTED,
    POD_DELETED,
    POD_FAILED, POD_EXITED, POD_KILLED, POD_SUCCEEDED, NODECLAIM_LAUNCHED, NODECLAIM_LAUNCH_FAILED, NODE_REGISTERED, NODE_READY,
    NODECLAIM_REGISTERED, NODECLAIM_INITIALIZED, NODECLAIM_DRIFTED, NODECLAIM_DELETING, NODE_TERMINATED,
    DEVICE_PLUGIN_REGISTERED, DEVICE_PLUGIN_STOPPED, DEVICE_ALLOCATION_REFUSED, NODE_LABELED, NODE_TAINTED, NODE_UNTAINTED, IMAGE_PULLED, KARPENTER_EVENT,
    DISRUPTION_PROPOSED, DISRUPTION_CONSIDERED, DISRUPTION_EXECUTED, DISRUPTION_ABANDONED, SPOT_INTERRUPTION_WARNING,
    SPOT_RECLAIMED,
    OFFERING_UNAVAILABLE, EXPECTATION, INVARIANT_VIOLATED,
    /** EC2's capacity reservations: a start, a capacity block's expiring and reclaim, an end. */
    CAPACITY_RESERVATION,
    /** Kueue's events about a Workload, "Reason: message" in Kueue's words (QuotaReserved, Admitted, Pending, ...). */
    KUEUE_EVENT
  }

  /** One occurrence: when, in which order, what, about which object, and the detail. */
  public record Entry(Instant time, long sequence, Kind kind, String subject, String message) {
    @Override
    public String toString() {
      return time + " " + kind + " " + subject + (message.isEmpty() ? "" : ": " + message);
    }
  }

  public List<Entry> of(Kind kind) {
    return entries.stream().filter(e -> e.kind() == kind).toList();
  }

  public List<Entry> about(String subject) {
    return entries.stream().filter(e -> e.subject().equals(subject)).toList();
  }

  /** Collects entries during a run. */
  public static final class Recorder {
    private final List<Entry> entries = new ArrayList<>();
    private final boolean enabled;
    private long sequence;

    public Recorder(boolean enabled) {
      this.enabled = enabled;
    }

    public void add(Instant time, Kind kind, String subject, String message) {
      if (enabled || kind == Kind.EXPECTATION || kind == Kind.INVARIANT_VIOLATED || kind == Kind.SCENARIO) {
        entries.add(new Entry(time, sequence++, kind, subject, message));
      }
    }

    /** The {@code i}-th entry recorded, from 0. */
    public Entry get(int i) {
      return entries.get(i);
    }

    /** Whether every occurrence is kept, or only expectations, violations and the scenario's own actions. */
    public boolean enabled() {
      return enabled;
    }

    /** Entries recorded so far. */
    public int size() {
      return entries.size();
    }

    public RunRecord build() {
      return new RunRecord(entries);
    }
  }
}
