package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.state.NodeLog;
import java.util.ArrayList;
import java.util.List;

/**
 * The view builder's splices ({@link NodeLog}) that bring a list of state nodes kept by a reader from
 * the entry it matches to another view's, for readers that follow views by them.
 */
final class NodeLogPath {

  private NodeLogPath() {}

  /**
   * The splices after {@code from} up to {@code to}, in order, for a list of {@code size} state nodes
   * that becomes one of {@code target}: empty when {@code to} is {@code from}; null when {@code to} is
   * not on the chain within more than {@code size / 4 + 16} splices (a pass over every node costs no
   * more) or the splices do not fit the list.
   */
  static List<NodeLog> between(NodeLog from, NodeLog to, int size, int target) {
    List<NodeLog> out = new ArrayList<>();
    int limit = size / 4 + 16;
    int n = size; // each splice must fit the list it applies to
    for (NodeLog e = from; e != to; ) {
      e = e == null || out.size() > limit ? null : e.next();
      if (e == null) {
        return null;
      }
      if (e.at() + e.removed() > n) {
        return null;
      }
      n += e.inserted().size() - e.removed();
      out.add(e);
    }
    return n == target ? out : null;
  }
}
