package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.workload.Workload;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Each node's {@link ExistingNode.Base} from one provisioning round to the next, by state node:
 * Karpenter's view hands back the same (immutable) state node while nothing about the node changed,
 * so a round works out afresh only the nodes that changed, not the whole fleet's pods. Kept while the
 * counted DaemonSets are equal; only the last round's nodes are kept.
 */
final class NodeBases {
  private Map<StateNode, ExistingNode.Base> last = new IdentityHashMap<>();
  private Map<StateNode, ExistingNode.Base> next = new IdentityHashMap<>();
  private List<Workload.DaemonSet> daemons;

  /** A round begins with these counted DaemonSets. */
  void begin(List<Workload.DaemonSet> counted) {
    if (!counted.equals(daemons)) {
      last = new IdentityHashMap<>();
      daemons = List.copyOf(counted);
    }
    next = new IdentityHashMap<>();
  }

  ExistingNode.Base get(StateNode node, Supplier<ExistingNode.Base> make) {
    ExistingNode.Base b = last.get(node);
    if (b == null) {
      b = make.get();
    }
    next.put(node, b);
    return b;
  }

  /** The round has every node it needs: they are what the next one may reuse. */
  void end() {
    last = next;
  }
}
