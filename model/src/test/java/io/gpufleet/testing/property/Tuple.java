package io.gpufleet.testing.property;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The values of several generators drawn together; shown as {@code (a, b, c)} in a failure report.
 *
 * @param values one per generator, in order; null where a generator drew null
 */
public record Tuple(List<Object> values) {

  /** The {@code i}-th value, typed as the caller reads it (the generator at {@code i} drew it). */
  @SuppressWarnings("unchecked")
  public <X> X get(int i) {
    return (X) values.get(i);
  }

  public int size() {
    return values.size();
  }

  @Override
  public String toString() {
    return values.stream().map(String::valueOf).collect(Collectors.joining(", ", "(", ")"));
  }
}
