package io.gpufleet.report.timeline;

import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.sim.state.ClusterState;
import io.gpufleet.sim.state.NodeState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One node's life on the run's timeline (keyed by its NodeClaim where it has one): the spans of
 * its lifecycle states, in seconds from the start, and when it left the cluster, if it did.
 */
public record LifecycleLane(String key, String node, List<Span> spans, Optional<Long> deletedSeconds) {

  public LifecycleLane {
    spans = List.copyOf(spans);
  }

  /** A lifecycle state from one second to another. */
  public record Span(NodeLifecycle state, long from, long to) {}

  /** The lanes of every node and NodeClaim seen in the frames, in order of first appearance. */
  public static List<LifecycleLane> of(List<Frame> frames, Instant start, Instant end) {
    Map<String, Building> lanes = new LinkedHashMap<>();
    Map<String, NodeLifecycle> current = new TreeMap<>();
    for (Frame f : frames) {
      ClusterState s = f.state();
      Map<String, NodeLifecycle> now = new TreeMap<>();
      Map<String, String> names = new TreeMap<>();
      for (NodeState n : s.nodes().values()) {
        String key = n.claim().orElse(n.name());
        now.put(key, NodeLifecycle.of(s, n));
        names.put(key, n.name());
      }
      for (NodeClaim c : s.claims().values()) {
        if (!now.containsKey(c.name())) {
          now.put(c.name(), NodeLifecycle.of(c));
          names.put(c.name(), c.nodeName().orElse(c.name()));
        }
      }
      long t = seconds(start, f.time());
      for (var e : now.entrySet()) {
        Building lane = lanes.computeIfAbsent(e.getKey(), Building::new);
        lane.node = names.get(e.getKey());
        if (e.getValue() != current.get(e.getKey())) {
          lane.close(t);
          lane.open = e.getValue();
          lane.openedAt = t;
        }
      }
      for (String gone : current.keySet()) {
        if (!now.containsKey(gone)) {
          lanes.get(gone).close(t);
          lanes.get(gone).deleted = Optional.of(t);
        }
      }
      current = now;
    }
    long last = seconds(start, end);
    List<LifecycleLane> out = new ArrayList<>();
    for (Building b : lanes.values()) {
      b.close(last);
      out.add(new LifecycleLane(b.key, b.node, b.spans, b.deleted));
    }
    return out;
  }

  static long seconds(Instant start, Instant t) {
    return Duration.between(start, t).getSeconds();
  }

  /** A lane while the frames are read. */
  private static final class Building {
    final String key;
    String node;
    final List<Span> spans = new ArrayList<>();
    NodeLifecycle open;
    long openedAt;
    Optional<Long> deleted = Optional.empty();

    Building(String key) {
      this.key = key;
      this.node = key;
    }

    void close(long t) {
      if (open != null) {
        spans.add(new Span(open, openedAt, t));
        open = null;
      }
    }
  }
}
