package io.gpufleet.model.label;

import java.util.List;
import java.util.Objects;

/**
 * One requirement on one label: {@code key In [a, b]}, {@code key Exists}, {@code key Gt 40000}.
 * Used by label selectors, node selector terms and Karpenter NodePool requirements.
 */
public record Requirement(String key, SelectorOperator operator, List<String> values) {

  public Requirement {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(operator, "operator");
    values = List.copyOf(values);
  }

  public static Requirement in(String key, String... values) {
    return new Requirement(key, SelectorOperator.IN, List.of(values));
  }

  public static Requirement notIn(String key, String... values) {
    return new Requirement(key, SelectorOperator.NOT_IN, List.of(values));
  }

  public static Requirement exists(String key) {
    return new Requirement(key, SelectorOperator.EXISTS, List.of());
  }

  public static Requirement doesNotExist(String key) {
    return new Requirement(key, SelectorOperator.DOES_NOT_EXIST, List.of());
  }

  public static Requirement gt(String key, long value) {
    return new Requirement(key, SelectorOperator.GT, List.of(Long.toString(value)));
  }

  public static Requirement lt(String key, long value) {
    return new Requirement(key, SelectorOperator.LT, List.of(Long.toString(value)));
  }

  /**
   * Whether the labels satisfy this requirement, with node-affinity semantics: {@code NotIn} and
   * {@code DoesNotExist} hold when the label is absent; {@code Gt}/{@code Lt} fail when the label
   * or the value is not an integer.
   */
  public boolean matches(Labels labels) {
    String actual = labels.map().get(key);
    return switch (operator) {
      case IN -> actual != null && values.contains(actual);
      case NOT_IN -> actual == null || !values.contains(actual);
      case EXISTS -> actual != null;
      case DOES_NOT_EXIST -> actual == null;
      case GT, LT -> {
        if (actual == null || values.size() != 1) {
          yield false;
        }
        Long have = parseLong(actual);
        Long want = parseLong(values.getFirst());
        if (have == null || want == null) {
          yield false;
        }
        yield operator == SelectorOperator.GT ? have > want : have < want;
      }
    };
  }

  private static Long parseLong(String s) {
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  @Override
  public String toString() {
    return switch (operator) {
      case EXISTS, DOES_NOT_EXIST -> key + " " + operator;
      default -> key + " " + operator + " " + values;
    };
  }
}
