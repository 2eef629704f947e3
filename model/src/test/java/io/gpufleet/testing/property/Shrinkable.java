package io.gpufleet.testing.property;

import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * A drawn value and, made only when a property fails on it, the smaller values to try in its place,
 * most promising first.
 */
public final class Shrinkable<T> {

  private final T value;
  private final Supplier<Stream<Shrinkable<T>>> smaller;

  private Shrinkable(T value, Supplier<Stream<Shrinkable<T>>> smaller) {
    this.value = value;
    this.smaller = smaller;
  }

  /** A value that does not shrink. */
  public static <T> Shrinkable<T> of(T value) {
    return new Shrinkable<>(value, Stream::empty);
  }

  public static <T> Shrinkable<T> of(T value, Supplier<Stream<Shrinkable<T>>> smaller) {
    return new Shrinkable<>(value, smaller);
  }

  public T value() {
    return value;
  }

  public Stream<Shrinkable<T>> smaller() {
    return smaller.get();
  }

  public <R> Shrinkable<R> map(Function<? super T, ? extends R> f) {
    return new Shrinkable<>(f.apply(value), () -> smaller.get().map(s -> s.map(f)));
  }

  @Override
  public String toString() {
    return String.valueOf(value);
  }
}
