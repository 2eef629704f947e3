package io.gpufleet.testing.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * docs/conformance.md and the README as the suites read them (tests run in a module's folder, so both
 * are one level up): a system's section, its count table, and the overview rows that quote totals.
 */
public final class ConformanceDoc {
  private ConformanceDoc() {}

  /** A row {@code | area | cases | passing | known differences |} (Karpenter's and Kueue's tables). */
  public static final Pattern AREA_CASES_PASSING_DIFFERENCES =
      Pattern.compile("^\\| (?<area>\\S[^|]*?) \\| (?<cases>\\d+) \\| (?<passing>\\d+) \\| (?<differences>\\d+) \\|$");
  /** A row {@code | plugin | cases | passing |} (kube-scheduler's table). */
  public static final Pattern AREA_CASES_PASSING =
      Pattern.compile("^\\| (?<area>\\S[^|]*?) \\| (?<cases>\\d+) \\| (?<passing>\\d+) \\|$");
  /** A row {@code | area | upstream | cases | passing |} (NVIDIA's table). */
  public static final Pattern AREA_UPSTREAM_CASES_PASSING =
      Pattern.compile("^\\| (?<area>\\S[^|]*?) \\| [^|]+ \\| (?<cases>\\d+) \\| (?<passing>\\d+) \\|$");

  /** The lines of docs/conformance.md. */
  public static List<String> page() throws IOException {
    return Files.readAllLines(Path.of("..", "docs", "conformance.md"), StandardCharsets.UTF_8);
  }

  /** The lines of the README. */
  public static List<String> readme() throws IOException {
    return Files.readAllLines(Path.of("..", "README.md"), StandardCharsets.UTF_8);
  }

  /** A section of docs/conformance.md: from its heading (say {@code ## Kueue}) to the next one of the same level. */
  public static List<String> section(String heading) throws IOException {
    List<String> lines = page();
    int from = lines.indexOf(heading);
    assertThat(from).as("docs/conformance.md has a '%s' section", heading).isNotNegative();
    int to = from + 1;
    while (to < lines.size() && !lines.get(to).startsWith("## ")) {
      to++;
    }
    return lines.subList(from, to);
  }

  /**
   * The rows of a count table, in the lines' order: each line that matches {@code row} (named groups
   * {@code area}, {@code cases}, {@code passing}, and optionally {@code differences}, which must equal
   * cases minus passing), keyed by its area without code quotes.
   */
  public static Map<String, Count> table(List<String> lines, Pattern row) {
    boolean hasDifferences = row.namedGroups().containsKey("differences");
    Map<String, Count> rows = new LinkedHashMap<>();
    for (String line : lines) {
      Matcher m = row.matcher(line.strip());
      if (m.matches()) {
        Count count = new Count(Integer.parseInt(m.group("cases")), Integer.parseInt(m.group("passing")));
        if (hasDifferences) {
          assertThat(Integer.parseInt(m.group("differences"))).as(line).isEqualTo(count.differences());
        }
        rows.put(m.group("area").replace("`", ""), count);
      }
    }
    return rows;
  }

  /** The tests of the known differences that a section does not name (each must be listed with its reason). */
  public static List<String> unlistedDifferences(List<String> section, List<UpstreamCase> cases) {
    String text = String.join("\n", section);
    return Cases.differences(cases).stream().filter(test -> !text.contains(test)).toList();
  }

  /** The first line that starts with {@code prefix} (an overview row, say {@code | Kueue}), or "" when none does. */
  public static String row(List<String> lines, String prefix) {
    return lines.stream().filter(l -> l.startsWith(prefix)).findFirst().orElse("");
  }

  /** How an overview row of docs/conformance.md ends: {@code | cases | passing |}. */
  public static String overviewCells(Count total) {
    return "| " + total.cases() + " | " + total.passing() + " |";
  }

  /** How a conformance row of the README ends: {@code | N cases, P passing |}. */
  public static String readmeCells(Count total) {
    return "| " + total.cases() + " cases, " + total.passing() + " passing |";
  }

  /**
   * Counts as a markdown table, as a suite prints them for the docs (on standard output, and returned
   * for its assertion messages): area, cases, passing and, where the suite's table has it, known
   * differences.
   */
  public static String printed(String areaColumn, Map<String, Count> counts, boolean withDifferences) {
    StringBuilder out = new StringBuilder("| " + areaColumn + " | cases | passing |"
        + (withDifferences ? " known differences |\n|---|---:|---:|---:|\n" : "\n|---|---:|---:|\n"));
    counts.forEach((area, c) -> {
      out.append("| ").append(area).append(" | ").append(c.cases()).append(" | ").append(c.passing()).append(" |");
      if (withDifferences) {
        out.append(" ").append(c.differences()).append(" |");
      }
      out.append("\n");
    });
    System.out.print(out);
    return out.toString();
  }
}
