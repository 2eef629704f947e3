package io.gpufleet.lint.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.lint.Finding;
import io.gpufleet.lint.LintInput;
import io.gpufleet.lint.Linter;
import io.gpufleet.manifest.ManifestSource;
import io.gpufleet.lint.rules.Rules;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The three outputs carry every finding's rule, object, field, location, why and fix. */
class FormatsTest {

  private static Linter.Result result;
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @BeforeAll
  static void lintTwoExamples() throws Exception {
    List<ManifestSource> sources = new ArrayList<>();
    for (String rule : List.of("device-plugin-config-missing", "service-without-pdb")) {
      Path p = Path.of("..", "examples", "lint", rule, "trigger.yaml");
      sources.add(new ManifestSource(p.toString(), Files.readString(p)));
    }
    result = Linter.run(LintInput.read(sources), Rules.all());
    assertThat(result.findings()).extracting(Finding::rule)
        .containsExactly("device-plugin-config-missing", "service-without-pdb");
  }

  @Test
  void sarifHasTheStructureSarif210Requires() {
    JsonNode log = JSON.readTree(LintFormat.SARIF.render(result, "0.1.0"));
    // §3.13: a sarifLog has version "2.1.0" and runs; §3.14: a run has a tool; §3.18: a tool has a driver
    // with a name; §3.27: each result has a message with text.
    assertThat(log.get("version").asString()).isEqualTo("2.1.0");
    assertThat(log.get("$schema").asString()).endsWith("sarif-schema-2.1.0.json");
    assertThat(log.get("runs")).hasSize(1);
    JsonNode run = log.get("runs").get(0);
    JsonNode driver = run.get("tool").get("driver");
    assertThat(driver.get("name").asString()).isEqualTo("gpufleet lint");
    assertThat(driver.get("version").asString()).isEqualTo("0.1.0");
    List<String> ruleIds = new ArrayList<>();
    driver.get("rules").forEach(r -> {
      ruleIds.add(r.get("id").asString());
      assertThat(r.get("shortDescription").get("text").asString()).isNotBlank();
      assertThat(r.get("defaultConfiguration").get("level").asString()).isIn("note", "warning", "error");
    });
    assertThat(ruleIds).containsExactlyElementsOf(Rules.all().stream().map(r -> r.id()).toList());
    JsonNode results = run.get("results");
    assertThat(results).hasSize(result.findings().size());
    for (int i = 0; i < results.size(); i++) {
      JsonNode r = results.get(i);
      Finding f = result.findings().get(i);
      assertThat(r.get("ruleId").asString()).isEqualTo(f.rule());
      assertThat(ruleIds.get(r.get("ruleIndex").asInt())).isEqualTo(f.rule());
      assertThat(r.get("level").asString()).isEqualTo(f.severity().sarifLevel());
      assertThat(r.get("message").get("text").asString()).contains(f.message()).contains(f.object().toString());
      JsonNode physical = r.get("locations").get(0).get("physicalLocation");
      assertThat(physical.get("artifactLocation").get("uri").asString()).isEqualTo(f.location().file());
      assertThat(physical.get("region").get("startLine").asInt()).isEqualTo(f.location().line()).isPositive();
      assertThat(physical.get("region").get("startColumn").asInt()).isEqualTo(f.location().column());
      assertThat(r.get("locations").get(0).get("logicalLocations").get(0).get("fullyQualifiedName").asString())
          .startsWith(f.object().toString());
    }
  }

  @Test
  void sarifUrisArePercentEncoded() {
    assertThat(SarifFindings.uri("my manifests/gpu pool.yaml")).isEqualTo("my%20manifests/gpu%20pool.yaml");
    assertThat(SarifFindings.uri("examples/lint/x.yaml")).isEqualTo("examples/lint/x.yaml");
  }

  @Test
  void jsonCarriesEveryField() {
    JsonNode root = JSON.readTree(LintFormat.JSON.render(result, "0.1.0"));
    JsonNode findings = root.get("findings");
    assertThat(findings).hasSize(result.findings().size());
    for (int i = 0; i < findings.size(); i++) {
      JsonNode j = findings.get(i);
      Finding f = result.findings().get(i);
      assertThat(j.get("rule").asString()).isEqualTo(f.rule());
      assertThat(j.get("severity").asString()).isEqualTo(f.severity().wire());
      assertThat(j.get("object").get("kind").asString()).isEqualTo(f.object().kind());
      assertThat(j.get("object").get("name").asString()).isEqualTo(f.object().name());
      assertThat(j.get("field").asString()).isEqualTo(f.field());
      assertThat(j.get("location").get("file").asString()).isEqualTo(f.location().file());
      assertThat(j.get("location").get("line").asInt()).isEqualTo(f.location().line());
      assertThat(j.get("location").get("column").asInt()).isEqualTo(f.location().column());
      assertThat(j.get("why").asString()).isEqualTo(f.why());
      assertThat(j.get("fix").asString()).isEqualTo(f.fix());
    }
    assertThat(root.get("summary").get("error").asLong()).isEqualTo(1);
    assertThat(root.get("summary").get("warning").asLong()).isEqualTo(1);
    // A Node has no namespace, and JSON says so by leaving it out.
    assertThat(findings.get(0).get("object").has("namespace")).isFalse();
  }

  @Test
  void textPointsAtFileLineAndColumn() {
    String text = LintFormat.TEXT.render(result, "0.1.0");
    for (Finding f : result.findings()) {
      assertThat(text).contains(f.location() + ": " + f.severity().wire() + ": " + f.object() + ": " + f.field()
          + ": " + f.message() + " [" + f.rule() + "]");
      assertThat(text).contains("    fix: " + f.fix());
    }
    assertThat(text).endsWith("2 findings: 1 error(s), 1 warning(s), 0 info (" + Rules.all().size() + " rules)\n");
  }
}
