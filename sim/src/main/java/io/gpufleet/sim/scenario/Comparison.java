package io.gpufleet.sim.scenario;

/** How a counted quantity is compared in a condition. */
public enum Comparison {
  EQ("=="),
  GE(">="),
  LE("<="),
  GT(">"),
  LT("<");

  private final String symbol;

  Comparison(String symbol) {
    this.symbol = symbol;
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

  @Override
  public String toString() {
    return symbol;
  }
}
