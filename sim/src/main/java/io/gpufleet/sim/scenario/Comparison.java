package io.gpufleet.sim.scenario;

/** How a counted quantity is compared in a condition, and the field a scenario writes it as. */
public enum Comparison {
  EQ("==", "equals"),
  GE(">=", "atLeast"),
  LE("<=", "atMost"),
  GT(">", "moreThan"),
  LT("<", "lessThan");

  private final String symbol;
  private final String field;

  Comparison(String symbol, String field) {
    this.symbol = symbol;
    this.field = field;
  }

  /** The scenario field: {@code equals}, {@code atLeast}, {@code atMost}, {@code moreThan}, {@code lessThan}. */
  public String field() {
    return field;
  }

  public boolean test(long actual, long expected) {
    return switch (this) {
      case EQ -> actual == expected;
      case GE -> actual >= expected;
      case LE -> actual <= expected;
      case GT -> actual > expected;
      case LT -> actual < expected;
    };
  }

  public boolean test(double actual, double expected) {
    return switch (this) {
      case EQ -> actual == expected;
      case GE -> actual >= expected;
      case LE -> actual <= expected;
      case GT -> actual > expected;
      case LT -> actual < expected;
    };
  }

  @Override
  public String toString() {
    return symbol;
  }
}
