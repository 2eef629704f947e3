package io.gpufleet.model.workload;

/**
 * An {@code IntOrString} as PodDisruptionBudgets and rollouts use it: a count or a percentage.
 */
public sealed interface IntOrPercent {

  record Count(int value) implements IntOrPercent {
    @Override
    public String toString() {
      return Integer.toString(value);
    }
  }

  record Percent(int percent) implements IntOrPercent {
    @Override
    public String toString() {
      return percent + "%";
    }
  }

  /** Resolves against a total, rounding a percentage up (as PDB {@code minAvailable} does) or down. */
  default int resolve(int total, boolean roundUp) {
    return switch (this) {
      case Count c -> c.value();
      case Percent p -> {
        long scaled = (long) p.percent() * total;
        yield (int) (roundUp ? (scaled + 99) / 100 : scaled / 100);
      }
    };
  }

  /** Parses {@code 3} or {@code 25%}; null on anything else. */
  static IntOrPercent parse(String text) {
    try {
      if (text.endsWith("%")) {
        return new Percent(Integer.parseInt(text.substring(0, text.length() - 1)));
      }
      return new Count(Integer.parseInt(text));
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
