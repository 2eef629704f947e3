package io.gpufleet.lint;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.lint.rules.Rules;
import java.nio.file.Files;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every rule has a triggering and a clean example, run with every rule on: the trigger gives
 * exactly the findings its markers name (rule, object, field, line and column), so each example
 * shows its rule alone, and the clean example gives no finding at all.
 */
class RuleExamplesTest {

  static Stream<String> ruleIds() {
    return Rules.all().stream().map(LintRule::id);
  }

  @ParameterizedTest
  @MethodSource("ruleIds")
  void theTriggerGivesExactlyTheMarkedFindings(String rule) {
    var file = Examples.trigger(rule);
    assertThat(file).exists();
    List<Examples.Expected> expected = Examples.expected(file);
    assertThat(expected).as("markers in %s", file).isNotEmpty()
        .allSatisfy(e -> assertThat(e.rule()).isEqualTo(rule));
    List<Finding> findings = Linter.run(Examples.read(file), Rules.all()).findings();
    assertThat(findings).extracting(f -> f.rule() + " " + f.object() + " " + f.field() + " @" + f.location().line())
        .containsExactlyInAnyOrderElementsOf(expected.stream()
            .map(e -> e.rule() + " " + e.object() + " " + e.field() + " @" + e.line()).toList());
    for (Finding f : findings) {
      Examples.Expected e = expected.stream().filter(x -> x.line() == f.location().line()
          && x.field().equals(f.field())).findFirst().orElseThrow();
      assertThat(e.columns()).as("column of %s", f).contains(f.location().column());
      assertThat(f.location().file()).isEqualTo(file.toString());
      assertThat(f.severity()).isEqualTo(Rules.byId(rule).orElseThrow().severity());
      assertThat(f.message()).isNotBlank();
    }
  }

  @ParameterizedTest
  @MethodSource("ruleIds")
  void theCleanExamplesGiveNoFinding(String rule) {
    assertThat(Examples.clean(rule)).exists();
    for (var file : Examples.cleans(rule)) {
      assertThat(Linter.run(Examples.read(file), Rules.all()).findings()).as("%s", file).isEmpty();
    }
  }

  @ParameterizedTest
  @MethodSource("ruleIds")
  void theTriggerIsCaughtByItsRuleAlone(String rule) {
    LintRule r = Rules.byId(rule).orElseThrow();
    assertThat(Linter.run(Examples.read(Examples.trigger(rule)), List.of(r)).findings())
        .hasSize(Examples.expected(Examples.trigger(rule)).size());
  }

  @org.junit.jupiter.api.Test
  void everyExampleFolderBelongsToARule() throws Exception {
    try (Stream<java.nio.file.Path> dirs = Files.list(Examples.ROOT)) {
      assertThat(dirs.map(d -> d.getFileName().toString()).sorted().toList())
          .containsExactlyElementsOf(ruleIds().sorted().toList());
    }
  }
}
