package io.gpufleet.lint;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.lint.rules.Rules;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/lint.md's two rule tables (in full, and at a glance) list exactly the registered rules, with their texts and both examples. */
class RuleTableTest {

  @Test
  void theTableIsTheRegistry() throws Exception {
    List<String> lines = Files.readAllLines(Path.of("..", "docs", "lint.md"));
    List<String[]> rows = new ArrayList<>();
    for (String line : lines) {
      if (line.startsWith("| `") && line.split(" \\| ").length == 6) {
        rows.add(line.substring(2, line.length() - 2).split(" \\| "));
      }
    }
    assertThat(rows).extracting(r -> r[0]).containsExactlyElementsOf(
        Rules.all().stream().map(r -> "`" + r.id() + "`").toList());
    for (int i = 0; i < rows.size(); i++) {
      String[] row = rows.get(i);
      LintRule rule = Rules.all().get(i);
      assertThat(row[1]).as("severity of %s", rule.id()).isEqualTo(rule.severity().wire());
      assertThat(row[2]).as("what of %s", rule.id()).isEqualTo(rule.summary());
      assertThat(row[3]).as("why of %s", rule.id()).isEqualTo(rule.why());
      assertThat(row[4]).as("fix of %s", rule.id()).isEqualTo(rule.fix());
      assertThat(row[5]).contains("(../examples/lint/" + rule.id() + "/trigger.yaml)",
          "(../examples/lint/" + rule.id() + "/clean.yaml)");
    }
  }

  /** docs/lint.md's shorter table lists the same rules in the same order, with their severities, summaries and examples. */
  @Test
  void theAtAGlanceTableIsTheRegistry() throws Exception {
    List<String[]> rows = new ArrayList<>();
    for (String line : Files.readAllLines(Path.of("..", "docs", "lint.md"))) {
      if (line.startsWith("| `") && line.split(" \\| ").length == 4) {
        rows.add(line.substring(2, line.length() - 2).split(" \\| "));
      }
    }
    assertThat(rows).extracting(r -> r[0]).containsExactlyElementsOf(
        Rules.all().stream().map(r -> "`" + r.id() + "`").toList());
    for (int i = 0; i < rows.size(); i++) {
      LintRule rule = Rules.all().get(i);
      assertThat(rows.get(i)[1]).as("severity of %s", rule.id()).isEqualTo(rule.severity().wire());
      assertThat(rows.get(i)[2]).as("what of %s", rule.id()).isEqualTo(rule.summary());
      assertThat(rows.get(i)[3]).contains("(../examples/lint/" + rule.id() + "/trigger.yaml)",
          "(../examples/lint/" + rule.id() + "/clean.yaml)");
    }
  }
}
