package io.gpufleet.engine.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Chunked arrays, changed at random (set, append, remove, and for ints every element of one value
 * rewritten) across chunk boundaries, read as plain arrays changed the same way after every change;
 * and every earlier array still reads as it did, since they share chunks.
 */
class ChunkedArrayTest {

  // Fixed seeds: the same runs every build. Sizes wander up to a few chunks and down to none.
  @Test
  void eachKindReadsAsAPlainArrayChangedTheSameWay() {
    for (long seed : new long[] {20261208L, 7L, 31L}) {
      SplittableRandom r = new SplittableRandom(seed);
      List<Integer> plain = new ArrayList<>();
      ChunkedArray.Refs<String> refs = ChunkedArray.Refs.of(List.of());
      ChunkedArray.Ints ints = ChunkedArray.Ints.of(new int[0]);
      ChunkedArray.Longs longs = ChunkedArray.Longs.of(new long[0]);
      List<Object[]> earlier = new ArrayList<>();
      for (int step = 0; step < 4000; step++) {
        // Growing for a while, then shrinking, so every size from none to a few chunks comes up.
        boolean grow = step / 500 % 2 == 0;
        int op = r.nextInt(10);
        int v = r.nextInt(6);
        if (plain.isEmpty() || op < (grow ? 4 : 1)) {
          plain.add(v);
          refs = refs.append(String.valueOf(v));
          ints = ints.append(v);
          longs = longs.append(-v);
        } else if (op < 5) {
          int i = r.nextInt(plain.size());
          plain.remove(i);
          refs = refs.without(i);
          ints = ints.without(i);
          longs = longs.without(i);
        } else if (op < 9) {
          int i = r.nextInt(plain.size());
          plain.set(i, v);
          refs = refs.set(i, String.valueOf(v));
          ints = ints.set(i, v);
          longs = longs.set(i, -v);
        } else {
          int from = r.nextInt(6);
          boolean held = plain.contains(from);
          plain.replaceAll(x -> x == from ? v : x);
          ChunkedArray.Ints before = ints;
          ints = ints.replaceAll(from, v);
          if (!held) {
            assertThat(ints).as("step %d: nothing to rewrite, the same array", step).isSameAs(before);
          }
          refs = ChunkedArray.Refs.of(plain.stream().map(String::valueOf).toList());
          long[] negated = new long[plain.size()];
          for (int i = 0; i < negated.length; i++) {
            negated[i] = -plain.get(i);
          }
          longs = ChunkedArray.Longs.of(negated);
        }
        assertReads(plain, refs, ints, longs, step);
        if (step % 97 == 0) {
          earlier.add(new Object[] {List.copyOf(plain), refs, ints, longs, step});
        }
      }
      for (Object[] e : earlier) {
        @SuppressWarnings("unchecked")
        List<Integer> was = (List<Integer>) e[0];
        @SuppressWarnings("unchecked")
        ChunkedArray.Refs<String> wasRefs = (ChunkedArray.Refs<String>) e[1];
        assertReads(was, wasRefs, (ChunkedArray.Ints) e[2], (ChunkedArray.Longs) e[3], (int) e[4]);
      }
    }
  }

  private static void assertReads(List<Integer> plain, ChunkedArray.Refs<String> refs, ChunkedArray.Ints ints,
      ChunkedArray.Longs longs, int step) {
    assertThat(refs.size()).as("step %d", step).isEqualTo(plain.size());
    assertThat(ints.size()).as("step %d", step).isEqualTo(plain.size());
    assertThat(longs.size()).as("step %d", step).isEqualTo(plain.size());
    for (int i = 0; i < plain.size(); i++) {
      assertThat(refs.get(i)).as("step %d, element %d", step, i).isEqualTo(String.valueOf(plain.get(i)));
      assertThat(ints.get(i)).as("step %d, element %d", step, i).isEqualTo(plain.get(i));
      assertThat(longs.get(i)).as("step %d, element %d", step, i).isEqualTo(-plain.get(i));
    }
    assertThat(refs.asList()).as("step %d", step).containsExactlyElementsOf(
        plain.stream().map(String::valueOf).toList());
    // Past the size the chunks hold nothing: a removed node is not kept alive by its old chunk.
    int end = refs.chunks.length * ChunkedArray.SIZE;
    for (int i = plain.size(); i < end; i++) {
      assertThat(((Object[]) refs.chunks[i >>> ChunkedArray.SHIFT])[i & ChunkedArray.MASK]).as("step %d", step)
          .isNull();
    }
  }
}
