package io.gpufleet.lint.format;

import io.gpufleet.lint.Finding;
import io.gpufleet.lint.Linter;
import io.gpufleet.lint.Severity;

/**
 * Findings for a terminal, one block each, in the {@code file:line:column: severity} form compilers
 * and editors recognise, then a count.
 */
public final class TextFindings {
  private TextFindings() {}

  public static String render(Linter.Result result) {
    StringBuilder b = new StringBuilder();
    for (Finding f : result.findings()) {
      b.append(f.location()).append(": ").append(f.severity().wire()).append(": ").append(f.object()).append(": ");
      if (!f.field().isEmpty()) {
        b.append(f.field()).append(": ");
      }
      b.append(f.message()).append(" [").append(f.rule()).append("]\n");
      b.append("    why: ").append(f.why()).append('\n');
      b.append("    fix: ").append(f.fix()).append('\n');
    }
    int rules = result.rules().size();
    if (result.findings().isEmpty()) {
      b.append("no findings (").append(rules).append(" rules)\n");
    } else {
      if (!b.isEmpty()) {
        b.append('\n');
      }
      int n = result.findings().size();
      b.append(n).append(n == 1 ? " finding" : " findings").append(": ")
          .append(result.count(Severity.ERROR)).append(" error(s), ")
          .append(result.count(Severity.WARNING)).append(" warning(s), ")
          .append(result.count(Severity.INFO)).append(" info (").append(rules).append(" rules)\n");
    }
    return b.toString();
  }
}
