package io.gpufleet.model.karpenter;

import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.label.SelectorOperator;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * One requirement of a NodePool template: a key, an operator, values, and optionally
 * {@code minValues}, the number of distinct values the launch must keep open (reference §1.1).
 */
public record NodePoolRequirement(String key, RequirementOperator operator, List<String> values, OptionalInt minValues) {

  public NodePoolRequirement {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(operator, "operator");
    values = List.copyOf(values);
    minValues = minValues == null ? OptionalInt.empty() : minValues;
  }

  public static NodePoolRequirement of(String key, RequirementOperator operator, String... values) {
    return new NodePoolRequirement(key, operator, List.of(values), OptionalInt.empty());
  }

  public static NodePoolRequirement in(String key, String... values) {
    return of(key, RequirementOperator.IN, values);
  }

  /**
   * As a node-selector requirement: {@code Gte n} is {@code Gt n-1} and {@code Lte n} is
   * {@code Lt n+1}, since the values are integers.
   */
  public Requirement toSelectorRequirement() {
    return switch (operator) {
      case IN -> new Requirement(key, SelectorOperator.IN, values);
      case NOT_IN -> new Requirement(key, SelectorOperator.NOT_IN, values);
      case EXISTS -> new Requirement(key, SelectorOperator.EXISTS, List.of());
      case DOES_NOT_EXIST -> new Requirement(key, SelectorOperator.DOES_NOT_EXIST, List.of());
      case GT -> new Requirement(key, SelectorOperator.GT, values);
      case LT -> new Requirement(key, SelectorOperator.LT, values);
      case GTE -> Requirement.gt(key, Long.parseLong(values.getFirst()) - 1);
      case LTE -> Requirement.lt(key, Long.parseLong(values.getFirst()) + 1);
    };
  }

  @Override
  public String toString() {
    return switch (operator) {
      case EXISTS, DOES_NOT_EXIST -> key + " " + operator;
      default -> key + " " + operator + " " + values;
    };
  }
}
