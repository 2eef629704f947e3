package io.gpufleet.model.taint;

import java.util.List;
import java.util.Optional;

/** Questions asked of a pod's toleration list against a node's taints. */
public final class Tolerations {
  private Tolerations() {}

  public static boolean tolerates(List<Toleration> tolerations, Taint taint) {
    for (int i = 0, n = tolerations.size(); i < n; i++) {
      if (tolerations.get(i).tolerates(taint)) {
        return true;
      }
    }
    return false;
  }

  /** The first NoSchedule or NoExecute taint, in node order, that no toleration matches. */
  public static Optional<Taint> firstUntoleratedBlocking(List<Taint> taints, List<Toleration> tolerations) {
    return Optional.ofNullable(firstUntoleratedBlockingOrNull(taints, tolerations));
  }

  /** As {@link #firstUntoleratedBlocking}, without allocating on the scheduler's hot path. */
  public static Taint firstUntoleratedBlockingOrNull(List<Taint> taints, List<Toleration> tolerations) {
    for (int i = 0, n = taints.size(); i < n; i++) {
      Taint taint = taints.get(i);
      if (taint.effect().blocksScheduling() && !tolerates(tolerations, taint)) {
        return taint;
      }
    }
    return null;
  }
}
