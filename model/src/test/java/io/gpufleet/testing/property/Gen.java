package io.gpufleet.testing.property;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.random.RandomGenerator;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Draws values of {@code T} from a random generator, each with the smaller values to try when a
 * property fails on it, and names its edge cases (a range's bounds, zero and its neighbours, the empty
 * list), which {@link Property} tries first and which a draw returns now and then instead of a fresh
 * value. Immutable; the same random state gives the same value.
 */
public final class Gen<T> {

  /** One draw in this many is one of the generator's edge cases rather than a fresh value. */
  static final int EDGE_ONE_IN = 20;
  /** Edge cases kept per generator: combinations of several generators' edge cases are thinned to this many. */
  static final int MAX_EDGES = 64;
  /** A range wider than this draws half its values near the shrinking target at a random scale. */
  private static final long WIDE = 1_000;
  /**
   * Most lists are at most this much longer than their minimum (where small failing cases show and
   * samples are cheap), as in the generator these properties were written for; see {@link #drawSize}.
   */
  static final int SHORT = 16;

  private final Function<RandomGenerator, Shrinkable<T>> fresh;
  private final List<Shrinkable<T>> edges;

  private Gen(Function<RandomGenerator, Shrinkable<T>> fresh, List<Shrinkable<T>> edges) {
    this.fresh = fresh;
    this.edges = edges;
  }

  /** A value: now and then one of the edge cases, else a fresh draw. */
  public Shrinkable<T> draw(RandomGenerator r) {
    if (!edges.isEmpty() && r.nextInt(EDGE_ONE_IN) == 0) {
      return edges.get(r.nextInt(edges.size()));
    }
    return fresh.apply(r);
  }

  public List<Shrinkable<T>> edgeCases() {
    return edges;
  }

  // ---- numbers and choices ----

  /** Integers in {@code [min, max]}, shrinking towards 0 (or the bound nearest it). */
  public static Gen<Integer> ints(int min, int max) {
    return longs(min, max).map(Long::intValue);
  }

  /** Longs in {@code [min, max]}, shrinking towards 0 (or the bound nearest it). */
  public static Gen<Long> longs(long min, long max) {
    if (min > max) {
      throw new IllegalArgumentException("empty range [" + min + ", " + max + "]");
    }
    long target = Math.clamp(0, min, max);
    Set<Long> edges = new LinkedHashSet<>();
    edges.add(min);
    if (min < max) {
      edges.add(min + 1);
    }
    if (target > min) {
      edges.add(target - 1);
    }
    edges.add(target);
    if (target < max) {
      edges.add(target + 1);
    }
    if (max > min) {
      edges.add(max - 1);
    }
    edges.add(max);
    return new Gen<>(r -> shrinkLong(drawLong(r, min, max, target), target),
        edges.stream().map(e -> shrinkLong(e, target)).toList());
  }

  /** Any long: edge cases at zero and both ends. */
  public static Gen<Long> anyLong() {
    return longs(Long.MIN_VALUE, Long.MAX_VALUE);
  }

  /**
   * Doubles in {@code [min, max]} with two decimals (the scale these properties were written for), shrinking
   * towards 0 (or the bound nearest it).
   */
  public static Gen<Double> doubles(double min, double max) {
    if (!(min <= max)) {
      throw new IllegalArgumentException("empty range [" + min + ", " + max + "]");
    }
    double target = Math.clamp(0.0, min, max);
    Set<Double> edges = new LinkedHashSet<>(List.of(min, max, target));
    for (double e : new double[] {target - 0.01, target + 0.01}) {
      if (e >= min && e <= max) {
        edges.add(e);
      }
    }
    return new Gen<>(r -> {
      double v = min == max ? min : Math.clamp(scaled(r.nextDouble(min, Math.nextUp(max))), min, max);
      return shrinkDouble(v, target, min, max);
    }, edges.stream().map(e -> shrinkDouble(e, target, min, max)).toList());
  }

  /** false or true; true shrinks to false. */
  public static Gen<Boolean> booleans() {
    return of(List.of(false, true));
  }

  /** One of {@code values}, each as likely; shrinks towards the first. */
  @SafeVarargs
  public static <T> Gen<T> of(T... values) {
    return of(List.of(values));
  }

  /** One of {@code values}, each as likely; shrinks towards the first. */
  public static <T> Gen<T> of(List<T> values) {
    List<T> copy = List.copyOf(values);
    if (copy.isEmpty()) {
      throw new IllegalArgumentException("no values to choose from");
    }
    return longs(0, copy.size() - 1).map(i -> copy.get(i.intValue()));
  }

  /** Always {@code value}. */
  public static <T> Gen<T> just(T value) {
    return new Gen<>(r -> Shrinkable.of(value), List.of(Shrinkable.of(value)));
  }

  /** A draw of one of {@code gens}, each as likely. */
  @SafeVarargs
  public static <T> Gen<T> oneOf(Gen<? extends T>... gens) {
    List<Gen<T>> all = Stream.of(gens).map(Gen::<T>widen).toList();
    return new Gen<>(r -> all.get(r.nextInt(all.size())).draw(r),
        thin(all.stream().flatMap(g -> g.edges.stream()).toList(), MAX_EDGES));
  }

  /** A draw of {@code a} {@code wa} times in {@code wa + wb}, else of {@code b}. */
  public static <T> Gen<T> frequencyOf(int wa, Gen<? extends T> a, int wb, Gen<? extends T> b) {
    Gen<T> ga = widen(a);
    Gen<T> gb = widen(b);
    return new Gen<>(r -> r.nextInt(wa + wb) < wa ? ga.draw(r) : gb.draw(r),
        thin(Stream.concat(ga.edges.stream(), gb.edges.stream()).toList(), MAX_EDGES));
  }

  // ---- collections and text ----

  /** Lists of {@code min} to {@code max} elements; a failing list loses chunks, then single elements, then shrinks them. */
  public Gen<List<T>> list(int min, int max) {
    return list(min, max, null);
  }

  /** As {@link #list}, with no two elements of the same {@code key}. */
  public Gen<List<T>> uniqueList(int min, int max, Function<? super T, ?> key) {
    return list(min, max, key);
  }

  private Gen<List<T>> list(int min, int max, Function<? super T, ?> key) {
    if (min < 0 || min > max) {
      throw new IllegalArgumentException("bad list size range [" + min + ", " + max + "]");
    }
    List<Shrinkable<List<T>>> edges = new ArrayList<>();
    if (min == 0) {
      edges.add(shrinkList(List.of(), 0, key));
    }
    if (min <= 1 && max >= 1) {
      for (Shrinkable<T> e : this.edges) {
        edges.add(shrinkList(List.of(e), min, key));
      }
    }
    return new Gen<>(r -> {
      int size = drawSize(r, min, max);
      List<Shrinkable<T>> items = new ArrayList<>();
      Set<Object> keys = new HashSet<>();
      for (int attempt = 0; items.size() < size && attempt < 10 * size + 10; attempt++) {
        Shrinkable<T> s = draw(r);
        if (key == null || keys.add(key.apply(s.value()))) {
          items.add(s);
        }
      }
      if (items.size() < min) {
        throw new IllegalStateException("drew fewer than " + min + " distinct elements in " + (10 * size + 10) + " draws");
      }
      return shrinkList(items, min, key);
    }, thin(edges, MAX_EDGES));
  }

  /** Some of {@code values}, each in or out as likely, in their order; shrinks by leaving values out. */
  public static <T> Gen<List<T>> subsetOf(List<T> values) {
    List<Shrinkable<T>> all = values.stream().map(Shrinkable::of).toList();
    return new Gen<>(r -> shrinkList(all.stream().filter(v -> r.nextBoolean()).toList(), 0, null),
        List.of(shrinkList(List.of(), 0, null), shrinkList(all, 0, null)));
  }

  /** Strings of {@code min} to {@code max} characters, each one of {@code chars}. */
  public static Gen<String> strings(String chars, int min, int max) {
    return of(chars.chars().mapToObj(c -> (char) c).toList()).list(min, max).map(cs -> {
      StringBuilder b = new StringBuilder(cs.size());
      cs.forEach(b::append);
      return b.toString();
    });
  }

  // ---- composition ----

  public <R> Gen<R> map(Function<? super T, ? extends R> f) {
    return new Gen<>(r -> fresh.apply(r).map(f), edges.stream().<Shrinkable<R>>map(s -> s.map(f)).toList());
  }

  /** A draw of the generator {@code f} makes of this one's value; shrinks only within that generator. */
  public <R> Gen<R> flatMap(Function<? super T, Gen<R>> f) {
    return new Gen<>(r -> f.apply(draw(r).value()).draw(r),
        thin(edges.stream().flatMap(e -> f.apply(e.value()).edges.stream()).toList(), MAX_EDGES));
  }

  /** {@code null} with the given probability, else a draw of this; any value shrinks to null first. */
  public Gen<T> orNull(double probability) {
    List<Shrinkable<T>> withNull = new ArrayList<>();
    withNull.add(Shrinkable.of(null));
    edges.stream().map(Gen::nullable).forEach(withNull::add);
    return new Gen<>(r -> r.nextDouble() < probability ? Shrinkable.of(null) : nullable(draw(r)), withNull);
  }

  /** One value of each generator; a failing tuple shrinks one component at a time. */
  public static Gen<Tuple> tuple(Gen<?>... gens) {
    List<Gen<?>> parts = List.of(gens);
    return new Gen<>(r -> {
      List<Shrinkable<?>> drawn = new ArrayList<>(parts.size());
      for (Gen<?> g : parts) {
        drawn.add(g.draw(r));
      }
      return shrinkTuple(drawn);
    }, edgeProduct(parts));
  }

  public static <A, B, R> Gen<R> combine(Gen<A> a, Gen<B> b, BiFunction<? super A, ? super B, ? extends R> f) {
    return tuple(a, b).map(t -> f.apply(t.get(0), t.get(1)));
  }

  public static <A, B, C, R> Gen<R> combine(Gen<A> a, Gen<B> b, Gen<C> c, Fn3<A, B, C, R> f) {
    return tuple(a, b, c).map(t -> f.apply(t.get(0), t.get(1), t.get(2)));
  }

  public static <A, B, C, D, R> Gen<R> combine(Gen<A> a, Gen<B> b, Gen<C> c, Gen<D> d, Fn4<A, B, C, D, R> f) {
    return tuple(a, b, c, d).map(t -> f.apply(t.get(0), t.get(1), t.get(2), t.get(3)));
  }

  @FunctionalInterface
  public interface Fn3<A, B, C, R> {
    R apply(A a, B b, C c);
  }

  @FunctionalInterface
  public interface Fn4<A, B, C, D, R> {
    R apply(A a, B b, C c, D d);
  }

  // ---- drawing and shrinking ----

  /**
   * A list's size: one in fifty the longest allowed, one in ten above {@code min + SHORT}, the rest
   * at most {@code SHORT} above the minimum; uniform when the range is no wider than that.
   */
  static int drawSize(RandomGenerator r, int min, int max) {
    int cutoff = min + SHORT;
    if (cutoff >= max) {
      return r.nextInt(min, max + 1);
    }
    double p = r.nextDouble();
    if (p < 0.02) {
      return max;
    }
    return p < 0.12 ? r.nextInt(cutoff + 1, max + 1) : r.nextInt(min, cutoff + 1);
  }

  private static long drawLong(RandomGenerator r, long min, long max, long target) {
    if (Long.compareUnsigned(max - min, WIDE) > 0 && r.nextBoolean()) {
      // Near the target at a random scale, so that small values come up in a wide range.
      long delta = r.nextLong() >>> (64 - r.nextInt(1, 64));
      try {
        long v = r.nextBoolean() ? Math.addExact(target, delta) : Math.subtractExact(target, delta);
        if (v >= min && v <= max) {
          return v;
        }
      } catch (ArithmeticException outsideLong) {
        // fall through to a uniform draw
      }
    }
    if (min == Long.MIN_VALUE && max == Long.MAX_VALUE) {
      return r.nextLong();
    }
    return max == Long.MAX_VALUE ? r.nextLong(min - 1, max) + 1 : r.nextLong(min, max + 1);
  }

  /** The target, then values ever nearer {@code v}: halfway, three quarters, ... one step short of it. */
  private static Shrinkable<Long> shrinkLong(long v, long target) {
    return Shrinkable.of(v, () -> {
      if (v == target) {
        return Stream.empty();
      }
      boolean above = v > target;
      long distance = above ? v - target : target - v; // unsigned: the whole range of long fits
      return Stream.concat(Stream.of(0L), IntStream.range(1, 64).mapToObj(k -> distance - (distance >>> k))
              .takeWhile(m -> m != distance))
          .distinct()
          .map(m -> shrinkLong(above ? target + m : target - m, target));
    });
  }

  private static double scaled(double v) {
    return Math.round(v * 100) / 100.0;
  }

  /** As {@link #shrinkLong}, on the two-decimal grid, with the nearest whole number tried early. */
  private static Shrinkable<Double> shrinkDouble(double v, double target, double min, double max) {
    return Shrinkable.of(v, () -> Stream.concat(Stream.of(target, Math.rint(v)),
            IntStream.range(1, 40).mapToObj(k -> scaled(v - (v - target) / Math.pow(2, k))))
        .distinct()
        .filter(c -> c >= min && c <= max && Math.abs(c - target) < Math.abs(v - target))
        .map(c -> shrinkDouble(c, target, min, max)));
  }

  private static <T> Shrinkable<List<T>> shrinkList(List<Shrinkable<T>> items, int min, Function<? super T, ?> key) {
    List<T> value = new ArrayList<>(items.size());
    items.forEach(s -> value.add(s.value()));
    return Shrinkable.of(Collections.unmodifiableList(value), () -> Stream.concat(removals(items, min), elementShrinks(items))
        .filter(c -> key == null || c.stream().map(s -> key.apply(s.value())).distinct().count() == c.size())
        .map(c -> shrinkList(c, min, key)));
  }

  /** The first {@code min} elements alone, then chunks of half, a quarter, ... down to single elements removed. */
  private static <T> Stream<List<Shrinkable<T>>> removals(List<Shrinkable<T>> items, int min) {
    int n = items.size();
    if (n <= min) {
      return Stream.empty();
    }
    Stream<List<Shrinkable<T>>> prefix = Stream.of(List.copyOf(items.subList(0, min)));
    Stream<List<Shrinkable<T>>> chunks = IntStream.iterate(Math.max(1, n / 2), k -> k >= 1, k -> k == 1 ? 0 : Math.max(1, k / 2))
        .boxed()
        .flatMap(k -> IntStream.iterate(0, start -> start < n, start -> start + k)
            .filter(start -> n - Math.min(k, n - start) >= min)
            .mapToObj(start -> {
              List<Shrinkable<T>> rest = new ArrayList<>(items.subList(0, start));
              rest.addAll(items.subList(Math.min(n, start + k), n));
              return rest;
            }));
    return Stream.concat(prefix, chunks);
  }

  private static <T> Stream<List<Shrinkable<T>>> elementShrinks(List<Shrinkable<T>> items) {
    return IntStream.range(0, items.size()).boxed().flatMap(i -> items.get(i).smaller().map(s -> {
      List<Shrinkable<T>> copy = new ArrayList<>(items);
      copy.set(i, s);
      return copy;
    }));
  }

  private static <T> Shrinkable<T> nullable(Shrinkable<T> s) {
    if (s.value() == null) {
      return s;
    }
    return Shrinkable.of(s.value(), () -> Stream.concat(Stream.of(Shrinkable.<T>of(null)), s.smaller().map(Gen::nullable)));
  }

  private static Shrinkable<Tuple> shrinkTuple(List<Shrinkable<?>> parts) {
    List<Object> values = new ArrayList<>(parts.size());
    parts.forEach(p -> values.add(p.value()));
    return Shrinkable.of(new Tuple(Collections.unmodifiableList(values)),
        () -> IntStream.range(0, parts.size()).boxed().flatMap(i -> parts.get(i).smaller().map(s -> {
          List<Shrinkable<?>> copy = new ArrayList<>(parts);
          copy.set(i, s);
          return shrinkTuple(copy);
        })));
  }

  /** Combinations of the parts' edge cases, all of them or {@link #MAX_EDGES} spread evenly over them. */
  private static List<Shrinkable<Tuple>> edgeProduct(List<Gen<?>> parts) {
    BigInteger count = BigInteger.ONE;
    for (Gen<?> g : parts) {
      count = count.multiply(BigInteger.valueOf(g.edges.size()));
    }
    if (count.signum() == 0) {
      return List.of();
    }
    int take = count.min(BigInteger.valueOf(MAX_EDGES)).intValueExact();
    List<Shrinkable<Tuple>> out = new ArrayList<>(take);
    for (int j = 0; j < take; j++) {
      // Spread over the product, plus j so the fastest-varying parts vary too when the product is a multiple of take.
      BigInteger index = count.multiply(BigInteger.valueOf(j)).divide(BigInteger.valueOf(take)).add(BigInteger.valueOf(j))
          .mod(count);
      List<Shrinkable<?>> combo = new ArrayList<>(parts.size());
      for (Gen<?> g : parts) {
        BigInteger[] qr = index.divideAndRemainder(BigInteger.valueOf(g.edges.size()));
        combo.add(g.edges.get(qr[1].intValueExact()));
        index = qr[0];
      }
      out.add(shrinkTuple(combo));
    }
    return out;
  }

  /** All of {@code items}, or {@code limit} of them spread evenly. */
  static <X> List<X> thin(List<X> items, int limit) {
    if (items.size() <= limit) {
      return items;
    }
    List<X> out = new ArrayList<>(limit);
    for (int j = 0; j < limit; j++) {
      out.add(items.get((int) ((long) j * items.size() / limit)));
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static <T> Gen<T> widen(Gen<? extends T> g) {
    return (Gen<T>) g; // a generator only produces values, so one of a subtype is one of T
  }
}
