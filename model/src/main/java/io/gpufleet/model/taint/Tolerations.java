package io.gpufleet.model.taint;

import java.util.List;
import java.util.Optional;

/** Questions asked of a pod's toleration list against a node's taints. */
public final class Tolerations {
  private Tolerations() {}

  public static boolean tolerates(List<Toleration> tolerations, Taint taint) {
    for (Toleration t : tolerations) {
      if (t.tolerates(taint)) {
        return true;
      }
    }
    return false;
  }

  /** The first NoSchedule or NoExecute taint, in node order, that no toleration matches. */
  public static Optional<Taint> firstUntoleratedBlocking(List<Taint> taints, List<Toleration> tolerations) {
    for (Taint taint : taints) {
      if (taint.effect().blocksScheduling() && !tolerates(tolerations, taint)) {
        return Optional.of(taint);
      }
    }
    return Optional.empty();
  }
}
