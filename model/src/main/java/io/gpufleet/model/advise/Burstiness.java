package io.gpufleet.model.advise;

import java.util.Locale;
import java.util.Optional;

/**
 * How irregular request arrivals are: the squared coefficient of variation of the time between
 * requests. Poisson arrivals have 1; a steady stream less; traffic that comes in bursts more.
 *
 * @param scv squared coefficient of variation of inter-arrival times, at least 0.01
 */
public record Burstiness(double scv) {

  /** Independent arrivals (the H200 open-loop runs draw their gaps from an exponential). */
  public static final Burstiness POISSON = new Burstiness(1.0);

  /**
   * gpufleet's convention for "bursty" when no number is given: inter-arrival SCV 4, i.e. gaps
   * twice as variable (in standard deviation) as Poisson's. A choice, not a measurement; give the
   * number when you know it.
   */
  public static final Burstiness BURSTY = new Burstiness(4.0);

  public Burstiness {
    if (!(scv >= 0.01 && scv <= 100)) {
      throw new IllegalArgumentException("burstiness (inter-arrival SCV) must be in [0.01, 100], found " + scv);
    }
  }

  /** {@code poisson}, {@code bursty}, or a number. */
  public static Optional<Burstiness> parse(String text) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    if (t.equals("poisson")) {
      return Optional.of(POISSON);
    }
    if (t.equals("bursty")) {
      return Optional.of(BURSTY);
    }
    try {
      double v = Double.parseDouble(t);
      return v >= 0.01 && v <= 100 ? Optional.of(new Burstiness(v)) : Optional.empty();
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** {@code poisson}, {@code bursty} or the number. */
  public String label() {
    if (equals(POISSON)) {
      return "poisson";
    }
    if (equals(BURSTY)) {
      return "bursty";
    }
    return String.format(Locale.ROOT, "scv %.2f", scv);
  }
}
