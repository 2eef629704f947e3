package io.gpufleet.autoscaler.provisioning;

import java.util.function.ObjIntConsumer;

/**
 * The nodes a provisioning round has made so far ({@link ExistingNode}), by position in the fleet's
 * order: an open-addressing map from position to node. A round touches few of the fleet's nodes, so
 * it holds only those, at the cost of the nodes it touches rather than of the fleet.
 */
final class ExistingNodes {
  /** Position + 1 in each slot, 0 where empty; a power of two long. */
  private int[] keys = new int[16];
  private ExistingNode[] nodes = new ExistingNode[16];
  private int size;

  ExistingNode get(int position) {
    int mask = keys.length - 1;
    for (int s = slot(position, mask); ; s = (s + 1) & mask) {
      int k = keys[s];
      if (k == position + 1) {
        return nodes[s];
      }
      if (k == 0) {
        return null;
      }
    }
  }

  void put(int position, ExistingNode node) {
    int mask = keys.length - 1;
    int s = slot(position, mask);
    while (keys[s] != 0 && keys[s] != position + 1) {
      s = (s + 1) & mask;
    }
    nodes[s] = node;
    if (keys[s] == 0) {
      keys[s] = position + 1;
      if (++size * 2 > keys.length) {
        grow();
      }
    }
  }

  /** Each position and its node, in no particular order. */
  void forEach(ObjIntConsumer<ExistingNode> action) {
    for (int s = 0; s < keys.length; s++) {
      if (keys[s] != 0) {
        action.accept(nodes[s], keys[s] - 1);
      }
    }
  }

  private void grow() {
    int[] oldKeys = keys;
    ExistingNode[] oldNodes = nodes;
    keys = new int[oldKeys.length * 2];
    nodes = new ExistingNode[oldKeys.length * 2];
    size = 0;
    for (int s = 0; s < oldKeys.length; s++) {
      if (oldKeys[s] != 0) {
        put(oldKeys[s] - 1, oldNodes[s]);
      }
    }
  }

  private static int slot(int position, int mask) {
    return (position * 0x9E3779B9 >>> 16) & mask;
  }
}
