package io.gpufleet.lint.format;

import io.gpufleet.lint.Finding;
import io.gpufleet.lint.Linter;
import io.gpufleet.lint.Severity;
import io.gpufleet.report.json.JsonText;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Findings as JSON: one object per finding with its rule, object, field, location, why and fix, and the counts. */
public final class JsonFindings {
  private JsonFindings() {}

  public static String render(Linter.Result result) {
    List<Object> findings = new ArrayList<>();
    for (Finding f : result.findings()) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("rule", f.rule());
      o.put("severity", f.severity().wire());
      Map<String, Object> obj = new LinkedHashMap<>();
      obj.put("kind", f.object().kind());
      if (!f.object().namespace().isEmpty()) {
        obj.put("namespace", f.object().namespace());
      }
      obj.put("name", f.object().name());
      o.put("object", obj);
      o.put("field", f.field());
      Map<String, Object> at = new LinkedHashMap<>();
      at.put("file", f.location().file());
      at.put("line", f.location().line());
      at.put("column", f.location().column());
      o.put("location", at);
      o.put("message", f.message());
      o.put("why", f.why());
      o.put("fix", f.fix());
      findings.add(o);
    }
    Map<String, Object> summary = new LinkedHashMap<>();
    for (Severity s : List.of(Severity.ERROR, Severity.WARNING, Severity.INFO)) {
      summary.put(s.wire(), result.count(s));
    }
    summary.put("rules", result.rules().stream().map(r -> r.id()).toList());
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("findings", findings);
    root.put("summary", summary);
    return JsonText.write(root);
  }
}
