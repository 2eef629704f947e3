package io.gpufleet.testing.property;

import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Runs a property in a plain JUnit test: {@code tries} samples (first up to a tenth of them from the
 * generators' edge cases, then random ones, each drawn from its own split of a {@link
 * SplittableRandom} made from {@code seed}); the first sample the body fails on is shrunk while it
 * still fails (at most {@link #SHRINK_LIMIT} more runs of the body) and reported with the seed, the
 * try, the first failing sample and the smallest. The same seed and tries run the same samples.
 */
public final class Property {

  /** Runs of the body spent shrinking a failing sample, at most. */
  public static final int SHRINK_LIMIT = 1_000;
  /** Characters of a sample shown in a failure report. */
  static final int SHOWN = 4_000;

  private Property() {}

  @FunctionalInterface
  public interface Body1<A> {
    void check(A a) throws Throwable;
  }

  @FunctionalInterface
  public interface Body2<A, B> {
    void check(A a, B b) throws Throwable;
  }

  @FunctionalInterface
  public interface Body3<A, B, C> {
    void check(A a, B b, C c) throws Throwable;
  }

  @FunctionalInterface
  public interface Body4<A, B, C, D> {
    void check(A a, B b, C c, D d) throws Throwable;
  }

  public static <A> void check(long seed, int tries, Gen<A> a, Body1<A> body) {
    find(seed, tries, a, body).ifPresent(f -> {
      throw f.error(seed, tries);
    });
  }

  public static <A, B> void check(long seed, int tries, Gen<A> a, Gen<B> b, Body2<A, B> body) {
    check(seed, tries, Gen.tuple(a, b), t -> body.check(t.get(0), t.get(1)));
  }

  public static <A, B, C> void check(long seed, int tries, Gen<A> a, Gen<B> b, Gen<C> c, Body3<A, B, C> body) {
    check(seed, tries, Gen.tuple(a, b, c), t -> body.check(t.get(0), t.get(1), t.get(2)));
  }

  public static <A, B, C, D> void check(long seed, int tries, Gen<A> a, Gen<B> b, Gen<C> c, Gen<D> d,
      Body4<A, B, C, D> body) {
    check(seed, tries, Gen.tuple(a, b, c, d), t -> body.check(t.get(0), t.get(1), t.get(2), t.get(3)));
  }

  /** The first failure in {@code tries} samples, shrunk; empty when the body held for every sample. */
  static <T> Optional<Failure<T>> find(long seed, int tries, Gen<T> gen, Body1<T> body) {
    List<Shrinkable<T>> edges = Gen.thin(gen.edgeCases(), tries / 10);
    SplittableRandom master = new SplittableRandom(seed);
    for (int k = 0; k < tries; k++) {
      boolean edge = k < edges.size();
      Shrinkable<T> sample = edge ? edges.get(k) : gen.draw(master.split());
      Throwable failed = failure(body, sample.value());
      if (failed != null) {
        return Optional.of(shrink(k + 1, edge, sample, failed, body));
      }
    }
    return Optional.empty();
  }

  private static <T> Failure<T> shrink(int attempt, boolean edge, Shrinkable<T> first, Throwable firstFailure,
      Body1<T> body) {
    Shrinkable<T> smallest = first;
    Throwable cause = firstFailure;
    int steps = 0;
    int runs = 0;
    boolean smaller = true;
    while (smaller && runs < SHRINK_LIMIT) {
      smaller = false;
      Iterator<Shrinkable<T>> candidates = smallest.smaller().iterator();
      while (candidates.hasNext() && runs < SHRINK_LIMIT) {
        Shrinkable<T> candidate = candidates.next();
        runs++;
        Throwable failed = failure(body, candidate.value());
        if (failed != null) {
          smallest = candidate;
          cause = failed;
          steps++;
          smaller = true;
          break;
        }
      }
    }
    return new Failure<>(attempt, edge, first.value(), smallest.value(), steps, runs, runs >= SHRINK_LIMIT, cause);
  }

  private static <T> Throwable failure(Body1<T> body, T value) {
    try {
      body.check(value);
      return null;
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable t) {
      return t;
    }
  }

  /** A failing sample as found and as shrunk, with what the body threw on the smallest. */
  record Failure<T>(int attempt, boolean edgeCase, T first, T smallest, int shrinkSteps, int shrinkRuns,
      boolean shrinkLimitReached, Throwable cause) {

    AssertionError error(long seed, int tries) {
      String message = "Property failed on try " + attempt + " of " + tries + " (seed " + seed + ", "
          + (edgeCase ? "an edge case" : "a random sample") + ").\n"
          + "Smallest failing sample, after " + shrinkSteps + " shrinking steps (" + shrinkRuns + " runs"
          + (shrinkLimitReached ? ", stopped at the limit" : "") + "):\n  " + shown(smallest) + "\n"
          + "First failing sample:\n  " + shown(first) + "\n"
          + "On the smallest: " + cause;
      return new AssertionError(message, cause);
    }

    private static String shown(Object sample) {
      String text = String.valueOf(sample);
      return text.length() <= SHOWN ? text
          : text.substring(0, SHOWN) + "... (" + (text.length() - SHOWN) + " more characters)";
    }
  }
}
