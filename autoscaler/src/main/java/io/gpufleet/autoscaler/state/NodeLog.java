package io.gpufleet.autoscaler.state;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

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

  /**
   * The splices after this entry up to {@code to}, in order, for a reader's list of {@code size} state
   * nodes that becomes one of {@code target}: empty when {@code to} is this entry; null when {@code to} is
   * not on the chain within more than {@code size / 4 + 16} splices (a pass over every node costs no
   * more) or the splices do not fit the list.
   */
  public List<NodeLog> pathTo(NodeLog to, int size, int target) {
    List<NodeLog> out = new ArrayList<>();
    int limit = size / 4 + 16;
    int n = size; // each splice must fit the list it applies to
    for (NodeLog e = this; e != to; ) {
      e = out.size() > limit ? null : e.next;
      if (e == null || e.at + e.removed > n) {
        return null;
      }
      n += e.inserted.size() - e.removed;
      out.add(e);
    }
    return n == target ? out : null;
  }

  /**
   * Applies {@code path} ({@link #pathTo}) to {@code rows}, a reader's rows in step with the state nodes:
   * each row a splice takes out goes to {@code left}, then each node it puts in becomes the row
   * {@code came} makes of it.
   */
  public static <R> void apply(List<NodeLog> path, List<R> rows, Function<StateNode, R> came, Consumer<R> left) {
    for (NodeLog e : path) {
      List<R> range = rows.subList(e.at, e.at + e.removed);
      range.forEach(left);
      range.clear();
      List<R> put = new ArrayList<>(e.inserted.size());
      for (StateNode n : e.inserted) {
        put.add(came.apply(n));
      }
      rows.addAll(e.at, put);
    }
  }
}
