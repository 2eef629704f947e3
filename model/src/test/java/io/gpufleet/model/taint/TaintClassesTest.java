package io.gpufleet.model.taint;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The kept answers of {@link TaintClasses} are the ones {@link Tolerations} gives for the lists
 * themselves: seeded taint and toleration lists, asked in a random order, new taint lists numbered
 * after answers for earlier ones were kept.
 */
class TaintClassesTest {

  private static final String[] KEYS = {"nvidia.com/gpu", "dedicated", "spot", ""};
  private static final TaintEffect[] EFFECTS = TaintEffect.values();

  @Test
  void keptAnswersAreTheListsOwn() {
    for (long seed = 1; seed <= 30; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      TaintClasses classes = new TaintClasses();
      List<List<Taint>> taintLists = new ArrayList<>();
      List<List<Toleration>> tolerationLists = new ArrayList<>();
      int blocked = 0;
      int tolerated = 0;
      for (int step = 0; step < 400; step++) {
        if (taintLists.isEmpty() || r.nextInt(4) == 0) {
          taintLists.add(taints(r));
        }
        if (tolerationLists.isEmpty() || r.nextInt(4) == 0) {
          tolerationLists.add(tolerations(r));
        }
        // A fresh copy each time: equal lists share a number and an answer, whatever the object.
        List<Taint> taints = new ArrayList<>(taintLists.get(r.nextInt(taintLists.size())));
        List<Toleration> tols = new ArrayList<>(tolerationLists.get(r.nextInt(tolerationLists.size())));
        boolean kept = classes.of(tols).tolerates(classes.classOf(taints));
        boolean fresh = Tolerations.firstUntoleratedBlockingOrNull(taints, tols) == null;
        assertThat(kept).as("seed %d step %d: %s against %s", seed, step, tols, taints).isEqualTo(fresh);
        if (fresh) {
          tolerated++;
        } else {
          blocked++;
        }
      }
      assertThat(tolerated).as("seed %d asks both answers", seed).isPositive();
      assertThat(blocked).as("seed %d asks both answers", seed).isPositive();
    }
  }

  @Test
  void equalListsShareANumber() {
    TaintClasses classes = new TaintClasses();
    Taint gpu = Taint.of("nvidia.com/gpu", "true", TaintEffect.NO_SCHEDULE);
    int a = classes.classOf(List.of(gpu));
    assertThat(classes.classOf(new ArrayList<>(List.of(gpu)))).isEqualTo(a);
    assertThat(classes.classOf(List.of())).isNotEqualTo(a);
  }

  private static List<Taint> taints(SplittableRandom r) {
    List<Taint> out = new ArrayList<>();
    for (int i = r.nextInt(3); i > 0; i--) {
      String key = KEYS[r.nextInt(KEYS.length - 1)];
      out.add(Taint.of(key, r.nextBoolean() ? "true" : "a", EFFECTS[r.nextInt(EFFECTS.length)]));
    }
    return out;
  }

  private static List<Toleration> tolerations(SplittableRandom r) {
    List<Toleration> out = new ArrayList<>();
    for (int i = r.nextInt(3); i > 0; i--) {
      String key = KEYS[r.nextInt(KEYS.length)];
      Toleration.Operator op = key.isEmpty() || r.nextBoolean() ? Toleration.Operator.EXISTS
          : Toleration.Operator.EQUAL;
      Optional<TaintEffect> effect = r.nextBoolean() ? Optional.empty()
          : Optional.of(EFFECTS[r.nextInt(EFFECTS.length)]);
      out.add(new Toleration(key, op, op == Toleration.Operator.EQUAL ? "true" : "", effect, OptionalLong.empty()));
    }
    return out;
  }
}
