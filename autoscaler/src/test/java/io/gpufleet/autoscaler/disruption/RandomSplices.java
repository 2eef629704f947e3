package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.state.NodeLog;
import io.gpufleet.autoscaler.state.StateNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * Random changes of a view's node list as the view builder makes them (a range replaced, often by
 * nothing or by one node; a group put back in another order), each appended to the view's
 * {@link NodeLog}: for the tests that follow views by their splices against fresh answers.
 */
final class RandomSplices {
  private RandomSplices() {}

  /**
   * Replaces a random range of {@code nodes} (at most three) by what {@code fill} makes of it, or by its
   * own nodes in reverse order, and returns {@code log} with that splice appended; the range's nodes go
   * to {@code gone} too, unless it is null.
   */
  static NodeLog splice(SplittableRandom r, List<StateNode> nodes, NodeLog log, List<StateNode> gone,
      Function<List<StateNode>, List<StateNode>> fill) {
    int at = r.nextInt(nodes.size() + 1);
    int removed = Math.min(nodes.size() - at, switch (r.nextInt(4)) {
      case 0 -> 0;
      case 1, 2 -> 1;
      default -> r.nextInt(4);
    });
    List<StateNode> range = nodes.subList(at, at + removed);
    if (gone != null) {
      gone.addAll(range);
    }
    List<StateNode> inserted = new ArrayList<>();
    if (removed > 1 && r.nextBoolean()) { // a group put back in another order: the same state nodes
      inserted.addAll(range);
      Collections.reverse(inserted);
    } else {
      inserted.addAll(fill.apply(List.copyOf(range)));
    }
    range.clear();
    nodes.addAll(at, inserted);
    return log.splice(at, removed, inserted);
  }

  /** How many new nodes a splice of {@code range} makes: none to two, at least one where it removes none. */
  static int count(SplittableRandom r, List<StateNode> range) {
    return r.nextInt(range.isEmpty() ? 1 : 0, 3);
  }
}
