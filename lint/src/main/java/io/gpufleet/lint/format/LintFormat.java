package io.gpufleet.lint.format;

import io.gpufleet.lint.Linter;
import java.util.Locale;
import java.util.Optional;

/** The output formats of {@code gpufleet lint -o}. */
public enum LintFormat {
  TEXT,
  JSON,
  SARIF;

  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<LintFormat> fromWire(String s) {
    for (LintFormat f : values()) {
      if (f.wire().equals(s)) {
        return Optional.of(f);
      }
    }
    return Optional.empty();
  }

  /** The result in this format; {@code toolVersion} is what SARIF's driver reports. */
  public String render(Linter.Result result, String toolVersion) {
    return switch (this) {
      case TEXT -> TextFindings.render(result);
      case JSON -> JsonFindings.render(result);
      case SARIF -> SarifFindings.render(result, toolVersion);
    };
  }
}
