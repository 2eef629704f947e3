package io.gpufleet.lint;

import java.util.Locale;
import java.util.Optional;

/** How bad a finding is; ordered, so {@code --fail-on warning} also fails on errors. */
public enum Severity {
  INFO("note"),
  WARNING("warning"),
  ERROR("error");

  private final String sarifLevel;

  Severity(String sarifLevel) {
    this.sarifLevel = sarifLevel;
  }

  /** {@code info}, {@code warning}, {@code error}: how the command line and the JSON output spell it. */
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** SARIF 2.1.0's {@code level} (§3.27.10): {@code note}, {@code warning}, {@code error}. */
  public String sarifLevel() {
    return sarifLevel;
  }

  public static Optional<Severity> fromWire(String text) {
    for (Severity s : values()) {
      if (s.wire().equals(text)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }
}
