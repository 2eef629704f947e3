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
    return holds(Long.compare(actual, expected));
  }

  public boolean test(double actual, double expected) {
    return holds(Double.compare(actual, expected));
  }

  /** Whether the comparison holds for {@code cmp}, the sign of actual against expected. */
  private boolean holds(int cmp) {
    return switch (this) {
      case EQ -> cmp == 0;
      case GE -> cmp >= 0;
      case LE -> cmp <= 0;
      case GT -> cmp > 0;
      case LT -> cmp < 0;
    };
  }

  @Override
  public String toString() {
    return symbol;
  }
}
