package io.gpufleet.model.gpu.share;

import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * The GPU models a pod accepts, e.g. {@code V100M16|V100M32}; empty accepts any model. Held sorted and
 * without duplicates, so two lists naming the same models are equal.
 */
public record CardModelAllowList(List<String> models) {

  public static final CardModelAllowList ANY = new CardModelAllowList(List.of());

  public CardModelAllowList {
    TreeSet<String> sorted = new TreeSet<>();
    for (String m : models) {
      if (m == null || m.isBlank()) {
        throw new IllegalArgumentException("a GPU model name must not be blank");
      }
      sorted.add(m);
    }
    models = List.copyOf(sorted);
  }

  public static CardModelAllowList of(Collection<String> models) {
    return models.isEmpty() ? ANY : new CardModelAllowList(List.copyOf(models));
  }

  public boolean isAny() {
    return models.isEmpty();
  }

  /** Whether a card of {@code model} may serve the pod; a node without GPUs has the model "". */
  public boolean permits(String model) {
    return models.isEmpty() || models.contains(model);
  }

  @Override
  public String toString() {
    return String.join("|", models);
  }
}
