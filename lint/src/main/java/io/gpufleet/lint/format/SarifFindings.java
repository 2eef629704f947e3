package io.gpufleet.lint.format;

import io.gpufleet.lint.Finding;
import io.gpufleet.lint.LintRule;
import io.gpufleet.lint.Linter;
import io.gpufleet.report.json.JsonText;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Findings as a SARIF 2.1.0 log (OASIS Static Analysis Results Interchange Format, 2.1.0 errata 01):
 * one run whose driver lists the rules that ran, one result per finding with its level, message,
 * physical location (file as a relative URI reference, 1-based line and column) and the object as
 * a logical location. Code-scanning tools read it as they read any linter's.
 */
public final class SarifFindings {
  private SarifFindings() {}

  /** The schema the log declares (SARIF 2.1.0, §3.13.3 {@code $schema}). */
  public static final String SCHEMA =
      "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

  public static String render(Linter.Result result, String toolVersion) {
    List<Object> rules = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    for (LintRule r : result.rules()) {
      ids.add(r.id());
      Map<String, Object> rule = new LinkedHashMap<>();
      rule.put("id", r.id());
      rule.put("shortDescription", text(r.summary()));
      rule.put("fullDescription", text(r.why()));
      rule.put("help", text(r.fix()));
      rule.put("defaultConfiguration", Map.of("level", r.severity().sarifLevel()));
      rules.add(rule);
    }
    List<Object> results = new ArrayList<>();
    for (Finding f : result.findings()) {
      Map<String, Object> res = new LinkedHashMap<>();
      res.put("ruleId", f.rule());
      res.put("ruleIndex", ids.indexOf(f.rule()));
      res.put("level", f.severity().sarifLevel());
      res.put("message", text(f.object() + ": " + (f.field().isEmpty() ? "" : f.field() + ": ") + f.message()
          + ". " + f.fix()));
      Map<String, Object> physical = new LinkedHashMap<>();
      physical.put("artifactLocation", Map.of("uri", uri(f.location().file())));
      if (f.location().line() > 0) {
        Map<String, Object> region = new LinkedHashMap<>();
        region.put("startLine", f.location().line());
        region.put("startColumn", Math.max(1, f.location().column()));
        physical.put("region", region);
      }
      Map<String, Object> logical = new LinkedHashMap<>();
      logical.put("fullyQualifiedName", f.object().toString() + (f.field().isEmpty() ? "" : "." + f.field()));
      logical.put("kind", "object");
      Map<String, Object> location = new LinkedHashMap<>();
      location.put("physicalLocation", physical);
      location.put("logicalLocations", List.of(logical));
      res.put("locations", List.of(location));
      Map<String, Object> properties = new LinkedHashMap<>();
      properties.put("object", f.object().toString());
      properties.put("field", f.field());
      properties.put("why", f.why());
      properties.put("fix", f.fix());
      res.put("properties", properties);
      results.add(res);
    }
    Map<String, Object> driver = new LinkedHashMap<>();
    driver.put("name", "gpufleet lint");
    driver.put("version", toolVersion);
    driver.put("rules", rules);
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("tool", Map.of("driver", driver));
    run.put("columnKind", "unicodeCodePoints");
    run.put("results", results);
    Map<String, Object> log = new LinkedHashMap<>();
    log.put("$schema", SCHEMA);
    log.put("version", "2.1.0");
    log.put("runs", List.of(run));
    return JsonText.write(log);
  }

  private static Map<String, Object> text(String s) {
    return Map.of("text", s);
  }

  /** A file name as a relative URI reference: path characters kept, anything else percent-encoded. */
  static String uri(String file) {
    try {
      return new URI(null, null, file.replace('\\', '/'), null).toASCIIString();
    } catch (URISyntaxException e) {
      return file;
    }
  }
}
