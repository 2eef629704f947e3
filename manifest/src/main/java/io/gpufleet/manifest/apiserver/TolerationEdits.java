package io.gpufleet.manifest.apiserver;

import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import java.util.ArrayList;
import java.util.List;

/** The toleration helpers admission plugins share, as kubernetes/kubernetes writes them. */
final class TolerationEdits {
  private TolerationEdits() {}

  /**
   * {@code AddOrUpdateTolerationInPod} (pkg/apis/core/helper/helpers.go): a toleration matching
   * {@code t} by key, operator, value and effect ({@code MatchToleration}) is replaced by it (kept
   * when already equal); otherwise {@code t} is appended.
   */
  static List<Toleration> addOrUpdate(List<Toleration> tolerations, Toleration t) {
    List<Toleration> out = new ArrayList<>(tolerations.size() + 1);
    boolean updated = false;
    for (Toleration existing : tolerations) {
      if (existing.key().equals(t.key()) && existing.operator() == t.operator() && existing.value().equals(t.value())
          && existing.effect().equals(t.effect())) {
        if (existing.equals(t)) {
          return tolerations;
        }
        out.add(t);
        updated = true;
      } else {
        out.add(existing);
      }
    }
    if (!updated) {
      out.add(t);
    }
    return out;
  }

  /**
   * {@code MergeTolerations} (pkg/util/tolerations/tolerations.go): {@code first} then {@code second},
   * dropping each toleration another tolerates a superset of (of equal ones, the first stays).
   */
  static List<Toleration> merge(List<Toleration> first, List<Toleration> second) {
    List<Toleration> all = new ArrayList<>(first);
    all.addAll(second);
    List<Toleration> merged = new ArrayList<>();
    next:
    for (int i = 0; i < all.size(); i++) {
      Toleration t = all.get(i);
      for (Toleration kept : merged) {
        if (isSuperset(kept, t)) {
          continue next;
        }
      }
      for (Toleration later : all.subList(i + 1, all.size())) {
        if (!t.equals(later) && isSuperset(later, t)) {
          continue next;
        }
      }
      merged.add(t);
    }
    return merged;
  }

  /** {@code isSuperset} (same file): whether {@code ss} tolerates everything {@code t} does. */
  static boolean isSuperset(Toleration ss, Toleration t) {
    if (ss.equals(t)) {
      return true;
    }
    if (!t.key().equals(ss.key()) && (!ss.key().isEmpty() || ss.operator() != Toleration.Operator.EXISTS)) {
      return false;
    }
    if (!t.effect().equals(ss.effect()) && ss.effect().isPresent()) {
      return false;
    }
    if (ss.effect().equals(java.util.Optional.of(TaintEffect.NO_EXECUTE)) && ss.tolerationSeconds().isPresent()
        && (t.tolerationSeconds().isEmpty()
            || t.tolerationSeconds().getAsLong() > ss.tolerationSeconds().getAsLong())) {
      return false;
    }
    return switch (ss.operator()) {
      case EQUAL -> t.operator() == Toleration.Operator.EQUAL && t.value().equals(ss.value());
      case EXISTS -> true;
    };
  }
}
