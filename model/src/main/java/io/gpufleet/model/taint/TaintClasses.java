package io.gpufleet.model.taint;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether pods tolerate nodes, asked once per pair of (toleration list, taint list) rather than per
 * pair of (pod, node): a fleet's nodes share a few taint lists and its pods a few toleration lists,
 * and the answer ({@link Tolerations#firstUntoleratedBlockingOrNull}) depends on the two lists'
 * contents alone. Taint lists are numbered by {@link #classOf} (equal lists, one number); an answer
 * is worked out the first time it is asked and kept. A memo of one owner, not shared state.
 */
public final class TaintClasses {
  private final Map<List<Taint>, Integer> numbers = new HashMap<>();
  private final List<List<Taint>> lists = new ArrayList<>();
  private final Map<List<Toleration>, Tolerance> answers = new HashMap<>();

  /** The number of this taint list: equal lists get the same one. */
  public int classOf(List<Taint> taints) {
    Integer n = numbers.get(taints);
    if (n == null) {
      n = lists.size();
      List<Taint> copy = List.copyOf(taints);
      numbers.put(copy, n);
      lists.add(copy);
    }
    return n;
  }

  /** What a pod with these tolerations tolerates among the numbered taint lists. */
  public Tolerance of(List<Toleration> tolerations) {
    Tolerance t = answers.get(tolerations);
    if (t == null) {
      List<Toleration> copy = List.copyOf(tolerations);
      t = new Tolerance(copy);
      answers.put(copy, t);
    }
    return t;
  }

  /** One toleration list's answers, by taint list number. */
  public final class Tolerance {
    private final List<Toleration> tolerations;
    private byte[] known = new byte[0]; // 0 not yet asked, 1 tolerated, 2 a blocking taint is not

    private Tolerance(List<Toleration> tolerations) {
      this.tolerations = tolerations;
    }

    /** Whether every NoSchedule and NoExecute taint of the numbered list is tolerated. */
    public boolean tolerates(int taintClass) {
      if (taintClass >= known.length) {
        known = Arrays.copyOf(known, Math.max(lists.size(), taintClass + 1));
      }
      byte k = known[taintClass];
      if (k == 0) {
        k = Tolerations.firstUntoleratedBlockingOrNull(lists.get(taintClass), tolerations) == null ? (byte) 1 : 2;
        known[taintClass] = k;
      }
      return k == 1;
    }
  }
}
