package io.gpufleet.engine.placement;

import io.gpufleet.model.gpu.share.CardModelAllowList;
import io.gpufleet.model.gpu.share.ShareNode;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * The GPU models of one cluster, numbered so that a node carries a small int and a pod's allow-list
 * becomes a bit mask: the fit check in the hot loop is then one shift and one and.
 */
public final class CardModels {

  /** The mask of a pod that accepts any model. */
  public static final long ANY = -1L;

  private final List<String> names;

  private CardModels(List<String> names) {
    if (names.size() > 63) {
      throw new IllegalArgumentException("at most 63 GPU models per cluster, found " + names.size());
    }
    this.names = List.copyOf(names);
  }

  /** The models of these nodes, numbered in name order so the numbering never depends on list order. */
  public static CardModels of(Collection<ShareNode> nodes) {
    TreeSet<String> sorted = new TreeSet<>();
    for (ShareNode n : nodes) {
      if (n.cards() > 0) {
        sorted.add(n.cardModel());
      }
    }
    return new CardModels(List.copyOf(sorted));
  }

  /** The number of a model, or -1 for a node without cards or a model this cluster does not have. */
  public int id(String model) {
    return names.indexOf(model);
  }

  public String name(int id) {
    return id < 0 ? "" : names.get(id);
  }

  public int size() {
    return names.size();
  }

  /** The models a pod accepts as a mask over {@link #id}; models absent from the cluster match nothing. */
  public long mask(CardModelAllowList allowed) {
    if (allowed.isAny()) {
      return ANY;
    }
    long mask = 0;
    for (String m : allowed.models()) {
      int id = id(m);
      if (id >= 0) {
        mask |= 1L << id;
      }
    }
    return mask;
  }

  public static boolean permits(long mask, int model) {
    return model >= 0 && (mask >>> model & 1L) != 0;
  }
}
