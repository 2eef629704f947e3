package io.gpufleet.report.timeline;

import io.gpufleet.model.collect.PMap;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.sim.state.ClusterState;
import io.gpufleet.sim.state.NodeState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

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

  /**
   * The lanes of every node and NodeClaim seen in the frames, in order of first appearance (keys first
   * seen in one frame in key order). Each frame is read as its change from the one before (images
   * share what did not change), so the cost follows the nodes that changed, not the fleet's size.
   */
  public static List<LifecycleLane> of(List<Frame> frames, Instant start, Instant end) {
    Map<String, Building> lanes = new LinkedHashMap<>();
    // Each registered node's lane key (its NodeClaim, else its name) and the node under each key.
    Map<String, String> keyOfNode = new HashMap<>();
    Map<String, String> nodeOfKey = new HashMap<>();
    ClusterState before = null;
    for (Frame f : frames) {
      ClusterState s = f.state();
      PMap<String, NodeState> nodesBefore = before == null ? PMap.empty() : before.nodes();
      PMap<String, NodeClaim> claimsBefore = before == null ? PMap.empty() : before.claims();
      Set<String> touched = new TreeSet<>();
      nodesBefore.diff(s.nodes(), (name, was, now) -> {
        String oldKey = keyOfNode.remove(name);
        if (oldKey != null) {
          nodeOfKey.remove(oldKey, name);
          touched.add(oldKey);
        }
        if (now != null) {
          String key = now.claim().orElse(name);
          keyOfNode.put(name, key);
          nodeOfKey.put(key, name);
          touched.add(key);
        }
      });
      claimsBefore.diff(s.claims(), (name, was, now) -> touched.add(name));
      long t = seconds(start, f.time());
      for (String key : touched) {
        String nodeName = nodeOfKey.get(key);
        NodeLifecycle state;
        String name;
        if (nodeName != null) {
          state = NodeLifecycle.of(s, s.nodes().get(nodeName));
          name = nodeName;
        } else if (s.claims().get(key) != null) {
          NodeClaim c = s.claims().get(key);
          state = NodeLifecycle.of(c);
          name = c.nodeName().orElse(key);
        } else {
          Building gone = lanes.get(key);
          if (gone != null && gone.open != null) {
            gone.close(t);
            gone.deleted = Optional.of(t);
          }
          continue;
        }
        Building lane = lanes.computeIfAbsent(key, Building::new);
        lane.node = name;
        if (state != lane.open) {
          lane.close(t);
          lane.open = state;
          lane.openedAt = t;
        }
      }
      before = s;
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
