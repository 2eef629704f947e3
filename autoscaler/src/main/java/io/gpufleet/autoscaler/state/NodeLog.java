package io.gpufleet.autoscaler.state;

import java.util.List;

/**
 * How each list of state nodes a view builder hands out came from the one before: a chain of
 * splices, each replacing {@link #removed} state nodes at {@link #at} by {@link #inserted}. A view
 * holds the chain's last entry at its making ({@link ClusterView#nodeLog}); a reader that matched an
 * earlier view's list follows the chain from that view's entry to this one's, applying each splice,
 * instead of matching the whole list again (issue 33 item 7: the disruption poll's memo passed over
 * every state node at each view, though a view mostly changes a few). A chain ends where the builder
 * built its list afresh; a reader that cannot reach a view's entry from its own matches that view's
 * list in full.
 */
public final class NodeLog {

  private final int at;
  private final int removed;
  private final List<StateNode> inserted;
  /** The splice after this one; null while this is the last. */
  private NodeLog next;

  private NodeLog(int at, int removed, List<StateNode> inserted) {
    this.at = at;
    this.removed = removed;
    this.inserted = inserted;
  }

  /** The first entry of a chain: a list built afresh (no splice of its own). */
  public static NodeLog start() {
    return new NodeLog(0, 0, List.of());
  }

  /** Appends a splice after this entry, which must be the chain's last, and returns the new last entry. */
  public NodeLog splice(int at, int removed, List<StateNode> inserted) {
    if (next != null) {
      throw new IllegalStateException("not the last entry of its chain");
    }
    if (at < 0 || removed < 0) {
      throw new IllegalArgumentException("splice at " + at + " removing " + removed);
    }
    next = new NodeLog(at, removed, List.copyOf(inserted));
    return next;
  }

  /** The splice after this one, or null. */
  public NodeLog next() {
    return next;
  }

  /** Where the splice starts in the list before it. */
  public int at() {
    return at;
  }

  /** How many state nodes it takes out there. */
  public int removed() {
    return removed;
  }

  /** The state nodes it puts there instead, in order. */
  public List<StateNode> inserted() {
    return inserted;
  }
}
