package io.gpufleet.engine.scheduler;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * An immutable array kept in chunks of {@value #SIZE} elements, for the snapshot's per-node columns:
 * an element set or appended costs a copy of its chunk and of the table of chunks, not of the whole
 * array, so that a bind, an unbind or a node's change costs what it changed and not the fleet's size
 * (issue 33 item 7: each copied every per-node array, thousands of elements a change on 1,300 nodes).
 * An element removed shifts every later one, as in a plain array: a node leaves once in its life,
 * pods come and go on it all the time. A read goes through two arrays. Chunks are never written
 * once an array holds them, so arrays share them freely. A shortcut of the twin's, not a step of
 * kube-scheduler's; ChunkedArrayTest compares each kind with a plain array over seeded random changes.
 *
 * @param <S> the kind itself, which each change returns
 */
abstract sealed class ChunkedArray<S extends ChunkedArray<S>>
    permits ChunkedArray.Refs, ChunkedArray.Ints, ChunkedArray.Longs {

  static final int SHIFT = 6;
  static final int SIZE = 1 << SHIFT;
  static final int MASK = SIZE - 1;

  /**
   * The chunks, each an array of {@link #SIZE} elements; past {@link #size} they hold zeros (nulls).
   * The table's own type is the kind's ({@code int[][]}, ...), so that a read needs no cast.
   */
  final Object[] chunks;
  private final int size;

  ChunkedArray(Object[] chunks, int size) {
    this.chunks = chunks;
    this.size = size;
  }

  final int size() {
    return size;
  }

  /** A new chunk of this kind's element type, all zeros. */
  abstract Object newChunk();

  /** A new table of this kind's chunk type, empty. */
  abstract Object[] newTable(int length);

  abstract S make(Object[] chunks, int size);

  /** A copy of the table with element {@code i}'s chunk copied, for the caller to write that element. */
  final Object[] toWrite(int i) {
    Object[] table = chunks.clone();
    Object chunk = newChunk();
    System.arraycopy(table[i >>> SHIFT], 0, chunk, 0, SIZE);
    table[i >>> SHIFT] = chunk;
    return table;
  }

  /** A copy of the table with room for one more element, whose chunk is the caller's to write at {@link #size}. */
  final Object[] toAppend() {
    if ((size & MASK) == 0) {
      Object[] table = Arrays.copyOf(chunks, chunks.length + 1);
      table[chunks.length] = newChunk();
      return table;
    }
    return toWrite(size);
  }

  /** Without element {@code i}: the chunks before its own are shared, every later element moves down one. */
  final S without(int i) {
    int n = size - 1;
    int c = i >>> SHIFT;
    Object[] table = Arrays.copyOf(chunks, (n + MASK) >>> SHIFT);
    for (int k = c; k < table.length; k++) {
      Object chunk = newChunk();
      if (k == c) {
        int at = i & MASK;
        System.arraycopy(chunks[k], 0, chunk, 0, at);
        System.arraycopy(chunks[k], at + 1, chunk, at, SIZE - 1 - at);
      } else {
        System.arraycopy(chunks[k], 1, chunk, 0, SIZE - 1);
      }
      if (k + 1 < chunks.length) {
        System.arraycopy(chunks[k + 1], 0, chunk, SIZE - 1, 1);
      }
      table[k] = chunk;
    }
    return make(table, n);
  }

  /** The table of chunks holding {@code length} elements, zeros, for a caller filling them. */
  static Object[] table(int length, ChunkedArray<?> kind) {
    Object[] table = kind.newTable((length + MASK) >>> SHIFT);
    for (int k = 0; k < table.length; k++) {
      table[k] = kind.newChunk();
    }
    return table;
  }

  /** References, as a {@code T[]}. */
  static final class Refs<T> extends ChunkedArray<Refs<T>> {
    private static final Refs<?> EMPTY = new Refs<>(new Object[0][], 0);
    private final Object[][] table;

    private Refs(Object[] chunks, int size) {
      super(chunks, size);
      this.table = (Object[][]) chunks;
    }

    @SuppressWarnings("unchecked")
    static <T> Refs<T> of(List<? extends T> values) {
      Object[] table = table(values.size(), EMPTY);
      for (int i = 0; i < values.size(); i++) {
        ((Object[][]) table)[i >>> SHIFT][i & MASK] = values.get(i);
      }
      return new Refs<>(table, values.size());
    }

    @SuppressWarnings("unchecked")
    T get(int i) {
      return (T) table[i >>> SHIFT][i & MASK];
    }

    Refs<T> set(int i, T value) {
      Object[] next = toWrite(i);
      ((Object[][]) next)[i >>> SHIFT][i & MASK] = value;
      return new Refs<>(next, size());
    }

    Refs<T> append(T value) {
      Object[] next = toAppend();
      ((Object[][]) next)[size() >>> SHIFT][size() & MASK] = value;
      return new Refs<>(next, size() + 1);
    }

    /** The elements as an immutable list, read through this array (no copy). */
    List<T> asList() {
      return new ListView<>(this);
    }

    @Override
    Object newChunk() {
      return new Object[SIZE];
    }

    @Override
    Object[] newTable(int length) {
      return new Object[length][];
    }

    @Override
    Refs<T> make(Object[] chunks, int size) {
      return new Refs<>(chunks, size);
    }

    private static final class ListView<T> extends AbstractList<T> implements RandomAccess {
      private final Refs<T> refs;

      ListView(Refs<T> refs) {
        this.refs = refs;
      }

      @Override
      public T get(int i) {
        java.util.Objects.checkIndex(i, refs.size());
        return refs.get(i);
      }

      @Override
      public int size() {
        return refs.size();
      }
    }
  }

  /** {@code int}s, as an {@code int[]}. */
  static final class Ints extends ChunkedArray<Ints> {
    static final Ints EMPTY = new Ints(new int[0][], 0);
    private final int[][] table;

    private Ints(Object[] chunks, int size) {
      super(chunks, size);
      this.table = (int[][]) chunks;
    }

    static Ints of(int[] values) {
      Object[] table = table(values.length, EMPTY);
      for (int k = 0; k < table.length; k++) {
        System.arraycopy(values, k << SHIFT, table[k], 0, Math.min(SIZE, values.length - (k << SHIFT)));
      }
      return new Ints(table, values.length);
    }

    int get(int i) {
      return table[i >>> SHIFT][i & MASK];
    }

    Ints set(int i, int value) {
      Object[] next = toWrite(i);
      ((int[][]) next)[i >>> SHIFT][i & MASK] = value;
      return new Ints(next, size());
    }

    Ints append(int value) {
      Object[] next = toAppend();
      ((int[][]) next)[size() >>> SHIFT][size() & MASK] = value;
      return new Ints(next, size() + 1);
    }

    /** Every element equal to {@code from} made {@code to}: the chunks holding none are shared. */
    Ints replaceAll(int from, int to) {
      int[][] next = null;
      for (int k = 0; k < table.length; k++) {
        int[] chunk = table[k];
        int end = Math.min(SIZE, size() - (k << SHIFT));
        for (int j = 0; j < end; j++) {
          if (chunk[j] == from) {
            if (next == null) {
              next = table.clone();
            }
            if (next[k] == table[k]) {
              next[k] = chunk = chunk.clone();
            }
            chunk[j] = to;
          }
        }
      }
      return next == null ? this : new Ints(next, size());
    }

    @Override
    Object newChunk() {
      return new int[SIZE];
    }

    @Override
    Object[] newTable(int length) {
      return new int[length][];
    }

    @Override
    Ints make(Object[] chunks, int size) {
      return new Ints(chunks, size);
    }
  }

  /** {@code long}s, as a {@code long[]}. */
  static final class Longs extends ChunkedArray<Longs> {
    static final Longs EMPTY = new Longs(new long[0][], 0);
    private final long[][] table;

    private Longs(Object[] chunks, int size) {
      super(chunks, size);
      this.table = (long[][]) chunks;
    }

    static Longs of(long[] values) {
      Object[] table = table(values.length, EMPTY);
      for (int k = 0; k < table.length; k++) {
        System.arraycopy(values, k << SHIFT, table[k], 0, Math.min(SIZE, values.length - (k << SHIFT)));
      }
      return new Longs(table, values.length);
    }

    long get(int i) {
      return table[i >>> SHIFT][i & MASK];
    }

    Longs set(int i, long value) {
      Object[] next = toWrite(i);
      ((long[][]) next)[i >>> SHIFT][i & MASK] = value;
      return new Longs(next, size());
    }

    Longs append(long value) {
      Object[] next = toAppend();
      ((long[][]) next)[size() >>> SHIFT][size() & MASK] = value;
      return new Longs(next, size() + 1);
    }

    @Override
    Object newChunk() {
      return new long[SIZE];
    }

    @Override
    Object[] newTable(int length) {
      return new long[length][];
    }

    @Override
    Longs make(Object[] chunks, int size) {
      return new Longs(chunks, size);
    }
  }
}
